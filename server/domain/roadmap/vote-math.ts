import { addDays, type Day } from '../../core/workspace-time';
import { MOMENTUM_DAYS, TOP_ITEMS, TREND_DAYS } from './rules';

/**
 * The pure arithmetic of GET /roadmap-votes: per-day trend, momentum and the two top lists.
 *
 * Orders (ties broken so the answer never depends on SQL row order):
 * - mostRequested: votes desc, then momentum7d desc, then roadmap order; items with no vote are left out.
 * - mostTrending: momentum7d desc, then votes desc, then roadmap order; items already in
 *   mostRequested and items with no vote in the last 7 days are left out.
 */

export interface TrendPoint {
  /** UTC day, YYYY-MM-DD. */
  date: string;
  /** Standing votes cast on that UTC day. @isInt */
  votes: number;
}

export interface ItemVoteFigures {
  key: string;
  votes: number;
  trend: TrendPoint[];
  momentum7d: number;
}

/** The 14 UTC days ending today, oldest first. */
export function trendDays(today: Day): Day[] {
  return Array.from({ length: TREND_DAYS }, (_, i) => addDays(today, i - (TREND_DAYS - 1)));
}

/**
 * Figures per item, in the order of `keys`: `totals` holds every standing vote per item,
 * `perDay` the votes per item and UTC day within the trend window.
 */
export function itemFigures(keys: readonly string[], today: Day, totals: Map<string, number>, perDay: Map<string, Map<Day, number>>): ItemVoteFigures[] {
  const days = trendDays(today);
  return keys.map((key) => {
    const byDay = perDay.get(key);
    const trend = days.map((date) => ({ date, votes: byDay?.get(date) ?? 0 }));
    const momentum7d = trend.slice(-MOMENTUM_DAYS).reduce((sum, p) => sum + p.votes, 0);
    return { key, votes: totals.get(key) ?? 0, trend, momentum7d };
  });
}

/** mostRequested then mostTrending (keys), by the orders above. `items` is in roadmap order. */
export function topLists(items: readonly ItemVoteFigures[]): { mostRequested: string[]; mostTrending: string[] } {
  const ranked = items.map((item, position) => ({ item, position }));
  const mostRequested = ranked
    .filter((r) => r.item.votes > 0)
    .sort((a, b) => b.item.votes - a.item.votes || b.item.momentum7d - a.item.momentum7d || a.position - b.position)
    .slice(0, TOP_ITEMS)
    .map((r) => r.item.key);
  const taken = new Set(mostRequested);
  const mostTrending = ranked
    .filter((r) => r.item.momentum7d > 0 && !taken.has(r.item.key))
    .sort((a, b) => b.item.momentum7d - a.item.momentum7d || b.item.votes - a.item.votes || a.position - b.position)
    .slice(0, TOP_ITEMS)
    .map((r) => r.item.key);
  return { mostRequested, mostTrending };
}
