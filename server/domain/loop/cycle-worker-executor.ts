import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { Db, Synchronous } from '../../../db/connection';
import { notifyTablesWritten, releaseWriteLock, shareWriteLock } from '../../../db/statement-cache';
import type { EngineKind } from '../../config';
import type { EngineSettings } from '../../engine/index';
import { settingsOf, type CycleJob, type CycleOutcome } from './cycle';
import type { CycleExecutor, CycleHooks } from './cycle-executor';
import { bundleFromSource } from './cycle-worker-source';
import type { FromWorker, ToWorker, WorkerDatabase } from './cycle-protocol';

export interface WorkerExecutorOptions {
  /** The desk's connection: its caches are told what the worker wrote. */
  db: Db;
  /** The desk's database file (the worker opens it without migrating). */
  file: string;
  nativeBinding?: string;
  synchronous?: Synchronous;
  /** The openai engine's key for a cycle, read when the cycle starts (Settings may replace it). */
  apiKeyFor: (settings: EngineSettings) => string | null;
}

/**
 * The worker thread's entry. Built (electron-vite emits `cycle-worker.js`, see electron.vite.config.ts)
 * it sits beside the bundle that holds this module; from source (tsx, vitest) the .ts entry is
 * bundled the same way first (cycle-worker-source.ts).
 */
function workerEntry(): { script: string; options: WorkerOptions } {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const built of [path.join(here, 'cycle-worker.js'), path.join(here, '..', 'cycle-worker.js')]) {
    if (fs.existsSync(built)) return { script: built, options: {} };
  }
  // No inherited execArgv: a parent under tsx would load its loader in the worker, for nothing.
  return { script: bundleFromSource(path.join(here, 'cycle-worker.ts')), options: { execArgv: [] } };
}

/**
 * How long the cycle worker is kept with nothing to do. Kept, its isolate, engine and tokenizer cost
 * the idle desk more memory than anything else it holds; a cycle after a stop pays the worker's
 * start (well under the cycle's own time once built) on the worker's thread. Two minutes: longer than the loop's idle
 * recheck (IDLE_RECHECK_MS, a minute) plus the scheduler's 15 s, so a desk whose loop keeps looking
 * keeps its worker (no restart a minute), while one whose next cycle is far off (an interval of 5-30
 * minutes after a cycle, the loop off or paused) gives the memory back; LoopService readies the
 * worker again WARM_AHEAD_MS before a scheduled cycle falls due.
 */
export const WORKER_IDLE_STOP_MS = 120_000;

/** A request to the worker waiting for its answer(s). */
interface Waiter {
  /** The thread it was sent to: only that thread's exit fails it. */
  worker: Worker;
  /** The desk's connection whose caches hear what the worker wrote for this request. */
  db: Db;
  /** The desk's write-lock flag: cleared if the worker dies holding it. */
  lock: Int32Array;
  /** Every answer (`running` and `phase` come before the last one). */
  answer(message: FromWorker): void;
  /** The worker stopped before the last answer. */
  fail(err: Error): void;
}

/**
 * The process's cycle worker: started by a request, kept while requests come, stopped once it has
 * been idle for `idleStopMs` (see WORKER_IDLE_STOP_MS); it serves every desk of the process (tests
 * run many) with a connection per database file. It never keeps the process alive by itself:
 * referenced only while a request waits, its idle timer unref'd. If it stops (a crash), every
 * request waiting on it fails, every waiting desk drops all its caches (the worker may have
 * committed before it stopped), and the next request starts a new one. An idle stop has nobody
 * waiting, so it fails and drops nothing; a request arriving during it goes to a new worker.
 */
class CycleWorkerHost {
  private worker: Worker | null = null;
  /** Every thread not yet exited: the current one and any still stopping. */
  private readonly live = new Set<Worker>();
  private seq = 0;
  private readonly waiting = new Map<number, Waiter>();
  private idleTimer: NodeJS.Timeout | undefined;
  /** Desks whose executor is not closed: with none left, no idle timer is kept. */
  private desks = 0;
  idleStopMs = WORKER_IDLE_STOP_MS;

  /** Sends a request; answers with its id (a `cancel` names it). */
  request(db: Db, lock: Int32Array, build: (id: number) => ToWorker, waiter: Omit<Waiter, 'worker' | 'db' | 'lock'>): number {
    clearTimeout(this.idleTimer);
    const worker = this.worker ?? this.start();
    const id = ++this.seq;
    this.waiting.set(id, { worker, db, lock, ...waiter });
    worker.ref();
    worker.postMessage(build(id));
    return id;
  }

  /** Tells the thread running cycle `id` to cancel it; nothing once that cycle has ended. */
  cancel(id: number): void {
    this.waiting.get(id)?.worker.postMessage({ type: 'cancel', id } satisfies ToWorker);
  }

  get running(): boolean {
    return this.worker !== null;
  }

  get threadId(): number | null {
    return this.worker?.threadId ?? null;
  }

  get threads(): number {
    return this.live.size;
  }

  opened(): void {
    this.desks++;
  }

  /** A desk stopped: the last one leaves no timer behind (the worker, unref'd, does not hold the process). */
  closed(): void {
    this.desks--;
    if (this.desks === 0) clearTimeout(this.idleTimer);
  }

  /** Stops the thread at once, as a crash would (waiting requests fail); also waits for one stopping after idling. */
  async terminate(): Promise<void> {
    clearTimeout(this.idleTimer);
    await Promise.all([...this.live].map((w) => w.terminate()));
  }

  private start(): Worker {
    const entry = workerEntry();
    const worker = new Worker(entry.script, { ...entry.options, name: 'desk-cycle' });
    let failure: Error | null = null;
    worker.on('message', (message: FromWorker) => this.receive(message));
    worker.on('error', (err) => {
      failure = err;
    });
    worker.on('exit', (code) => {
      this.live.delete(worker);
      if (this.worker === worker) this.worker = null;
      const why = new Error(`the cycle worker stopped before the cycle finished (${failure ? failure.message : `exit code ${code}`})`);
      for (const [id, w] of this.waiting) {
        if (w.worker !== worker) continue;
        this.waiting.delete(id);
        releaseWriteLock(w.lock); // its transaction died with it
        notifyTablesWritten(w.db, 'all');
        w.fail(why);
      }
    });
    worker.unref();
    this.worker = worker;
    this.live.add(worker);
    return worker;
  }

  private receive(message: FromWorker): void {
    const w = this.waiting.get(message.id);
    if (w === undefined) return;
    // Before anyone hears of the answer: whoever reads next reads the worker's committed writes.
    if (message.tables.length > 0) notifyTablesWritten(w.db, message.tables);
    if (message.type !== 'running' && message.type !== 'phase') {
      this.waiting.delete(message.id);
      if (this.waiting.size === 0) this.idle();
    }
    w.answer(message);
  }

  private idle(): void {
    this.worker?.unref();
    if (this.desks === 0) return;
    this.idleTimer = setTimeout(() => this.stopIdle(), this.idleStopMs);
    this.idleTimer.unref();
  }

  private stopIdle(): void {
    const worker = this.worker;
    if (worker === null || this.waiting.size > 0) return;
    // Cleared first: a request made from here on starts a new worker, never this stopping one.
    // Its connections close with its thread (better-sqlite3 closes them at the thread's teardown).
    this.worker = null;
    void worker.terminate();
  }
}

const host = new CycleWorkerHost();

/**
 * Runs a desk's cycles in the process's cycle worker, on a connection of the worker's own to the
 * desk's file (WAL: the desk's reads never wait on it; a desk transaction that would begin while
 * the worker writes awaits the shared write-lock flag first, see docs/architecture.md). A cycle's promise
 * settles after the desk's caches have dropped what it wrote.
 */
export class WorkerCycleExecutor implements CycleExecutor {
  private closed = false;
  private used = false;
  /** Set by the worker's connection while it holds the write lock; the desk's transactions await it. */
  private readonly lock = new SharedArrayBuffer(4);
  private readonly flag = new Int32Array(this.lock);

  constructor(private readonly o: WorkerExecutorOptions) {
    shareWriteLock(o.db, this.flag, 'waiter');
    host.opened();
  }

  private get database(): WorkerDatabase {
    const { file, nativeBinding, synchronous } = this.o;
    return { file, lock: this.lock, ...(nativeBinding ? { nativeBinding } : {}), ...(synchronous ? { synchronous } : {}) };
  }

  run(job: CycleJob, hooks: CycleHooks): Promise<CycleOutcome> {
    if (this.closed) return Promise.reject(new Error('the desk is stopping'));
    const apiKey = job.workspace.engine === 'openai' ? this.o.apiKeyFor(settingsOf(job.workspace)) : null;
    this.used = true;
    return new Promise<CycleOutcome>((resolve, reject) => {
      const id = host.request(this.o.db, this.flag, (id) => ({ type: 'cycle', id, database: this.database, job, apiKey }), {
        answer: (m) => {
          if (m.type === 'running') hooks.onRunning(m.runId);
          else if (m.type === 'phase') hooks.onPhase?.(m.phase);
          else if (m.type === 'done') resolve(m.outcome);
          else reject(new Error(m.type === 'failed' ? m.message : `unexpected answer ${m.type}`));
        },
        fail: reject,
      });
      // The abort signal is the desk's; the worker's own controller is fired by a message.
      if (hooks.signal?.aborted) host.cancel(id);
      else hooks.signal?.addEventListener('abort', () => host.cancel(id), { once: true });
    });
  }

  /**
   * Starts the worker and opens this desk's connection ahead of a cycle, with `engine` loading what
   * that engine needs too (rejects with why it could not).
   */
  prepare(engine?: EngineKind): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.used = true;
    return new Promise<void>((resolve, reject) => {
      host.request(this.o.db, this.flag, (id) => ({ type: 'open', id, database: this.database, engine }), {
        answer: (m) => (m.type === 'opened' && m.message !== null ? reject(new Error(m.message)) : resolve()),
        fail: reject,
      });
    });
  }

  /** Closes this desk's connection in the worker (after the last cycle: LoopService.close waits for it). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    host.closed();
    // No worker up (never started, or stopped after idling): no connection of this desk's is open.
    if (!this.used || !host.running) return;
    await new Promise<void>((resolve) => {
      host.request(this.o.db, this.flag, (id) => ({ type: 'close', id, file: this.o.file }), { answer: () => resolve(), fail: () => resolve() });
    });
  }
}

/** Whether the process's cycle worker thread is up (tests). */
export const cycleWorkerRunning = (): boolean => host.running;

/** The current cycle worker's thread id, null when none is up (tests: a new id is a new worker). */
export const cycleWorkerThreadId = (): number | null => host.threadId;

/** Cycle worker threads not yet exited, the current one and one still stopping after idling (tests). */
export const cycleWorkerThreads = (): number => host.threads;

/** Sets how long the cycle worker is kept idle (tests: a few ms instead of WORKER_IDLE_STOP_MS). */
export const setCycleWorkerIdleStop = (ms: number): void => {
  host.idleStopMs = ms;
};

/** Stops the process's cycle worker at once, as a crash would: cycles under way fail (tests of that path). */
export const terminateCycleWorker = (): Promise<void> => host.terminate();
