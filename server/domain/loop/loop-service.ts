import { performance } from 'node:perf_hooks';
import { centsText } from '../../core/plural';
import type { Db } from '../../../db/connection';
import type { WorkspaceTable } from '../../../db/schema';
import { inTransaction } from '../../../db/transactions';
import type { EngineKind } from '../../config';
import type { Clock } from '../../core/clock';
import { conflict } from '../../core/errors';
import { today } from '../../core/workspace-time';
import type { EngineSettings } from '../../engine/index';
import { EngineError, type Engine } from '../../engine/types';
import { DEFAULT_MODEL } from '../../engine/usage';
import { recordActivity } from '../activity/activity';
import { workspaceSpendMicro } from '../cost/cost-ledger';
import { MICRO_USD_PER_CENT, microToUsd } from '../cost/rules';
import { emit } from '../events/outbox';
import { readWorkspace, updateWorkspaceRow } from '../workspace/workspace-store';
import { CYCLE_ACTOR } from './apply';
import { failRun, type CycleOutcome, type CyclePhase } from './cycle';
import { inlineExecutor, type CycleExecutor } from './cycle-executor';
import { getRunRow, insertRunningRun, insertSkippedRun, latestRun, listRuns, toRun, type Run, type RunList } from './run-record';
import { IDLE_RECHECK_MS, WARM_AHEAD_MS, type RunTrigger } from './rules';
import { cycleDue, nextCycleAt, type RuntimePhase } from './schedule';

/**
 * The runner's database and clock, and where cycles run: `executor` (start.ts passes the worker
 * executor), or, given `engineFor` instead, inline with that engine (tests pass scripted engines).
 */
export type LoopDeps = {
  db: Db;
  clock: Clock;
  /** Told after each cycle that ran (completed or failed) once its writes are committed: the cost guard looks for spikes then (start.ts). */
  onCycleFinished?: () => void;
} & ({ executor: CycleExecutor } | { engineFor: (settings: EngineSettings) => Engine });

export { MAX_MEMORY_PER_SEARCH } from './cycle';

interface CapState {
  capped: boolean;
  spentMicro: number;
  remainingMicro: number | null;
}

/** The cycle under way: what it is doing, and since when (the header and the Runs page show it). */
export interface RunningCycle {
  runId: string;
  /**
   * `gathering` (reading signals, tasks and memory), `model` (waiting on the model's answer),
   * `applying` (writing its results in one transaction: too late to cancel).
   */
  phase: 'gathering' | 'model' | 'applying';
  /** When the cycle entered this phase. @format date-time */
  since: string;
  /** When the cycle began (its record was started): the header's elapsed time counts from here. @format date-time */
  startedAt: string;
  /** The model call's attempt: 1, more for a retry or a repair request; null outside `model`. @isInt */
  attempt: number | null;
  /** Prompt tokens of the model call, counted before sending; null outside `model`. @isInt */
  inputTokens: number | null;
  /** The completion bound the model call was given (tokens); null outside `model`. @isInt */
  maxOutputTokens: number | null;
  /** A cancel was asked for: the cycle is stopping. */
  cancelling: boolean;
}

/** What Run now does when a cycle is already running: answer 409 `run_in_progress`, or wait for that cycle and answer its record. */
export type WhenRunning = 'refuse' | 'wait';

/** The one cycle slot: a Run now, or a scheduled look (`scheduled`) that may become a cycle. */
interface Slot {
  runId: string | null;
  scheduled: boolean;
  done: Promise<Run | null>;
  /** Fired by cancel(): the executor stops the cycle. */
  abort: AbortController;
  phase: CyclePhase | null;
  /** When the cycle's record was started (the phase before the first report is `gathering` from then). */
  startedAt: string | null;
}

/** What the header needs about the runtime. */
export interface LoopRuntime {
  phase: RuntimePhase;
  /** @format date-time */
  nextCycleAt: string | null;
  /** The cycle under way, if any. */
  runningRunId: string | null;
  /** What the cycle under way is doing; null when none is. */
  cycle: RunningCycle | null;
  /** Today's spend has reached the daily cost cap. */
  capped: boolean;
  todaySpendMicroUsd: number;
}

/**
 * The cycle runner: gather -> engine -> apply (one transaction), run by its executor (inline, or in
 * the cycle worker). One cycle at a time per desk (an in-flight promise); a scheduled cycle that finds one running is not started, POST /runs answers
 * 409 `run_in_progress`. The daily cost cap is checked before a cycle starts.
 */
export class LoopService {
  private inFlight: Slot | null = null;
  private recovered: Promise<void> | null = null;
  /**
   * After a scheduled look that found nothing to do, the next look waits until then (kept in
   * memory: after a restart the next look is due at once). A minute, not an interval: signals that
   * arrive after an idle look are taken in within a minute, not half an hour later.
   */
  private idleUntil: string | null = null;
  /** A last cycle start found later than the clock, and when it was found (lastStart). */
  private rewound: { last: string; at: string } | null = null;

  private readonly executor: CycleExecutor;

  constructor(private readonly d: LoopDeps) {
    this.executor = 'executor' in d ? d.executor : inlineExecutor({ db: d.db, clock: d.clock, engineFor: d.engineFor });
  }

  list(query: { limit?: number; cursor?: string }): Promise<RunList> {
    return listRuns(this.d.db, query);
  }

  async get(id: string): Promise<Run> {
    return toRun(await getRunRow(this.d.db, id));
  }

  /**
   * POST /runs: runs one cycle now and resolves with its record once it has finished (completed,
   * or failed with the engine's message). While a cycle runs: 409 `run_in_progress`, or, with
   * `whenRunning: 'wait'` (the Run now button), that cycle's record once it has finished; 409
   * `cost_cap_reached` when today's spend has reached the cap (nothing is written).
   */
  async runNow(options: { whenRunning?: WhenRunning } = {}): Promise<Run> {
    await this.recover();
    // A scheduled look that has not started a cycle (no run record: it is checking whether anything
    // is new) is waited for, not refused: Run now must not answer "already running" when nothing is.
    while (this.inFlight?.scheduled && this.inFlight.runId === null) await this.inFlight.done.catch(() => null);
    if (this.inFlight?.runId && options.whenRunning === 'wait') {
      const runId = this.inFlight.runId;
      await this.inFlight.done.catch(() => null);
      return this.get(runId);
    }
    if (this.inFlight) throw conflict('run_in_progress', `A cycle is already running${this.inFlight.runId ? ` (${this.inFlight.runId})` : ''}; wait for it to finish (GET /runs shows it)`);
    const started = this.start(false, async (slot) => {
      const ws = await readWorkspace(this.d.db);
      const cap = await this.capState(ws);
      if (cap.capped) {
        throw conflict('cost_cap_reached', `Today's AI spend (${microToUsd(cap.spentMicro)} USD) has reached the daily cost cap of ${centsText(ws.dailyCostCapUsdCents ?? 0)}; raise or remove the cap, or wait for tomorrow`);
      }
      return this.cycle(ws, 'manual', slot, false, cap);
    });
    return (await started) as Run;
  }

  /**
   * The scheduler's look (every 15 s): starts a scheduled cycle when one is due; at the cap writes
   * a skipped record instead (and announces the cap once per workspace day). Resolves with the
   * record, or null when nothing was due or a cycle was already running.
   */
  async tick(): Promise<Run | null> {
    await this.recover();
    if (this.inFlight) return null;
    return this.start(true, async (slot) => {
      const ws = await readWorkspace(this.d.db);
      const now = this.d.clock.now();
      const last = await this.lastStart();
      // An idle look's wait further ahead than it can be: the clock went back since.
      if (this.idleUntil !== null && this.idleUntil > new Date(now.getTime() + IDLE_RECHECK_MS).toISOString()) this.idleUntil = null;
      if (!cycleDue(ws, last, now) || (this.idleUntil !== null && now.toISOString() < this.idleUntil)) {
        await this.warmAhead(ws, last, now);
        return null;
      }
      const cap = await this.capState(ws);
      if (cap.capped) return this.skipForCap(ws, cap.spentMicro);
      return this.cycle(ws, 'schedule', slot, true, cap);
    });
  }

  /**
   * Readies the executor when a scheduled cycle falls due within WARM_AHEAD_MS (the next look or
   * the one after): the cycle worker stops when idle (cycle-worker-executor.ts), and restarting it
   * with the local engine's tokenizer costs a cycle about a second. Not at the cap (the cycle would
   * be skipped); a failure shows again at the cycle itself.
   */
  private async warmAhead(ws: WorkspaceTable, last: string | null, now: Date): Promise<void> {
    const soon = new Date(now.getTime() + WARM_AHEAD_MS);
    if (cycleDue(ws, last, now) || !cycleDue(ws, last, soon)) return;
    if ((await this.capState(ws)).capped) return;
    this.executor.prepare(ws.engine).catch(() => undefined);
  }

  /** Phase, next cycle time and cap state, for GET /stats. */
  async runtime(): Promise<LoopRuntime> {
    await this.recover();
    const ws = await readWorkspace(this.d.db);
    const now = this.d.clock.now();
    const cap = await this.capState(ws);
    let next = nextCycleAt(ws, await this.lastStart(), now, cap.capped);
    if (next !== null && this.idleUntil !== null && this.idleUntil > next) next = this.idleUntil;
    // `running` once a cycle has its record (a scheduler look that finds nothing due is not a cycle).
    const phase: RuntimePhase = this.inFlight?.runId ? 'running' : ws.loopState === 'off' ? 'off' : ws.loopState === 'paused' ? 'paused' : cap.capped ? 'capped' : 'idle';
    return { phase, nextCycleAt: next, runningRunId: this.inFlight?.runId ?? null, cycle: this.runningCycle(), capped: cap.capped, todaySpendMicroUsd: cap.spentMicro };
  }

  private applying(runId: string): boolean {
    return this.inFlight?.runId === runId && this.inFlight.phase?.phase === 'applying';
  }

  private runningCycle(): RunningCycle | null {
    const slot = this.inFlight;
    if (slot?.runId == null) return null;
    const p = slot.phase ?? { phase: 'gathering' as const, since: slot.startedAt ?? this.d.clock.now().toISOString() };
    const call = p.phase === 'model' ? { attempt: p.attempt, inputTokens: p.inputTokens, maxOutputTokens: p.maxOutputTokens } : { attempt: null, inputTokens: null, maxOutputTokens: null };
    return { runId: slot.runId, phase: p.phase, since: p.since, startedAt: slot.startedAt ?? p.since, ...call, cancelling: slot.abort.signal.aborted };
  }

  /**
   * POST /runs/{id}/cancel: stops the cycle under way and resolves with its record once it has
   * stopped (`failed`, `cancelledAt` set, nothing applied; what the provider billed is charged).
   * 404 for an unknown id; 409 `run_not_running` for a cycle that has ended; 409 `run_applying` once
   * the cycle is applying its results (one transaction, not interrupted: it completes).
   */
  async cancel(runId: string): Promise<Run> {
    // Before any read: a read waits for apply's transaction, and the cycle would have completed by then.
    if (this.applying(runId)) throw tooLate(runId);
    await this.recover();
    const row = await getRunRow(this.d.db, runId);
    if (this.applying(runId)) throw tooLate(runId);
    const slot = this.inFlight;
    // The one running record belongs to the slot (a worker's `running` answer may not have arrived yet).
    if (row.status !== 'running' || slot === null || (slot.runId !== null && slot.runId !== runId)) {
      const state = row.status === 'running' ? 'is not under way on this desk' : `has ended (${row.status})`;
      throw conflict('run_not_running', `Run ${runId} ${state}; only a cycle under way can be cancelled`);
    }
    slot.abort.abort();
    await slot.done.catch(() => null);
    const run = await this.get(runId);
    if (run.cancelledAt !== null) return run;
    // The cancel reached a worker after it had begun applying: the cycle completed.
    if (run.status === 'completed') throw tooLate(runId);
    throw conflict('run_not_running', `Run ${runId} ended (${run.status}) before the cancel reached it`);
  }

  /** Waits for the cycle in flight, if any (stop, tests). */
  async idle(): Promise<void> {
    await this.inFlight?.done.catch(() => null);
  }

  /** When the latest cycle of any trigger started (the loop interval runs from it). */
  /**
   * When the last cycle started, for the schedule. A start later than now means the clock went back
   * (a correction, a wrong clock put right): measured as it is, no cycle would run until the clock
   * caught up again, a year for a clock that had run a year ahead. Such a start counts as the moment
   * this desk first saw it in the future, so the next cycle comes one interval after the jump: never
   * two for one interval, never stalled. The runs keep their recorded times.
   */
  private async lastStart(): Promise<string | null> {
    const last = (await latestRun(this.d.db))?.startedAt ?? null;
    const now = this.d.clock.now().toISOString();
    if (last === null || last <= now) {
      this.rewound = null;
      return last;
    }
    if (this.rewound?.last !== last || this.rewound.at > now) this.rewound = { last, at: now };
    return this.rewound.at;
  }

  /** Today's spend against the cap; `remainingMicro` is what a cycle may still spend (null: no cap). */
  private async capState(ws: WorkspaceTable): Promise<CapState> {
    const spentMicro = await workspaceSpendMicro(this.d.db, today(this.d.clock, ws.timezone));
    const remainingMicro = ws.dailyCostCapUsdCents === null ? null : Math.max(0, ws.dailyCostCapUsdCents * MICRO_USD_PER_CENT - spentMicro);
    return { capped: remainingMicro !== null && remainingMicro <= 0, spentMicro, remainingMicro };
  }

  /** Claims the one cycle slot synchronously (two callers at once cannot both start), runs `fn`, frees it. */
  private start(scheduled: boolean, fn: (slot: Slot) => Promise<Run | null>): Promise<Run | null> {
    const slot: Slot = { runId: null, scheduled, done: Promise.resolve(null), abort: new AbortController(), phase: null, startedAt: null };
    slot.done = fn(slot).finally(() => {
      if (this.inFlight === slot) this.inFlight = null;
    });
    this.inFlight = slot;
    return slot.done;
  }

  /** A due cycle at the cap: a skipped record and its activity row; cost.cap_reached once per workspace day. */
  private async skipForCap(ws: WorkspaceTable, spentMicro: number): Promise<Run> {
    const { db, clock } = this.d;
    const day = today(clock, ws.timezone);
    const runId = await inTransaction(db, async (trx) => {
      const id = await insertSkippedRun(trx, clock, 'schedule', ws.engine, ws.engineModel ?? DEFAULT_MODEL, 'cost_cap_reached');
      await recordActivity(trx, clock, { kind: 'run.skipped', detail: `Scheduled cycle skipped: today's spend ${microToUsd(spentMicro)} USD has reached the daily cost cap of ${centsText(ws.dailyCostCapUsdCents ?? 0)}`, actor: CYCLE_ACTOR, entityType: 'run', entityId: id });
      const fresh = await readWorkspace(trx);
      if (fresh.costCapAnnouncedDay !== day) {
        await updateWorkspaceRow(trx, { costCapAnnouncedDay: day });
        await recordActivity(trx, clock, { kind: 'cost.cap_reached', detail: `Daily cost cap of ${centsText(ws.dailyCostCapUsdCents ?? 0)} reached on ${day}: cycles stop until tomorrow`, actor: CYCLE_ACTOR, entityType: 'workspace', entityId: ws.id });
        await emit(trx, clock, 'cost.cap_reached', { day, dailyCostCapUsdCents: ws.dailyCostCapUsdCents ?? 0, spentUsd: microToUsd(spentMicro), runId: id });
      }
      return id;
    });
    return this.get(runId);
  }

  /**
   * One cycle through the executor (cycle.ts: gather, the running record, engine, apply in one
   * transaction). A scheduled look with nothing to do writes nothing and returns null: the Runs
   * page lists work, not idle ticks; Run now always runs. An executor that could not run the cycle
   * or stopped mid-way (a worker that died) fails the record, creating one if it had none yet.
   */
  private async cycle(ws: WorkspaceTable, trigger: RunTrigger, slot: Slot, skipIfIdle: boolean, cap: CapState): Promise<Run | null> {
    const { db, clock } = this.d;
    const t0 = performance.now();
    const startedAt = clock.now();
    slot.startedAt = startedAt.toISOString();
    let runId: string | null = null;
    const hooks = {
      onRunning: (id: string) => {
        runId = id;
        slot.runId = id;
      },
      onPhase: (phase: CyclePhase) => {
        slot.phase = phase;
      },
      signal: slot.abort.signal,
    };
    let outcome: CycleOutcome;
    try {
      // The budget is read in the one cycle slot: Run now and a scheduled cycle never spend it twice.
      outcome = await this.executor.run({ trigger, skipIfIdle, workspace: ws, startedAt: startedAt.toISOString(), budgetMicroUsd: cap.remainingMicro }, hooks);
    } catch (err) {
      const id = runId ?? (await insertRunningRun(db, clock, startedAt, trigger, ws.engine, ws.engineModel ?? DEFAULT_MODEL)).id;
      if (runId === null) slot.runId = id;
      await failRun(db, clock, id, trigger, err, 0, performance.now() - t0);
      this.d.onCycleFinished?.();
      return this.get(id);
    }
    if (outcome.kind === 'idle') {
      this.idleUntil = new Date(startedAt.getTime() + IDLE_RECHECK_MS).toISOString();
      return null;
    }
    this.d.onCycleFinished?.();
    return this.get(outcome.runId);
  }

  /**
   * Readies the executor for the first cycle (the desk starts its cycle worker early: startDesk),
   * with what the workspace's engine needs (the local engine's token counter: about a second that
   * the desk's first cycle would otherwise spend). Unused, the worker stops after WORKER_IDLE_STOP_MS.
   * With `engine` given it reaches the executor at once, without reading the workspace first.
   */
  prepare(engine?: EngineKind): Promise<void> {
    if (engine !== undefined) return this.executor.prepare(engine);
    return readWorkspace(this.d.db).then((ws) => this.executor.prepare(ws.engine));
  }

  /** Waits for the cycle in flight, then releases the executor (the worker's connection); when the desk stops. */
  async close(): Promise<void> {
    await this.idle();
    await this.executor.close();
  }

  /** Records left `running` by a desk that stopped mid-cycle are failed (their writes never committed). */
  private recover(): Promise<void> {
    this.recovered ??= (async () => {
      const stale = await this.d.db.selectFrom('runs').select(['id', 'trigger']).where('status', '=', 'running').execute();
      for (const r of stale) await failRun(this.d.db, this.d.clock, r.id, r.trigger, new EngineError('Interrupted: the desk stopped while this cycle ran; nothing it would have written was kept'), 0, 0);
    })();
    return this.recovered;
  }
}

const tooLate = (runId: string) =>
  conflict('run_applying', `Cycle ${runId} is already applying its results (one transaction, which is not interrupted): too late to cancel; it completes in a moment`);
