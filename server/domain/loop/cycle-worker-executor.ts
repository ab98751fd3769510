import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { Db } from '../../../db/connection';
import { notifyTablesWritten, releaseWriteLock, shareWriteLock } from '../../../db/statement-cache';
import type { EngineSettings } from '../../engine/index';
import { settingsOf, type CycleJob, type CycleOutcome } from './cycle';
import type { CycleExecutor } from './cycle-executor';
import type { FromWorker, ToWorker, WorkerDatabase } from './cycle-protocol';

export interface WorkerExecutorOptions {
  /** The desk's connection: its caches are told what the worker wrote. */
  db: Db;
  /** The desk's database file (the worker opens it without migrating). */
  file: string;
  nativeBinding?: string;
  /** The openai engine's key for a cycle, read when the cycle starts (Settings may replace it). */
  apiKeyFor: (settings: EngineSettings) => string | null;
}

/**
 * The worker thread's entry. Built (electron-vite emits `cycle-worker.js`, see electron.vite.config.ts)
 * it sits beside the bundle that holds this module; from source (tsx, vitest) it is the .ts file,
 * loaded through tsx's loader, registered in the worker (a worker does not inherit the parent's).
 */
function workerEntry(): { script: string; options: WorkerOptions } {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const built of [path.join(here, 'cycle-worker.js'), path.join(here, '..', 'cycle-worker.js')]) {
    if (fs.existsSync(built)) return { script: built, options: {} };
  }
  const source = path.join(here, 'cycle-worker.ts');
  const tsx = pathToFileURL(tsxEsmApi()).href;
  const script = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(pathToFileURL(source).href)}); });`;
  // No inherited execArgv: a parent under tsx would load its loader a second time, for nothing.
  return { script, options: { eval: true, execArgv: [] } };
}

/** tsx's ESM register API (its `import` export: the CommonJS one resolves its own imports wrongly when loaded by import()). */
function tsxEsmApi(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { exports: Record<string, { import?: { default?: string } }> };
  const target = pkg.exports['./esm/api']?.import?.default;
  if (target === undefined) throw new Error('tsx/esm/api has no ESM export: cannot load the cycle worker from source');
  return path.join(path.dirname(manifest), target);
}

/** A request to the worker waiting for its answer(s). */
interface Waiter {
  /** The desk's connection whose caches hear what the worker wrote for this request. */
  db: Db;
  /** The desk's write-lock flag: cleared if the worker dies holding it. */
  lock: Int32Array;
  /** Every answer (`running` comes before the last one). */
  answer(message: FromWorker): void;
  /** The worker stopped before the last answer. */
  fail(err: Error): void;
}

/**
 * The process's cycle worker: started by the first request, then kept for the next ones (it holds
 * the loaded engine, tokenizer and prepared statements; start-up is the cost of loading them, most
 * of a second from source under tsx), serving every desk of the process (tests run many) with a
 * connection per database file. It never keeps the process alive by itself: referenced only while
 * a request waits. If it stops (a crash), every waiting request fails, every waiting desk drops all
 * its caches (the worker may have committed before it stopped), and the next request starts a new one.
 */
class CycleWorkerHost {
  private worker: Worker | null = null;
  private seq = 0;
  private readonly waiting = new Map<number, Waiter>();

  request(db: Db, lock: Int32Array, build: (id: number) => ToWorker, waiter: Omit<Waiter, 'db' | 'lock'>): void {
    const worker = this.worker ?? this.start();
    const id = ++this.seq;
    this.waiting.set(id, { db, lock, ...waiter });
    worker.ref();
    worker.postMessage(build(id));
  }

  get running(): boolean {
    return this.worker !== null;
  }

  /** Stops the thread at once, as a crash would (waiting requests fail). */
  async terminate(): Promise<void> {
    await this.worker?.terminate();
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
      if (this.worker === worker) this.worker = null;
      const why = new Error(`the cycle worker stopped before the cycle finished (${failure ? failure.message : `exit code ${code}`})`);
      const waiting = [...this.waiting.values()];
      this.waiting.clear();
      for (const w of waiting) {
        releaseWriteLock(w.lock); // its transaction died with it
        notifyTablesWritten(w.db, 'all');
        w.fail(why);
      }
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private receive(message: FromWorker): void {
    const w = this.waiting.get(message.id);
    if (w === undefined) return;
    // Before anyone hears of the answer: whoever reads next reads the worker's committed writes.
    if (message.tables.length > 0) notifyTablesWritten(w.db, message.tables);
    if (message.type !== 'running') {
      this.waiting.delete(message.id);
      if (this.waiting.size === 0) this.worker?.unref();
    }
    w.answer(message);
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
  }

  private get database(): WorkerDatabase {
    return { file: this.o.file, lock: this.lock, ...(this.o.nativeBinding ? { nativeBinding: this.o.nativeBinding } : {}) };
  }

  run(job: CycleJob, onRunning: (runId: string) => void): Promise<CycleOutcome> {
    if (this.closed) return Promise.reject(new Error('the desk is stopping'));
    const apiKey = job.workspace.engine === 'openai' ? this.o.apiKeyFor(settingsOf(job.workspace)) : null;
    this.used = true;
    return new Promise<CycleOutcome>((resolve, reject) => {
      host.request(this.o.db, this.flag, (id) => ({ type: 'cycle', id, database: this.database, job, apiKey }), {
        answer: (m) => {
          if (m.type === 'running') onRunning(m.runId);
          else if (m.type === 'done') resolve(m.outcome);
          else reject(new Error(m.type === 'failed' ? m.message : `unexpected answer ${m.type}`));
        },
        fail: reject,
      });
    });
  }

  /** Starts the worker and opens this desk's connection ahead of the first cycle (rejects with why it could not). */
  prepare(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.used = true;
    return new Promise<void>((resolve, reject) => {
      host.request(this.o.db, this.flag, (id) => ({ type: 'open', id, database: this.database }), {
        answer: (m) => (m.type === 'opened' && m.message !== null ? reject(new Error(m.message)) : resolve()),
        fail: reject,
      });
    });
  }

  /** Closes this desk's connection in the worker (after the last cycle: LoopService.close waits for it). */
  async close(): Promise<void> {
    this.closed = true;
    if (!this.used || !host.running) return;
    await new Promise<void>((resolve) => {
      host.request(this.o.db, this.flag, (id) => ({ type: 'close', id, file: this.o.file }), { answer: () => resolve(), fail: () => resolve() });
    });
  }
}

/** Whether the process's cycle worker thread is up (tests). */
export const cycleWorkerRunning = (): boolean => host.running;

/** Stops the process's cycle worker at once, as a crash would: cycles under way fail (tests of that path). */
export const terminateCycleWorker = (): Promise<void> => host.terminate();
