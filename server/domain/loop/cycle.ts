import { performance } from 'node:perf_hooks';
import type { Db } from '../../../db/connection';
import type { WorkspaceTable } from '../../../db/schema';
import { inTransaction } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { timeSlicer } from '../../core/time-slicer';
import type { EngineSettings } from '../../engine/index';
import { EngineError, type Engine, type EngineMemory } from '../../engine/types';
import { DEFAULT_MODEL } from '../../engine/usage';
import { recordActivity } from '../activity/activity';
import { emit } from '../events/outbox';
import { searchMemory } from '../memory/retrieval';
import { applyCycle, CYCLE_ACTOR } from './apply';
import { gatherState, type GatheredState } from './gather';
import { clipError, insertRunningRun } from './run-record';
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
}

/** How a cycle ended: a run record (completed or failed), or nothing to do (nothing written). */
export type CycleOutcome = { kind: 'ran'; runId: string } | { kind: 'idle' };

export interface CycleContext {
  db: Db;
  clock: Clock;
  /** Builds the engine (may throw: the run then fails with its message). */
  engineFor: (settings: EngineSettings) => Engine;
  /** Called once the `running` record is committed, before the engine runs. */
  onRunning: (runId: string) => void;
}

export const settingsOf = (ws: WorkspaceTable): EngineSettings => ({ engine: ws.engine, engineModel: ws.engineModel, engineBaseUrl: ws.engineBaseUrl });

/**
 * Gather, the running record, engine (no transaction open), apply in one transaction. Any error
 * after the record exists fails it (runs.failed); apply's transaction rolls back whole.
 */
export async function runCycle(ctx: CycleContext, job: CycleJob): Promise<CycleOutcome> {
  const { db, clock } = ctx;
  const { workspace: ws, trigger } = job;
  const t0 = performance.now();
  const startedAt = new Date(job.startedAt);
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
  const run = await insertRunningRun(db, clock, startedAt, trigger, ws.engine, engine?.model ?? ws.engineModel ?? DEFAULT_MODEL);
  ctx.onRunning(run.id);
  let engineMs = 0;
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
    });
    engineMs = Math.round(performance.now() - e0);
    const model = engine.model;
    const gathered = state;
    await inTransaction(db, (trx) => applyCycle(trx, clock, { runId: run.id, trigger, model, startedAt, engineMs, elapsedMs: () => performance.now() - t0, state: gathered, decisions, retrieved }));
  } catch (err) {
    await failRun(db, clock, run.id, trigger, err, engineMs, performance.now() - t0);
  }
  return { kind: 'ran', runId: run.id };
}

/**
 * Marks a `running` record failed (the engine's message as is; anything else says the cycle could
 * not be completed), with its activity row and run.failed. A record no longer `running` (a worker
 * that committed and then stopped) is left as it is: returns false.
 */
export async function failRun(db: Db, clock: Clock, runId: string, trigger: RunTrigger, err: unknown, engineMs: number, elapsed: number): Promise<boolean> {
  const raw = err instanceof Error ? err.message : String(err);
  const message = clipError(err instanceof EngineError ? raw : `The cycle could not be completed: ${raw}`);
  return inTransaction(db, async (trx) => {
    const res = await trx
      .updateTable('runs')
      .set({ status: 'failed', finishedAt: clock.now().toISOString(), durationMs: Math.round(elapsed), engineMs, errorMessage: message })
      .where('id', '=', runId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) return false;
    await recordActivity(trx, clock, { kind: 'run.failed', detail: `AI cycle (${trigger}) failed: ${message}`, actor: CYCLE_ACTOR, entityType: 'run', entityId: runId });
    await emit(trx, clock, 'run.failed', { runId, trigger, errorMessage: message });
    return true;
  });
}
