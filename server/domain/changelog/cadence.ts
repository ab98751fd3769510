import { DAY_MS } from '../../core/clock';
import type { ReleaseRecord } from './releases';
import { SAMPLE_REVS_PER_DAY, TOP_WEEKS, TRAJECTORY_WINDOWS } from './rules';

/**
 * Pure date bucketing of the changelog's cadence reads. Release dates are UTC calendar dates, so the
 * windows are whole UTC days too (a UTC day is always 24 hours: plain day arithmetic is exact).
 */

/** The release history as of an active day (all releases, not only the window's). */
export interface HistoricalTrajectory {
  /** Releases shipped from rev 1 up to and including this day. */
  cumulativeRevs: number;
  /** Releases in the 30 days ending on this day (this day included). */
  revsLast30Days: number;
  /** Releases in the 90 days ending on this day (this day included). */
  revsLast90Days: number;
}

export interface CadenceDay {
  /** ISO date (UTC) */
  date: string;
  revCount: number;
  /** Up to 3 rev labels of the day, oldest first. */
  sampleRevs: string[];
  /** On days with a release: where the release history stood that day; null on empty days. */
  historicalTrajectory: HistoricalTrajectory | null;
}

export interface WeekBucket {
  /** First day of the bucket (ISO date, UTC). */
  weekStart: string;
  /** Last day of the bucket, included. */
  weekEnd: string;
  /** Days the bucket spans: 7, fewer for the oldest bucket of a window that is not whole weeks. */
  days: number;
  revCount: number;
  /** Rev labels of the bucket, oldest first. */
  revs: string[];
}

export interface PeakWeek {
  /** First day of the span (ISO date). */
  start: string;
  /** Last day of the span, included. */
  end: string;
  revCount: number;
}

const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const msOf = (date: string): number => Date.parse(`${date}T00:00:00.000Z`);
const label = (r: ReleaseRecord) => `rev ${r.n}`;

/** The `days` UTC dates ending on now's UTC date, oldest first. */
export function windowDays(now: Date, days: number): string[] {
  const today = msOf(iso(now.getTime()));
  return Array.from({ length: days }, (_, i) => iso(today - (days - 1 - i) * DAY_MS));
}

function releasesBetween(releases: readonly ReleaseRecord[], start: string, end: string): ReleaseRecord[] {
  return releases.filter((r) => r.date >= start && r.date <= end).sort((a, b) => a.n - b.n);
}

function trajectory(releases: readonly ReleaseRecord[], date: string): HistoricalTrajectory {
  const back = (n: number) => iso(msOf(date) - (n - 1) * DAY_MS);
  return {
    cumulativeRevs: releases.filter((r) => r.date <= date).length,
    revsLast30Days: releasesBetween(releases, back(TRAJECTORY_WINDOWS[0]), date).length,
    revsLast90Days: releasesBetween(releases, back(TRAJECTORY_WINDOWS[1]), date).length,
  };
}

export function dayBuckets(releases: readonly ReleaseRecord[], window: string[]): CadenceDay[] {
  return window.map((date) => {
    const on = releasesBetween(releases, date, date);
    return { date, revCount: on.length, sampleRevs: on.slice(0, SAMPLE_REVS_PER_DAY).map(label), historicalTrajectory: on.length > 0 ? trajectory(releases, date) : null };
  });
}

/** 7-day buckets counted back from the window's last day, oldest first (the oldest may be short). */
export function weeklyBuckets(releases: readonly ReleaseRecord[], window: string[]): WeekBucket[] {
  const buckets: WeekBucket[] = [];
  for (let end = window.length - 1; end >= 0; end -= 7) {
    const start = Math.max(0, end - 6);
    const inside = releasesBetween(releases, window[start], window[end]);
    buckets.unshift({ weekStart: window[start], weekEnd: window[end], days: end - start + 1, revCount: inside.length, revs: inside.map(label) });
  }
  return buckets;
}

/**
 * The most active 7 consecutive days of the window: spans starting on each day of the window that has
 * a release (clipped at the window's end), so the peak week opens with its first release; ties: the earliest.
 */
export function peakWindow(releases: readonly ReleaseRecord[], window: string[]): { peakWeek: PeakWeek | null; peakWeekRevs: string[] } {
  let best: { start: string; end: string; revs: ReleaseRecord[] } | null = null;
  const last = window[window.length - 1];
  for (const r of releasesBetween(releases, window[0], last)) {
    const end = [iso(msOf(r.date) + 6 * DAY_MS), last].sort()[0];
    const revs = releasesBetween(releases, r.date, end);
    if (best === null || revs.length > best.revs.length) best = { start: r.date, end, revs };
  }
  if (best === null) return { peakWeek: null, peakWeekRevs: [] };
  return { peakWeek: { start: best.start, end: best.end, revCount: best.revs.length }, peakWeekRevs: best.revs.map(label) };
}

/** Up to 3 weekly buckets with a release: revCount descending, ties by weekStart ascending. */
export function topWeeks(weekly: WeekBucket[]): WeekBucket[] {
  return weekly
    .filter((w) => w.revCount > 0)
    .sort((a, b) => b.revCount - a.revCount || a.weekStart.localeCompare(b.weekStart))
    .slice(0, TOP_WEEKS);
}
