import type { Synchronous } from '../../../db/connection';
import type { EngineKind } from '../../config';
import type { CycleJob, CycleOutcome, CyclePhase } from './cycle';

/**
 * Messages between the desk's thread (cycle-worker-executor.ts) and the cycle worker
 * (cycle-worker.ts). One worker per process serves every desk of it (a test process runs many):
 * each message names its database file; the worker keeps one connection per file.
 */

export interface WorkerDatabase {
  /** The desk's database file (already migrated by the desk). */
  file: string;
  /** better_sqlite3.node to load instead of node_modules' own (the Electron shell's build). */
  nativeBinding?: string;
  /** The desk's own connection's `synchronous` (OFF only for test desks). */
  synchronous?: Synchronous;
  /** The write-lock flag the worker's connection holds while it writes (db/statement-cache.ts WriteLockRole). */
  lock: SharedArrayBuffer;
}

export type ToWorker =
  | {
      type: 'cycle';
      id: number;
      database: WorkerDatabase;
      job: CycleJob;
      /** The openai engine's key for this cycle (read on the desk's thread: Settings may replace it). Never logged. */
      apiKey: string | null;
    }
  /**
   * Opens the connection to `database` ahead of a cycle (modules loaded, file open); with `engine`,
   * also loads what that engine needs (the local engine's tokenizer). Answered `opened`.
   */
  | { type: 'open'; id: number; database: WorkerDatabase; engine?: EngineKind }
  /** Closes the connection to `file` (the desk is stopping); answered `closed`. */
  | { type: 'close'; id: number; file: string }
  /**
   * The operator cancelled the cycle sent as `id`: its abort signal fires (the engine stops, nothing
   * is applied). Not answered itself: the cycle's `done` follows. Ignored once that cycle has ended.
   */
  | { type: 'cancel'; id: number };

/**
 * Each cycle message carries the tables the worker's connection to that file wrote since the
 * previous one (SQL names): the desk drops what its caches keep for them
 * (db/statement-cache.ts notifyTablesWritten).
 */
export type FromWorker =
  | { type: 'running'; id: number; runId: string; tables: string[] }
  /** The cycle moved to another phase (after `running`, before `done`). */
  | { type: 'phase'; id: number; phase: CyclePhase; tables: string[] }
  | { type: 'done'; id: number; outcome: CycleOutcome; tables: string[] }
  /** The cycle could not run or be recorded (e.g. the database could not be opened); `message` says why. */
  | { type: 'failed'; id: number; message: string; tables: string[] }
  /** `message` says why the file could not be opened; null once it is. */
  | { type: 'opened'; id: number; message: string | null; tables: string[] }
  | { type: 'closed'; id: number; tables: string[] };
