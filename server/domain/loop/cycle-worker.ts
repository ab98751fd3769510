/**
 * The cycle worker's entry (a worker thread: cycle-worker-executor.ts starts it). For each desk
 * database file it is sent, it opens a connection of its own (same pragmas, no migrations: the
 * desk has run them) and runs each cycle with cycle.ts, the same code the inline executor runs, so
 * SQL, memory searches, the engine and apply's COMMIT never hold the desk's event loop.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';
import { openDatabase, type OpenedDatabase } from '../../../db/connection';
import { onAnyTableWrite, shareWriteLock } from '../../../db/statement-cache';
import type { Clock } from '../../core/clock';
import { createEngine, type EngineSettings } from '../../engine/index';
import { loadTokenizer } from '../../engine/usage';
import { runCycle } from './cycle';
import type { FromWorker, ToWorker, WorkerDatabase } from './cycle-protocol';

const port = parentPort;
if (port === null) throw new Error('cycle-worker.ts runs as a worker thread (cycle-worker-executor.ts starts it)');

/**
 * On Linux the nice value is per thread (setpriority on 0 is the calling thread): the cycle
 * yields the CPU to the desk's API thread when both want it (a 2-core machine). Elsewhere the same
 * call would lower the whole desk process, so it is not made there.
 */
export const CYCLE_THREAD_NICE = 10;
if (process.platform === 'linux') {
  try {
    os.setPriority(0, CYCLE_THREAD_NICE);
  } catch {
    // not permitted (some containers): the cycle runs at the desk's priority
  }
}

interface Connection {
  opened: Promise<OpenedDatabase>;
  /** Tables written since the last message about this file. */
  written: Set<string>;
}
const connections = new Map<string, Connection>();

function connect(database: WorkerDatabase): Connection {
  let c = connections.get(database.file);
  if (c === undefined) {
    const written = new Set<string>();
    const opened = openDatabase(database.file, { nativeBinding: database.nativeBinding, synchronous: database.synchronous, migrate: false }).then((o) => {
      onAnyTableWrite(o.db, (table) => written.add(table));
      // The desk waits on this flag (without blocking its thread) while this connection writes.
      shareWriteLock(o.db, new Int32Array(database.lock), 'holder');
      return o;
    });
    c = { opened, written };
    connections.set(database.file, c);
    // A file that could not be opened is tried again by the next cycle.
    opened.catch(() => connections.delete(database.file));
  }
  return c;
}

const take = (c: Connection | undefined): string[] => {
  if (c === undefined) return [];
  const tables = [...c.written];
  c.written.clear();
  return tables;
};

/**
 * The desk's clock, carried over: it starts at the cycle's start by the desk's clock and moves
 * with real time (a test desk's ManualClock does not move during a cycle; its timestamps stay at
 * its fake now plus the cycle's real duration).
 */
function clockFrom(startedAt: string): Clock {
  const start = Date.parse(startedAt);
  const t0 = performance.now();
  return { now: () => new Date(start + Math.floor(performance.now() - t0)) };
}

const post = (message: FromWorker) => port.postMessage(message);

/** The abort controller of each cycle under way, by its message id (a `cancel` names it). */
const cycles = new Map<number, AbortController>();

async function cycle(message: Extract<ToWorker, { type: 'cycle' }>): Promise<void> {
  const { id, job, apiKey } = message;
  let c: Connection | undefined;
  const abort = new AbortController();
  cycles.set(id, abort);
  try {
    c = connect(message.database);
    const { db } = await c.opened;
    const clock = clockFrom(job.startedAt);
    const engineFor = (settings: EngineSettings) => createEngine(settings, settings.engine === 'openai' ? apiKey : null);
    const onRunning = (runId: string) => post({ type: 'running', id, runId, tables: take(c) });
    const outcome = await runCycle({ db, clock, engineFor, onRunning, onPhase: (phase) => post({ type: 'phase', id, phase, tables: [] }), abortSignal: abort.signal }, job);
    post({ type: 'done', id, outcome, tables: take(c) });
  } catch (err) {
    // runCycle fails its own record; this is what it could not record (no database, no run row).
    post({ type: 'failed', id, message: err instanceof Error ? err.message : String(err), tables: take(c) });
  } finally {
    cycles.delete(id);
  }
}

async function close(message: Extract<ToWorker, { type: 'close' }>): Promise<void> {
  const c = connections.get(message.file);
  connections.delete(message.file);
  const opened = await c?.opened.catch(() => null);
  await opened?.close().catch(() => undefined);
  post({ type: 'closed', id: message.id, tables: take(c) });
}

async function open(message: Extract<ToWorker, { type: 'open' }>): Promise<void> {
  const c = connect(message.database);
  const failure = await Promise.all([c.opened, message.engine === 'local' ? loadTokenizer() : null]).then(
    () => null,
    (err: unknown) => (err instanceof Error ? err.message : String(err)),
  );
  post({ type: 'opened', id: message.id, message: failure, tables: [] });
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'cycle') void cycle(message);
  else if (message.type === 'open') void open(message);
  else if (message.type === 'cancel') cycles.get(message.id)?.abort();
  else void close(message);
});
