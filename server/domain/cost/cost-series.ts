import type { Db } from '../../../db/connection';
import type { Day } from '../../core/workspace-time';
import { microToCents, microToUsd, type CostAmount, type CostDimension } from './rules';

/**
 * The one way to read a cost trajectory: daily buckets of a dimension's keys over a window of
 * workspace days, zero-filled (a day without a cost_daily row is a zero day), oldest first. One
 * query per call, served by cost_daily's primary key (dimension, key, day): a window of 30 days
 * costs 30 rows per key, never a scan of the history.
 */

/** One day of a trajectory as the API shows it. */
export interface CostPoint {
  /** A workspace-timezone day, YYYY-MM-DD. */
  date: string;
  /** @isInt */
  inputTokens: number;
  /** @isInt */
  outputTokens: number;
  /** USD, 6 decimals. */
  estimatedCostUsd: number;
}

/** One day of a series, exact (micro-USD). */
export interface DailyCost extends CostAmount {
  day: Day;
}

/** Keys per query: well under SQLite's bound-parameter limit. */
const KEYS_PER_QUERY = 500;

/** Zero-filled daily series of `keys` of `dimension` over `window` (consecutive days, oldest first). */
export async function readCostSeries(db: Db, dimension: CostDimension, keys: readonly string[], window: readonly Day[]): Promise<Map<string, DailyCost[]>> {
  const out = new Map<string, DailyCost[]>();
  const distinct = [...new Set(keys)];
  if (distinct.length === 0 || window.length === 0) return out;
  const found = new Map<string, CostAmount>();
  for (let i = 0; i < distinct.length; i += KEYS_PER_QUERY) {
    const rows = await db
      .selectFrom('costDaily')
      .select(['key', 'day', 'inputTokens', 'outputTokens', 'costMicroUsd'])
      .where('dimension', '=', dimension)
      .where('key', 'in', distinct.slice(i, i + KEYS_PER_QUERY))
      .where('day', '>=', window[0])
      .where('day', '<=', window[window.length - 1])
      .execute();
    for (const r of rows) found.set(`${r.key}\u0000${r.day}`, r);
  }
  for (const key of distinct) {
    out.set(
      key,
      window.map((day) => {
        const r = found.get(`${key}\u0000${day}`);
        return { day, inputTokens: r?.inputTokens ?? 0, outputTokens: r?.outputTokens ?? 0, costMicroUsd: r?.costMicroUsd ?? 0 };
      }),
    );
  }
  return out;
}

/** The zero-filled series of one key. */
export async function readKeySeries(db: Db, dimension: CostDimension, key: string, window: readonly Day[]): Promise<DailyCost[]> {
  return (await readCostSeries(db, dimension, [key], window)).get(key) ?? [];
}

export const toPoints = (series: readonly DailyCost[]): CostPoint[] =>
  series.map((d) => ({ date: d.day, inputTokens: d.inputTokens, outputTokens: d.outputTokens, estimatedCostUsd: microToUsd(d.costMicroUsd) }));

/** The series as whole cents per day (sparklines and trajectory7d). */
export const toCents = (series: readonly DailyCost[]): number[] => series.map((d) => microToCents(d.costMicroUsd));

/** Micro-USD over a series. */
export const seriesMicro = (series: readonly DailyCost[]): number => series.reduce((a, d) => a + d.costMicroUsd, 0);

/** Recorded days a key's history keeps in an answer (the newest). */
export const COST_HISTORY_MAX_DAYS = 90;

/**
 * The days a key has cost recorded (no zero days), oldest first, at most the newest
 * COST_HISTORY_MAX_DAYS: a history that needs no clock, read backwards along the primary key.
 */
export async function readCostHistory(db: Db, dimension: CostDimension, key: string, max = COST_HISTORY_MAX_DAYS): Promise<CostPoint[]> {
  const rows = await db
    .selectFrom('costDaily')
    .select(['day', 'inputTokens', 'outputTokens', 'costMicroUsd'])
    .where('dimension', '=', dimension)
    .where('key', '=', key)
    .orderBy('day', 'desc')
    .limit(max)
    .execute();
  return toPoints(rows.reverse());
}
