import { HOUR_MS } from '../../core/clock';
import { endOfDay, lastDays, startOfDay, type Day } from '../../core/workspace-time';
import type { ApprovalPolicy } from './attention';

/**
 * Review throughput: how quickly decisions are made, over workspace-timezone day windows ending
 * today (7 days = today and the six before). Definitions (also in the OpenAPI description):
 * - wait = decidedAt - readyAt, in hours;
 * - median: the middle wait (mean of the two middle ones for an even count);
 * - p90: nearest rank, the ceil(0.9 n)-th smallest wait;
 * - shares are of the window's decisions, 0..1 rounded to 3 decimals, null with no decisions;
 * - past 72 h: wait > 72 h; within 24 h: wait <= 24 h; within watch: wait < watchHours;
 *   past policy: wait >= overdueHours;
 * - sample quality: `exact` when every decision's readyAt was stored, `inferred` when none was
 *   (readyAt fell back to created time), `mixed` otherwise, `none` without decisions;
 * - trend: the last 7 days' median against the 7 days before; `faster`/`slower` past a 10%
 *   change, `steady` within it, `insufficient` with fewer than 3 decisions in either week.
 */

export const PAST_HOURS = 72;
export const WITHIN_HOURS = 24;
export const TREND_MIN_SAMPLES = 3;
export const TREND_CHANGE = 0.1;
export const DAILY_BUCKETS = 14;

export interface Decision {
  readyAt: string;
  decidedAt: string;
  status: 'approved' | 'archived';
  /** readyAt fell back to the row's created time. */
  inferred: boolean;
}

export interface ThroughputWindow {
  /** The window's length in workspace days, ending today. @isInt */
  days: number;
  /** Decisions (approved or archived) made in the window. @isInt */
  decisions: number;
  /** @isInt */
  approved: number;
  /** @isInt */
  archived: number;
  /** approved / decisions (the approved versus archived mix). */
  approvedShare: number | null;
  /** Median hours from readyAt to decidedAt. */
  medianHours: number | null;
  /** Share of decisions whose wait was more than 72 hours. */
  past72hShare: number | null;
  /** Share of decisions whose wait was at most 24 hours. */
  within24hShare: number | null;
  /** Share of decisions made before the policy's watchHours. */
  withinWatchShare: number | null;
  /** Share of decisions made at or after the policy's overdueHours. */
  pastPolicyShare: number | null;
  /** Decisions whose readyAt was stored. @isInt */
  exactSamples: number;
  /** Decisions whose readyAt fell back to the created time. @isInt */
  inferredSamples: number;
  /** exact (all stored), inferred (none stored), mixed, or none (no decisions). */
  sampleQuality: 'exact' | 'inferred' | 'mixed' | 'none';
}

export interface ApprovalThroughput {
  last7Days: ThroughputWindow;
  last30Days: ThroughputWindow;
  /** 90th percentile wait over the 30-day window (nearest rank: the ceil(0.9 n)-th smallest). */
  p90Hours30d: number | null;
  /** The last 7 days' median against the 7 days before: faster/slower past a 10% change, steady within, insufficient under 3 decisions in either week. */
  trend: { direction: 'faster' | 'slower' | 'steady' | 'insufficient'; thisWeekMedianHours: number | null; lastWeekMedianHours: number | null; changeShare: number | null };
  /** The last 14 workspace days, oldest first, zero-filled. */
  daily: { date: Day; decisions: number; medianHours: number | null }[];
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const share = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 1000) / 1000);

export function median(sorted: readonly number[]): number | null {
  if (sorted.length === 0) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function p90(sorted: readonly number[]): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.ceil(0.9 * sorted.length) - 1];
}

const waitHours = (d: Decision) => Math.max(0, Date.parse(d.decidedAt) - Date.parse(d.readyAt)) / HOUR_MS;

function summarise(days: number, decisions: readonly Decision[], policy: ApprovalPolicy): ThroughputWindow & { sortedWaits: number[] } {
  const waits = decisions.map(waitHours).sort((a, b) => a - b);
  const n = decisions.length;
  const approved = decisions.filter((d) => d.status === 'approved').length;
  const inferred = decisions.filter((d) => d.inferred).length;
  const m = median(waits);
  return {
    days,
    decisions: n,
    approved,
    archived: n - approved,
    approvedShare: share(approved, n),
    medianHours: m === null ? null : round2(m),
    past72hShare: share(waits.filter((w) => w > PAST_HOURS).length, n),
    within24hShare: share(waits.filter((w) => w <= WITHIN_HOURS).length, n),
    withinWatchShare: share(waits.filter((w) => w < policy.watchHours).length, n),
    pastPolicyShare: share(waits.filter((w) => w >= policy.overdueHours).length, n),
    exactSamples: n - inferred,
    inferredSamples: inferred,
    sampleQuality: n === 0 ? 'none' : inferred === 0 ? 'exact' : inferred === n ? 'inferred' : 'mixed',
    sortedWaits: waits,
  };
}

/** Throughput over decisions (those decided in the last 30 workspace days; older ones are ignored). */
export function approvalThroughput(decisions: readonly Decision[], now: Date, timezone: string, policy: ApprovalPolicy): ApprovalThroughput {
  // Day windows as instant bounds (one timezone conversion per day, none per decision): the last
  // 14 days and 16 days before them are enough for the 7, 30 and previous-7 windows.
  const days30 = lastDays(now, timezone, 30);
  const bounds = days30.map((d) => startOfDay(d, timezone).getTime());
  const end = endOfDay(days30[29], timezone).getTime();
  const nowMs = now.getTime();
  const decidedMs = decisions.map((d) => Date.parse(d.decidedAt));
  const inDays = (n: number, offsetDays = 0) => {
    // The n days ending offsetDays before today.
    const from = bounds[30 - n - offsetDays];
    const to = offsetDays === 0 ? end : bounds[30 - offsetDays];
    return decisions.filter((_, i) => decidedMs[i] >= from && decidedMs[i] < to && decidedMs[i] <= nowMs);
  };
  const { sortedWaits: _w7, ...last7Days } = summarise(7, inDays(7), policy);
  const thirty = summarise(30, inDays(30), policy);
  const { sortedWaits: waits30, ...last30Days } = thirty;
  const lastWeek = summarise(7, inDays(7, 7), policy);

  let direction: ApprovalThroughput['trend']['direction'] = 'insufficient';
  let changeShare: number | null = null;
  if (last7Days.decisions >= TREND_MIN_SAMPLES && lastWeek.decisions >= TREND_MIN_SAMPLES && last7Days.medianHours !== null && lastWeek.medianHours !== null) {
    changeShare = lastWeek.medianHours === 0 ? (last7Days.medianHours === 0 ? 0 : 1) : Math.round(((last7Days.medianHours - lastWeek.medianHours) / lastWeek.medianHours) * 1000) / 1000;
    direction = changeShare <= -TREND_CHANGE ? 'faster' : changeShare >= TREND_CHANGE ? 'slower' : 'steady';
  }

  const days = days30.slice(30 - DAILY_BUCKETS);
  const dayStarts = bounds.slice(30 - DAILY_BUCKETS);
  const perDay: number[][] = days.map(() => []);
  decisions.forEach((d, i) => {
    const t = decidedMs[i];
    if (t < dayStarts[0] || t >= end) return;
    let k = DAILY_BUCKETS - 1;
    while (t < dayStarts[k]) k--;
    perDay[k].push(waitHours(d));
  });
  const daily = days.map((date, k) => {
    const waits = perDay[k].sort((a, b) => a - b);
    const m = median(waits);
    return { date, decisions: waits.length, medianHours: m === null ? null : round2(m) };
  });
  const p = p90(waits30);
  return {
    last7Days,
    last30Days,
    p90Hours30d: p === null ? null : round2(p),
    trend: { direction, thisWeekMedianHours: last7Days.medianHours, lastWeekMedianHours: lastWeek.medianHours, changeShare },
    daily,
  };
}
