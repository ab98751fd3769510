import type { Clock } from '../../core/clock';
import { DeskError, invalid } from '../../core/errors';
import { RELEASES, type ReleaseHighlight, type ReleaseRecord } from './releases';
import { CADENCE_DAYS, CHANGELOG_LIMIT, SINCE_REV, TREND_THRESHOLD, TREND_WEEKS, type TrendVerb } from './rules';
import { dayBuckets, peakWindow, topWeeks, weeklyBuckets, windowDays, type CadenceDay, type PeakWeek, type WeekBucket } from './cadence';

/** One release as the API serves it. */
export interface Release {
  /** `rev <number>` */
  rev: string;
  /** ISO date (UTC) */
  date: string;
  title: string;
  highlights: ReleaseHighlight[];
  /** The release's human page: `{base_url}/changelog/<number>`. */
  url: string;
}

export interface ChangelogList {
  /** When this answer was made (the desk's clock). */
  generatedAt: string;
  /** Releases in the changelog. */
  total: number;
  /** Releases newer than `sinceRev` (all of them without it). */
  filtered: number;
  /** Releases in this answer (at most `limit`). */
  returned: number;
  /** The `sinceRev` asked for, or null. */
  sinceRev: number | null;
  /** Newest first. */
  releases: Release[];
}

export interface ReleaseNeighbors {
  /** The next release after this one, or null for the newest. */
  newer: Release | null;
  /** The release before this one, or null for rev 1. */
  older: Release | null;
}

export interface ReleaseDetail extends Release {
  neighbors: ReleaseNeighbors;
}

export interface PeakWeekAnswer {
  generatedAt: string;
  /** Window length in UTC days, ending today (UTC). */
  days: number;
  windowStart: string;
  windowEnd: string;
  /** The most active 7-day span of the window, or null when the window has no release. */
  peakWeek: PeakWeek | null;
  /** Rev labels of peakWeek, oldest first (empty when peakWeek is null). */
  peakWeekRevs: string[];
}

export interface CadenceAnswer extends PeakWeekAnswer {
  totalRevsInWindow: number;
  activeDays: number;
  /** totalRevsInWindow / activeDays rounded to 2 decimals; 0 without active days. */
  avgRevsPerActiveDay: number;
  /** The day with the most releases (earliest of a tie), or null when the window has none. */
  peakDay: { date: string; revCount: number; revs: string[] } | null;
  /** Up to 3 weekly buckets with at least one release: revCount descending, ties by weekStart ascending. */
  topWeeks: WeekBucket[];
  /** Every day of the window, oldest first, empty days included with revCount 0. */
  perDay: CadenceDay[];
  /** 7-day buckets ending today, oldest first; the oldest is shorter when `days` is not a multiple of 7. */
  weekly: WeekBucket[];
}

export interface TrendAnswer {
  generatedAt: string;
  /** Accelerating: delta >= 2; Cooling: delta <= -2; Steady: in between; `—`: no release in the 4 weeks. */
  verb: TrendVerb;
  /** Releases in the newest two weekly buckets (the last 14 UTC days, today included). */
  latest: number;
  /** Releases in the two buckets before them (days 15-28 back). */
  prior: number;
  /** latest - prior */
  delta: number;
  /** The 4 trailing 7-day buckets, oldest to newest. */
  buckets: WeekBucket[];
}

export const revLabel = (n: number): string => `rev ${n}`;

/** Newest first, as every list serves them. */
const NEWEST_FIRST: readonly ReleaseRecord[] = [...RELEASES].sort((a, b) => b.n - a.n);

function intIn(field: string, value: number | undefined, r: { min: number; max: number }, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < r.min || value > r.max) throw invalid(field, `must be an integer from ${r.min} to ${r.max}`);
  return value;
}

const releaseNotFound = (rev: string) => new DeskError(404, 'not_found', `No release ${rev} in the changelog`);

/**
 * Desk's changelog: its own releases (static data of this build, server/domain/changelog/releases.ts)
 * and the cadence reads over them. Windows are whole UTC days ending on the clock's UTC today.
 */
export class ChangelogService {
  constructor(private readonly clock: Clock) {}

  private toRelease(r: ReleaseRecord, baseUrl: string): Release {
    return { rev: revLabel(r.n), date: r.date, title: r.title, highlights: r.highlights.map((x) => ({ ...x })), url: `${baseUrl}/changelog/${r.n}` };
  }

  list(q: { limit?: number; sinceRev?: number }, baseUrl: string): ChangelogList {
    const limit = intIn('limit', q.limit, CHANGELOG_LIMIT, CHANGELOG_LIMIT.default);
    const sinceRev = q.sinceRev === undefined ? null : intIn('sinceRev', q.sinceRev, SINCE_REV, 0);
    const filtered = sinceRev === null ? NEWEST_FIRST : NEWEST_FIRST.filter((r) => r.n > sinceRev);
    const releases = filtered.slice(0, limit).map((r) => this.toRelease(r, baseUrl));
    return { generatedAt: this.clock.now().toISOString(), total: RELEASES.length, filtered: filtered.length, returned: releases.length, sinceRev, releases };
  }

  /** The release a path names: `12`, `rev 12` or `rev-12` (any case). Anything else is a 422; a number with no release a 404. */
  detail(rev: string, baseUrl: string): ReleaseDetail {
    const match = /^\s*(?:rev[\s-]*)?(\d{1,7})\s*$/i.exec(rev);
    if (!match) throw invalid('rev', 'must be a release number such as 12 (or `rev 12`)');
    const n = Number(match[1]);
    const index = NEWEST_FIRST.findIndex((r) => r.n === n);
    if (index < 0) throw releaseNotFound(revLabel(n));
    return this.detailAt(index, baseUrl);
  }

  latest(baseUrl: string): ReleaseDetail {
    return this.detailAt(0, baseUrl);
  }

  private detailAt(index: number, baseUrl: string): ReleaseDetail {
    const newer = index > 0 ? this.toRelease(NEWEST_FIRST[index - 1], baseUrl) : null;
    const older = index < NEWEST_FIRST.length - 1 ? this.toRelease(NEWEST_FIRST[index + 1], baseUrl) : null;
    return { ...this.toRelease(NEWEST_FIRST[index], baseUrl), neighbors: { newer, older } };
  }

  cadence(q: { days?: number }): CadenceAnswer {
    const days = intIn('days', q.days, CADENCE_DAYS, CADENCE_DAYS.default);
    const window = windowDays(this.clock.now(), days);
    const perDay = dayBuckets(RELEASES, window);
    const weekly = weeklyBuckets(RELEASES, window);
    const peak = peakWindow(RELEASES, window);
    const active = perDay.filter((d) => d.revCount > 0);
    const total = active.reduce((sum, d) => sum + d.revCount, 0);
    let peakDay: CadenceAnswer['peakDay'] = null;
    for (const d of active) if (peakDay === null || d.revCount > peakDay.revCount) peakDay = { date: d.date, revCount: d.revCount, revs: releasesOn(d.date) };
    return {
      generatedAt: this.clock.now().toISOString(),
      days,
      windowStart: window[0],
      windowEnd: window[window.length - 1],
      totalRevsInWindow: total,
      activeDays: active.length,
      avgRevsPerActiveDay: active.length === 0 ? 0 : Math.round((total / active.length) * 100) / 100,
      peakDay,
      peakWeek: peak.peakWeek,
      peakWeekRevs: peak.peakWeekRevs,
      topWeeks: topWeeks(weekly),
      perDay,
      weekly,
    };
  }

  peakWeek(q: { days?: number }): PeakWeekAnswer {
    const days = intIn('days', q.days, CADENCE_DAYS, CADENCE_DAYS.default);
    const window = windowDays(this.clock.now(), days);
    return { generatedAt: this.clock.now().toISOString(), days, windowStart: window[0], windowEnd: window[window.length - 1], ...peakWindow(RELEASES, window) };
  }

  trend(): TrendAnswer {
    const buckets = weeklyBuckets(RELEASES, windowDays(this.clock.now(), TREND_WEEKS * 7));
    const half = TREND_WEEKS / 2;
    const sum = (bs: WeekBucket[]) => bs.reduce((s, b) => s + b.revCount, 0);
    const prior = sum(buckets.slice(0, half));
    const latest = sum(buckets.slice(half));
    const delta = latest - prior;
    const verb: TrendVerb = latest + prior === 0 ? '—' : delta >= TREND_THRESHOLD ? 'Accelerating' : delta <= -TREND_THRESHOLD ? 'Cooling' : 'Steady';
    return { generatedAt: this.clock.now().toISOString(), verb, latest, prior, delta, buckets };
  }
}

/** Rev labels of the releases of one day, oldest first. */
function releasesOn(date: string): string[] {
  return RELEASES.filter((r) => r.date === date).map((r) => revLabel(r.n));
}
