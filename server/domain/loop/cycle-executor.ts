import type { Db } from '../../../db/connection';
import type { EngineKind } from '../../config';
import type { Clock } from '../../core/clock';
import type { EngineSettings } from '../../engine/index';
import type { Engine } from '../../engine/types';
import { runCycle, type CycleJob, type CycleOutcome, type CyclePhase } from './cycle';

/** What the caller hears of a cycle under way, and how it stops it. */
export interface CycleHooks {
  /** The run id, once its `running` record is committed. */
  onRunning: (runId: string) => void;
  /** Each phase the cycle enters (gathering, the model call, applying). */
  onPhase?: (phase: CyclePhase) => void;
  /** Fired when the operator cancels: the engine stops and nothing is applied. */
  signal?: AbortSignal;
}

/**
 * Where one cycle's work (cycle.ts: gather, engine, apply) runs. LoopService keeps everything
 * else (the one-cycle slot, 409s, the cap, skipped records, recovery) and hands each cycle to its
 * executor: `inlineExecutor` on the desk's own thread and connection (tests with scripted engines,
 * in-memory databases), `WorkerCycleExecutor` (cycle-worker-executor.ts) in a worker thread with a
 * connection of its own, so the cycle never holds the desk's event loop.
 */
export interface CycleExecutor {
  /**
   * Runs one cycle; `hooks.onRunning` gets the run id once its `running` record is committed. Resolves
   * once the cycle has finished and its writes are visible through the desk's connection (caches
   * included); rejects only when the cycle could not run at all or its runner stopped mid-way (the
   * caller then fails the record, if one was registered).
   */
  run(job: CycleJob, hooks: CycleHooks): Promise<CycleOutcome>;
  /**
   * Gets ready for a cycle (a worker started, its connection open; with `engine`, that engine's
   * tables loaded too); optional: a cycle prepares what it needs.
   */
  prepare(engine?: EngineKind): Promise<void>;
  /** Releases what the executor holds (a worker thread); call after the last cycle has finished. */
  close(): Promise<void>;
}

export interface InlineExecutorDeps {
  db: Db;
  clock: Clock;
  /** Builds the cycle's engine from the workspace settings (tests pass scripted engines). */
  engineFor: (settings: EngineSettings) => Engine;
}

/** Runs the cycle on the caller's thread and connection (it yields to the event loop as it goes: core/time-slicer.ts). */
export function inlineExecutor(deps: InlineExecutorDeps): CycleExecutor {
  return {
    run: (job, hooks) =>
      runCycle({ db: deps.db, clock: deps.clock, engineFor: deps.engineFor, onRunning: hooks.onRunning, onPhase: hooks.onPhase, abortSignal: hooks.signal }, job),
    prepare: async () => {},
    close: async () => {},
  };
}
