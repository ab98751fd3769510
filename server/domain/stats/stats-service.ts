import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import type { Clock } from '../../core/clock';
import { HOUR_MS } from '../../core/clock';
import { dayWindow } from '../../core/workspace-time';
import { workspaceSpendBetween } from '../cost/cost-ledger';
import { MICRO_USD_PER_CENT, microToUsd } from '../cost/rules';
import type { LoopService, RunningCycle } from '../loop/loop-service';
import { latestRun, toRun } from '../loop/run-record';
import type { RunStatus, RunTrigger } from '../loop/rules';
import type { RuntimePhase } from '../loop/schedule';
import { readWorkspace } from '../workspace/workspace-store';

/**
 * GET /stats: the header's figures. The 7-day windows are the last 7 workspace days (today
 * included). The health score is 100 minus four capped penalties (documented in HEALTH_RULES and
 * the OpenAPI description), never below 0.
 */

/** The penalties of the health score: per unit, and the most one factor can take. */
export const HEALTH_RULES = {
  /** per source in status `error` */
  sourceError: { per: 10, max: 30 },
  /** per failed cycle in the last 7 days (one the operator cancelled does not count) */
  failedCycle: { per: 5, max: 25 },
  /** per output waiting past the approval policy's overdue hours */
  overdueApproval: { per: 3, max: 20 },
  /** spend against the daily cap: at or above 100% costs `atCap`, from 80% `nearCap` */
  spend: { nearCapPercent: 80, nearCap: 5, atCap: 15 },
} as const;

export interface HealthFactor {
  /** `source_errors`, `failed_cycles`, `overdue_approvals` or `spend_vs_cap`. */
  factor: 'source_errors' | 'failed_cycles' | 'overdue_approvals' | 'spend_vs_cap';
  /** Points taken off 100. @isInt */
  penalty: number;
  detail: string;
}

export interface LastRunSummary {
  id: string;
  trigger: RunTrigger;
  status: RunStatus;
  /** @format date-time */
  startedAt: string;
  /** @format date-time */
  finishedAt: string | null;
  estimatedCostUsd: number;
  errorMessage: string | null;
}

export interface DeskStats {
  /**
   * 0-100: 100 minus the penalties in `healthFactors` (never below 0): 10 per source in error (at
   * most 30), 5 per failed cycle in the last 7 days (at most 25; a cancelled one does not count), 3 per output waiting past the
   * overdue hours of the approval policy (at most 20), and spend against the daily cap (15 at or
   * above the cap, 5 from 80%; none without a cap).
   * @isInt
   */
  healthScore: number;
  /** Every factor that took points off (empty when the score is 100). */
  healthFactors: HealthFactor[];
  /** `running` (a cycle is under way), `off`, `paused`, `capped` (today's spend reached the cap) or `idle` (waiting for the next cycle). */
  phase: RuntimePhase;
  /**
   * Why the desk paused its own loop (a provider billed past the bound a cycle gave it), with the
   * figures; null unless the desk paused it. Cleared when the operator sets the loop state.
   */
  loopPauseReason: string | null;
  /** When the next scheduled cycle starts; null while off or paused by hand. @format date-time */
  nextCycleAt: string | null;
  /** The cycle under way, if any. */
  runningRunId: string | null;
  /** What the cycle under way is doing (its phase, since when, the model call's bound); null when none runs. Poll while it runs. */
  cycle: RunningCycle | null;
  lastRun: LastRunSummary | null;
  /**
   * What stops or troubles the loop now, for the header; null when it runs as set. In this order:
   * `cycle_failed` (the latest cycle failed; not one the operator cancelled; `runId` names it, GET
   * /runs/{id} says why), `cap_reached` (today's spend reached the daily cap: no cycle starts),
   * `paused` (by the operator, until a time, or by the desk itself: `message` says which), `off`.
   */
  loopAlert: LoopAlert | null;
  /** Cycles started in the last 7 workspace days, by outcome; `failed` leaves out those the operator cancelled (`cancelled`). */
  cycles7d: { total: number; completed: number; failed: number; skipped: number; cancelled: number };
  /** Signals received in the last 7 workspace days, and signals no cycle has taken in yet (all time). */
  signals7d: { received: number; untriaged: number };
  /** Decisions in the last 7 workspace days; outputs waiting now, and how many wait past the overdue hours. */
  approvals7d: { approved: number; archived: number; waiting: number; overdue: number };
  /** Spend in USD: today and the last 7 workspace days; the cap in cents (null: none) and today's spend as a percentage of it, 2 decimals (null without a cap). */
  cost: { todayUsd: number; sevenDayUsd: number; dailyCostCapUsdCents: number | null; capPercent: number | null };
}

export interface LoopAlert {
  reason: 'cycle_failed' | 'cap_reached' | 'paused' | 'off';
  /** One sentence for the operator. */
  message: string;
  /** The failed cycle's run (cycle_failed); null otherwise. */
  runId: string | null;
}

const n = (v: unknown) => Number(v ?? 0);

/** The header's alert (pure): see DeskStats.loopAlert. */
export function loopAlertOf(f: {
  phase: RuntimePhase;
  lastRun: { id: string; status: string; errorMessage: string | null; cancelledAt: string | null } | null;
  pauseReason: string | null;
  pauseUntilAt: string | null;
}): LoopAlert | null {
  const last = f.lastRun;
  if (last && last.status === 'failed' && last.cancelledAt === null && f.phase !== 'running') {
    return { reason: 'cycle_failed', message: `The last cycle failed: ${last.errorMessage ?? 'no message'}`, runId: last.id };
  }
  if (f.phase === 'capped') return { reason: 'cap_reached', message: "Today's spend reached the daily cost cap: no cycle starts until tomorrow or a higher cap.", runId: null };
  if (f.phase === 'paused') {
    const message = f.pauseReason ? `Desk paused the loop: ${f.pauseReason}` : f.pauseUntilAt ? `The loop is paused until ${f.pauseUntilAt}.` : 'The loop is paused.';
    return { reason: 'paused', message, runId: null };
  }
  if (f.phase === 'off') return { reason: 'off', message: 'The loop is off: no cycle starts by itself.', runId: null };
  return null;
}

export class StatsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly loop: LoopService,
  ) {}

  async stats(): Promise<DeskStats> {
    const { db, clock } = this;
    const ws = await readWorkspace(db);
    const now = clock.now();
    const win = dayWindow(now, ws.timezone, 7);
    const from = win.from.toISOString();
    const to = win.to.toISOString();
    const overdueBefore = new Date(now.getTime() - ws.overdueHours * HOUR_MS).toISOString();
    const [runtime, last, cycles, signals, untriaged, decided, waiting, sourceErrors, sevenDayMicro] = await Promise.all([
      this.loop.runtime(),
      latestRun(db),
      db
        .selectFrom('runs')
        .select(['status', sql<number>`count(*)`.as('n'), sql<number>`count(cancelled_at)`.as('cancelled')])
        .where('startedAt', '>=', from)
        .where('startedAt', '<', to)
        .groupBy('status')
        .execute(),
      db.selectFrom('signals').select(sql<number>`count(*)`.as('n')).where('createdAt', '>=', from).where('createdAt', '<', to).executeTakeFirstOrThrow(),
      db.selectFrom('signals').select(sql<number>`count(*)`.as('n')).where('triagedAt', 'is', null).executeTakeFirstOrThrow(),
      db.selectFrom('artifacts').select(['status', sql<number>`count(*)`.as('n')]).where('decidedAt', '>=', from).where('decidedAt', '<', to).groupBy('status').execute(),
      db
        .selectFrom('artifacts')
        .select([sql<number>`count(*)`.as('n'), sql<number>`coalesce(sum(ready_at <= ${overdueBefore}), 0)`.as('overdue')])
        .where('status', '=', 'ready')
        .where('supersededAt', 'is', null)
        .executeTakeFirstOrThrow(),
      db.selectFrom('sources').select(sql<number>`count(*)`.as('n')).where('status', '=', 'error').executeTakeFirstOrThrow(),
      workspaceSpendBetween(db, win.days[0], win.days[win.days.length - 1]),
    ]);
    const byStatus = (s: RunStatus) => n(cycles.find((c) => c.status === s)?.n);
    const cancelled = cycles.reduce((a, c) => a + n(c.cancelled), 0);
    const cycles7d = { total: cycles.reduce((a, c) => a + n(c.n), 0), completed: byStatus('completed'), failed: byStatus('failed') - cancelled, skipped: byStatus('skipped'), cancelled };
    const cap = ws.dailyCostCapUsdCents;
    const capPercent = cap === null ? null : cap === 0 ? 100 : Math.round((runtime.todaySpendMicroUsd / (cap * MICRO_USD_PER_CENT)) * 10_000) / 100;
    const approvals7d = { approved: n(decided.find((d) => d.status === 'approved')?.n), archived: n(decided.find((d) => d.status === 'archived')?.n), waiting: n(waiting.n), overdue: n(waiting.overdue) };
    const factors = healthFactors({ sourceErrors: n(sourceErrors.n), failedCycles: cycles7d.failed, overdueApprovals: approvals7d.overdue, capPercent, capped: runtime.capped });
    const lastRun = last ? toRun(last) : null;
    return {
      healthScore: Math.max(0, 100 - factors.reduce((a, f) => a + f.penalty, 0)),
      healthFactors: factors,
      phase: runtime.phase,
      loopPauseReason: ws.loopState === 'paused' ? ws.loopPauseReason : null,
      nextCycleAt: runtime.nextCycleAt,
      runningRunId: runtime.runningRunId,
      cycle: runtime.cycle,
      loopAlert: loopAlertOf({
        phase: runtime.phase,
        lastRun: last && { id: last.id, status: last.status, errorMessage: last.errorMessage, cancelledAt: last.cancelledAt ?? null },
        pauseReason: ws.loopState === 'paused' ? ws.loopPauseReason : null,
        pauseUntilAt: ws.pauseUntilAt && ws.pauseUntilAt > now.toISOString() ? ws.pauseUntilAt : null,
      }),
      lastRun: lastRun && {
        id: lastRun.id,
        trigger: lastRun.trigger,
        status: lastRun.status,
        startedAt: lastRun.startedAt,
        finishedAt: lastRun.finishedAt,
        estimatedCostUsd: lastRun.estimatedCostUsd,
        errorMessage: lastRun.errorMessage,
      },
      cycles7d,
      signals7d: { received: n(signals.n), untriaged: n(untriaged.n) },
      approvals7d,
      cost: { todayUsd: microToUsd(runtime.todaySpendMicroUsd), sevenDayUsd: microToUsd(sevenDayMicro), dailyCostCapUsdCents: cap, capPercent },
    };
  }
}

/** The penalties (pure): see HEALTH_RULES. */
export function healthFactors(f: { sourceErrors: number; failedCycles: number; overdueApprovals: number; capPercent: number | null; capped: boolean }): HealthFactor[] {
  const out: HealthFactor[] = [];
  const capped = (per: number, count: number, max: number) => Math.min(max, per * count);
  if (f.sourceErrors > 0) out.push({ factor: 'source_errors', penalty: capped(HEALTH_RULES.sourceError.per, f.sourceErrors, HEALTH_RULES.sourceError.max), detail: `${f.sourceErrors} source(s) in error` });
  if (f.failedCycles > 0) out.push({ factor: 'failed_cycles', penalty: capped(HEALTH_RULES.failedCycle.per, f.failedCycles, HEALTH_RULES.failedCycle.max), detail: `${f.failedCycles} failed cycle(s) in 7 days` });
  if (f.overdueApprovals > 0) {
    out.push({ factor: 'overdue_approvals', penalty: capped(HEALTH_RULES.overdueApproval.per, f.overdueApprovals, HEALTH_RULES.overdueApproval.max), detail: `${f.overdueApprovals} output(s) waiting past the overdue hours` });
  }
  if (f.capped || (f.capPercent !== null && f.capPercent >= 100)) out.push({ factor: 'spend_vs_cap', penalty: HEALTH_RULES.spend.atCap, detail: "today's spend reached the daily cap" });
  else if (f.capPercent !== null && f.capPercent >= HEALTH_RULES.spend.nearCapPercent) out.push({ factor: 'spend_vs_cap', penalty: HEALTH_RULES.spend.nearCap, detail: `today's spend is ${f.capPercent}% of the daily cap` });
  return out;
}
