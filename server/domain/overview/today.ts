import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import type { Clock } from '../../core/clock';
import { addDays, startOfDay, today, type Day } from '../../core/workspace-time';
import { workspaceSpendBetween, workspaceSpendMicro } from '../cost/cost-ledger';
import { MICRO_USD_PER_CENT, microToUsd } from '../cost/rules';
import { readWorkspace } from '../workspace/workspace-store';
import { TODAY_BASELINE_DAYS } from './rules';

/**
 * GET /workspace/today: one workspace-timezone day's figures, yesterday's, and the average of the 7
 * days before today. Days are calendar days in the workspace timezone (a DST day has 23 or 25 hours):
 * each kind is one query over its time index from the start of the baseline to the end of today,
 * split into the three windows with conditional sums.
 */

/** One day's figures (or a baseline's daily average). */
export interface DayFigures {
  /** Signals received (createdAt in the day). */
  signals: number;
  /** Loop cycles that completed (started in the day; failed ones are counted apart, skipped and running ones not at all). */
  cycles: number;
  /** Loop cycles that failed (started in the day), cancelled ones included. */
  failedCycles: number;
  /** Outputs the loop made (createdAt in the day), whatever their status now. */
  outputs: number;
  /** Outputs approved (decidedAt in the day, status approved). */
  approvals: number;
  /** Spend in USD from the cost ledger's workspace bucket of the day. */
  spendUsd: number;
}

export interface TodaySnapshot {
  /** Today in the workspace timezone, YYYY-MM-DD. */
  day: string;
  timezone: string;
  /** The instants bounding today: [from, to). @format date-time */
  from: string;
  /** @format date-time */
  to: string;
  today: DayFigures;
  yesterday: DayFigures;
  /** today minus yesterday, per figure (spend rounded to micro-USD). */
  deltaVsYesterday: DayFigures;
  /** The average per day over the 7 workspace days before today (today excluded), 2 decimals (spend: 6). */
  baseline7d: DayFigures;
  /** Outputs waiting for a decision now (status ready), whenever they were made. */
  outputsWaiting: number;
  /** The daily cost cap in cents (null: none) and today's spend as a percentage of it, 2 decimals (null without a cap). */
  cap: { dailyCostCapUsdCents: number | null; capPercent: number | null };
}

const n = (v: unknown) => Number(v ?? 0);
const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

/** today / yesterday / baseline counts of one table over its time column. */
async function windowCounts(db: Db, table: 'signals' | 'runs' | 'artifacts', column: string, extra: ReturnType<typeof sql>, w: { base: string; yest: string; today: string; end: string }) {
  const col = sql.ref(column);
  const row = await sql<{ today: number; yest: number; base: number }>`
    SELECT coalesce(sum(${col} >= ${w.today}), 0) AS today,
           coalesce(sum(${col} >= ${w.yest} AND ${col} < ${w.today}), 0) AS yest,
           coalesce(sum(${col} < ${w.today}), 0) AS base
    FROM ${sql.table(table)} WHERE ${col} >= ${w.base} AND ${col} < ${w.end} AND ${extra}`.execute(db);
  const r = row.rows[0];
  return { today: n(r?.today), yesterday: n(r?.yest), baseline: n(r?.base) };
}

export async function todaySnapshot(db: Db, clock: Clock): Promise<TodaySnapshot> {
  const ws = await readWorkspace(db);
  const tz = ws.timezone;
  const day: Day = today(clock, tz);
  const yesterday = addDays(day, -1);
  const baseFirst = addDays(day, -TODAY_BASELINE_DAYS);
  const w = {
    base: startOfDay(baseFirst, tz).toISOString(),
    yest: startOfDay(yesterday, tz).toISOString(),
    today: startOfDay(day, tz).toISOString(),
    end: startOfDay(addDays(day, 1), tz).toISOString(),
  };
  const [signals, cycles, failedCycles, outputs, approvals, waiting, spendToday, spendYesterday, spendBase] = await Promise.all([
    windowCounts(db, 'signals', 'created_at', sql`1`, w),
    windowCounts(db, 'runs', 'started_at', sql`status = 'completed'`, w),
    windowCounts(db, 'runs', 'started_at', sql`status = 'failed'`, w),
    windowCounts(db, 'artifacts', 'created_at', sql`1`, w),
    windowCounts(db, 'artifacts', 'decided_at', sql`status = 'approved'`, w),
    db.selectFrom('artifacts').select(sql<number>`count(*)`.as('n')).where('status', '=', 'ready').where('supersededAt', 'is', null).executeTakeFirstOrThrow(),
    workspaceSpendMicro(db, day),
    workspaceSpendMicro(db, yesterday),
    workspaceSpendBetween(db, baseFirst, yesterday),
  ]);
  const pick = (k: 'today' | 'yesterday' | 'baseline') => ({ signals: signals[k], cycles: cycles[k], failedCycles: failedCycles[k], outputs: outputs[k], approvals: approvals[k] });
  const t = { ...pick('today'), spendUsd: microToUsd(spendToday) };
  const y = { ...pick('yesterday'), spendUsd: microToUsd(spendYesterday) };
  const b = pick('baseline');
  const cap = ws.dailyCostCapUsdCents;
  return {
    day,
    timezone: tz,
    from: w.today,
    to: w.end,
    today: t,
    yesterday: y,
    deltaVsYesterday: {
      signals: t.signals - y.signals,
      cycles: t.cycles - y.cycles,
      failedCycles: t.failedCycles - y.failedCycles,
      outputs: t.outputs - y.outputs,
      approvals: t.approvals - y.approvals,
      spendUsd: microToUsd(spendToday - spendYesterday),
    },
    baseline7d: {
      signals: round(b.signals / TODAY_BASELINE_DAYS, 2),
      cycles: round(b.cycles / TODAY_BASELINE_DAYS, 2),
      failedCycles: round(b.failedCycles / TODAY_BASELINE_DAYS, 2),
      outputs: round(b.outputs / TODAY_BASELINE_DAYS, 2),
      approvals: round(b.approvals / TODAY_BASELINE_DAYS, 2),
      spendUsd: round(microToUsd(spendBase) / TODAY_BASELINE_DAYS, 6),
    },
    outputsWaiting: n(waiting.n),
    cap: { dailyCostCapUsdCents: cap, capPercent: cap === null ? null : cap === 0 ? 100 : round((spendToday / (cap * MICRO_USD_PER_CENT)) * 100, 2) },
  };
}
