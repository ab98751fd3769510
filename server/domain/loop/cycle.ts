import { performance } from 'node:perf_hooks';
import type { Db } from '../../../db/connection';
import type { WorkspaceTable } from '../../../db/schema';
import { inTransaction, type Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { timeSlicer } from '../../core/time-slicer';
import { dayOf } from '../../core/workspace-time';
import type { EngineSettings } from '../../engine/index';
import { costOf, resolvePrice, type ModelPrice } from '../../engine/pricing';
import { CycleCancelledError, CycleDoesNotFitError, EngineError, type Engine, type EngineMemory, type TokenUsage } from '../../engine/types';
import { DEFAULT_MODEL } from '../../engine/usage';
import { raiseIdFloorToStored, recordActivity } from '../activity/activity';
import { recordCycleCost } from '../cost/cost-ledger';
import { microToUsd } from '../cost/rules';
import { emit } from '../events/outbox';
import { searchMemory } from '../memory/retrieval';
import { pauseLoopBecause } from '../workspace/loop-state';
import { applyCycle, CYCLE_ACTOR } from './apply';
import { gatherState, type GatheredState } from './gather';
import { clipError, insertRunningRun, settleRunningRun } from './run-record';
import { WORK_BUDGET_PER_CYCLE as WORK_BUDGET, type RunTrigger } from './rules';

/**
 * One cycle's work: gather -> engine -> apply (one transaction). The only copy of it: it runs on
 * the desk's thread (inline executor) or in the cycle worker (cycle-worker.ts) on a connection of
 * its own; the caller (LoopService) keeps the slot, the cap and the schedule.
 */

/** Memory retrieval per call: at most this many entries, whatever the engine asks. */
export const MAX_MEMORY_PER_SEARCH = 20;

/** What one cycle is asked to do (plain data: it is posted to the worker). */
export interface CycleJob {
  trigger: RunTrigger;
  /** A scheduled look: with nothing to do (no new signal, no workable task with new input) it writes nothing. */
  skipIfIdle: boolean;
  /** The workspace row the caller read (and checked the cap against). */
  workspace: WorkspaceTable;
  /** When the cycle started by the desk's clock (ISO): the run record's startedAt. */
  startedAt: string;
  /**
   * Micro-USD left of today's cost cap when the cycle was started (read in the one cycle slot, so
   * no other cycle spends it meanwhile); null when there is no cap.
   */
  budgetMicroUsd: number | null;
}

/** What a cycle under way is doing (the header and the Runs page show it). */
export type CyclePhase =
  | { phase: 'gathering'; since: string }
  | { phase: 'model'; since: string; attempt: number; inputTokens: number; maxOutputTokens: number }
  | { phase: 'applying'; since: string };

/** How a cycle ended: a run record (completed or failed), or nothing to do (nothing written). */
export type CycleOutcome = { kind: 'ran'; runId: string } | { kind: 'idle' };

export interface CycleContext {
  db: Db;
  clock: Clock;
  /** Builds the engine (may throw: the run then fails with its message). */
  engineFor: (settings: EngineSettings) => Engine;
  /** Called once the `running` record is committed, before the engine runs. */
  onRunning: (runId: string) => void;
  /** Told as the cycle moves from phase to phase. */
  onPhase?: (phase: CyclePhase) => void;
  /** Aborted when the operator cancels the cycle: nothing is applied after that. */
  abortSignal?: AbortSignal;
}

export const settingsOf = (ws: WorkspaceTable): EngineSettings => ({ engine: ws.engine, engineModel: ws.engineModel, engineBaseUrl: ws.engineBaseUrl, structuredOutput: ws.engineStructuredOutput });

/**
 * Gather, the running record, engine (no transaction open), apply in one transaction. Any error
 * after the record exists fails it (runs.failed); apply's transaction rolls back whole.
 */
export async function runCycle(ctx: CycleContext, job: CycleJob): Promise<CycleOutcome> {
  const { db, clock } = ctx;
  const { workspace: ws, trigger } = job;
  const t0 = performance.now();
  // The worker's thread has its own id factory: its ids follow the desk's, whatever the clock says.
  await raiseIdFloorToStored(db);
  const startedAt = new Date(job.startedAt);
  const price = resolvePrice(ws);
  let engine: Engine | null = null;
  let setupError: unknown = null;
  try {
    engine = ctx.engineFor(settingsOf(ws));
  } catch (err) {
    setupError = err;
  }
  // A scheduled look decided on the workspace as it was when it began; the loop may have been paused
  // or turned off since (the worker can take a moment to start). Read it again, straight from the
  // table (a kept workspace row on this connection would not see the desk's change).
  if (job.skipIfIdle) {
    const now = await db.selectFrom('workspace').select('loopState').executeTakeFirst();
    if (now?.loopState !== 'on') return { kind: 'idle' };
  }
  let state: GatheredState | null = null;
  let gatherError: unknown = null;
  if (engine !== null) {
    try {
      state = await gatherState(db, ws);
    } catch (err) {
      gatherError = err;
    }
  }
  if (job.skipIfIdle && state !== null && state.newSignals.length === 0 && !state.tasks.some((t) => t.workable && t.hasNewInput)) return { kind: 'idle' };
  const run = await insertRunningRun(db, clock, startedAt, trigger, ws.engine, engine?.model ?? ws.engineModel ?? DEFAULT_MODEL, job.budgetMicroUsd);
  ctx.onRunning(run.id);
  const phase = (p: Omit<Extract<CyclePhase, { phase: 'gathering' | 'applying' }>, 'since'> | Omit<Extract<CyclePhase, { phase: 'model' }>, 'since'>): void =>
    ctx.onPhase?.({ ...p, since: clock.now().toISOString() } as CyclePhase);
  phase({ phase: 'gathering' });
  let engineMs = 0;
  const fail = { runId: run.id, trigger, price, day: dayOf(startedAt, ws.timezone), budgetMicroUsd: job.budgetMicroUsd };
  try {
    if (engine === null) throw setupError;
    if (state === null) throw gatherError;
    const retrieved = new Map<string, string[]>();
    const breathe = timeSlicer();
    const recordSearch = async (taskRef: string, query: string, limit: number): Promise<EngineMemory[]> => {
      await breathe();
      const found = await searchMemory(db, query, Math.max(0, Math.min(MAX_MEMORY_PER_SEARCH, Math.floor(limit))));
      retrieved.set(taskRef, [...(retrieved.get(taskRef) ?? []), ...found.map((m) => m.id)]);
      return found;
    };
    const e0 = performance.now();
    const decisions = await engine.runCycle({
      now: startedAt.toISOString(),
      timezone: ws.timezone,
      focusTags: state.focusTags,
      newSignals: state.newSignals,
      tasks: state.tasks,
      workBudget: WORK_BUDGET,
      searchMemory: recordSearch,
      abortSignal: ctx.abortSignal,
      budget: { price, remainingMicroUsd: job.budgetMicroUsd },
      onModelCall: (call) => phase({ phase: 'model', ...call }),
    });
    engineMs = Math.round(performance.now() - e0);
    if (ctx.abortSignal?.aborted) throw new CycleCancelledError().withBilled(decisions.usage);
    phase({ phase: 'applying' });
    const gathered = state;
    await inTransaction(db, async (trx) => {
      const result = await applyCycle(trx, clock, { runId: run.id, trigger, price, startedAt, engineMs, elapsedMs: () => performance.now() - t0, state: gathered, decisions, retrieved });
      await pauseIfOverBudget(trx, clock, job.budgetMicroUsd, result.costMicroUsd, run.id);
    });
  } catch (caught) {
    // Whatever an engine throws once the operator cancelled (an aborted request's own error) is the cancel.
    const err = ctx.abortSignal?.aborted && !(caught instanceof CycleCancelledError) ? new CycleCancelledError().withBilled(caught instanceof EngineError ? caught.billed : { inputTokens: 0, outputTokens: 0 }) : caught;
    if (err instanceof CycleDoesNotFitError) await skipRun(db, clock, run.id, trigger, err.message, performance.now() - t0);
    else await failRun(db, clock, run.id, trigger, err, engineMs, performance.now() - t0, fail);
  }
  return { kind: 'ran', runId: run.id };
}

/**
 * A provider that billed more than the bound allowed (it ignored max_completion_tokens, or counts
 * tokens differently): the real usage is recorded as billed, and the loop pauses until the
 * operator looks, with the figures as its reason.
 */
async function pauseIfOverBudget(trx: Trx, clock: Clock, budgetMicroUsd: number | null, costMicroUsd: number, runId: string): Promise<void> {
  if (budgetMicroUsd === null || costMicroUsd <= budgetMicroUsd) return;
  const reason = `The provider billed ${microToUsd(costMicroUsd)} USD for cycle ${runId}, more than the ${microToUsd(budgetMicroUsd)} USD left of today's cost cap that the cycle was bounded to; it ignored the bound or counts tokens differently. Check the model's settings, then turn the loop back on.`;
  await pauseLoopBecause({ db: trx, clock }, reason);
}

/** A running record whose smallest cycle did not fit in what is left of the cap: skipped, with the figures. */
async function skipRun(db: Db, clock: Clock, runId: string, trigger: RunTrigger, detail: string, elapsed: number): Promise<void> {
  const message = clipError(detail);
  await inTransaction(db, async (trx) => {
    const settled = await settleRunningRun(trx, runId, { status: 'skipped', skipReason: 'cost_cap_insufficient', finishedAt: clock.now().toISOString(), durationMs: Math.round(elapsed), engineMs: 0, errorMessage: message });
    if (!settled) return;
    await recordActivity(trx, clock, { kind: 'run.skipped', detail: `AI cycle (${trigger}) skipped: ${message}`, actor: CYCLE_ACTOR, entityType: 'run', entityId: runId });
  });
}

/** What a failed cycle was billed for, so the cap counts it. */
export interface FailCharge {
  price: ModelPrice;
  day: string;
  budgetMicroUsd: number | null;
}

/**
 * Marks a `running` record failed (the engine's message as is; anything else says the cycle could
 * not be completed), with its activity row and run.failed. A record no longer `running` (a worker
 * that committed and then stopped) is left as it is: returns false.
 */
export async function failRun(db: Db, clock: Clock, runId: string, trigger: RunTrigger, err: unknown, engineMs: number, elapsed: number, charge?: FailCharge): Promise<boolean> {
  const raw = err instanceof Error ? err.message : String(err);
  const message = clipError(err instanceof EngineError ? raw : `The cycle could not be completed: ${raw}`);
  const billed: TokenUsage = err instanceof EngineError ? err.billed : { inputTokens: 0, outputTokens: 0 };
  const costMicroUsd = charge ? costOf(charge.price, billed) : 0;
  const cancelled = err instanceof CycleCancelledError;
  return inTransaction(db, async (trx) => {
    const now = clock.now().toISOString();
    const settled = await settleRunningRun(trx, runId, {
      status: 'failed',
      finishedAt: now,
      durationMs: Math.round(elapsed),
      engineMs,
      errorMessage: message,
      inputTokens: billed.inputTokens,
      outputTokens: billed.outputTokens,
      costMicroUsd,
      cancelledAt: cancelled ? now : null,
    });
    if (!settled) return false;
    // A failed call is still paid for: the workspace's day counts it (no task had work applied).
    if (charge && billed.inputTokens + billed.outputTokens > 0) {
      await recordCycleCost(trx, async () => {}, { day: charge.day, total: { ...billed, costMicroUsd }, tasks: [], at: now });
      await pauseIfOverBudget(trx, clock, charge.budgetMicroUsd, costMicroUsd, runId);
    }
    await recordActivity(trx, clock, { kind: 'run.failed', detail: `AI cycle (${trigger}) ${cancelled ? 'cancelled' : 'failed'}: ${message}`, actor: CYCLE_ACTOR, entityType: 'run', entityId: runId });
    await emit(trx, clock, 'run.failed', { runId, trigger, errorMessage: message });
    return true;
  });
}
