import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';

/**
 * SQLite's own checks of a database file. `quick` is `PRAGMA quick_check` (every page readable,
 * b-trees well formed, no index compared with its table: O(N)), run on every start; `full` is
 * `PRAGMA integrity_check` (also every index against its table), run by the daily backup job.
 */
export type IntegrityMode = 'quick' | 'full';

/** What is wrong with a file that must not be opened for writes. */
export type DamageKind = 'not_a_database' | 'damaged';

/** Thrown by openDatabase when the file fails its check: the desk starts in rescue mode instead. */
export class DatabaseDamagedError extends Error {
  constructor(
    readonly file: string,
    readonly kind: DamageKind,
    /** SQLite's own words: the error, or the first lines of the check's report. */
    readonly problems: string[],
  ) {
    super(`${file} ${kind === 'not_a_database' ? 'is not a SQLite database' : 'is damaged'}: ${problems.slice(0, 3).join('; ')}`);
    this.name = 'DatabaseDamagedError';
  }
}

/**
 * Up to this size the desk's start runs the whole quick_check before anything writes (a few tens of
 * milliseconds); a larger file gets the cheap look of `checkHeader` at open and its quick_check on a
 * worker thread while the desk starts (quick_check reads every page: seconds at the full-size
 * dataset, several times the start itself), with writes held until it has passed.
 */
export const SYNC_CHECK_MAX_BYTES = 4 * 1024 * 1024;

/**
 * The checks that cost next to nothing, for a file too large to quick_check before starting: SQLite
 * reads the schema (a file that is not a database fails here), and the file is as long as its
 * header says (a copy cut short fails here; quick_check would find it too, seconds later).
 */
export function checkHeader(sqlite: Database.Database, file: string): void {
  try {
    sqlite.pragma('schema_version');
  } catch (err) {
    throw damageOf(file, err) ?? err;
  }
  const header = Buffer.alloc(100);
  const fd = fs.openSync(file, 'r');
  let size: number;
  try {
    if (fs.readSync(fd, header, 0, 100, 0) < 100) return;
    size = fs.fstatSync(fd).size;
  } finally {
    fs.closeSync(fd);
  }
  const pageSize = header.readUInt16BE(16) === 1 ? 65536 : header.readUInt16BE(16);
  const pages = header.readUInt32BE(28);
  // The in-header size counts only when "version-valid-for" matches the change counter (SQLite's rule).
  if (header.readUInt32BE(92) !== header.readUInt32BE(24) || pages === 0) return;
  if (size < pages * pageSize) {
    throw new DatabaseDamagedError(file, 'damaged', [`the file holds ${Math.floor(size / pageSize)} of the ${pages} pages its header names: it was cut short`]);
  }
}

/** How many lines of a failed check are kept (SQLite can list one per damaged page). */
const PROBLEMS_KEPT = 20;

/**
 * Runs the check on an open connection; throws DatabaseDamagedError when it fails, including when
 * SQLite cannot read the file at all (not a database, a header that lies about its size).
 */
export function checkConnection(sqlite: Database.Database, file: string, mode: IntegrityMode): void {
  let rows: string[];
  try {
    rows = (sqlite.pragma(`${mode === 'quick' ? 'quick_check' : 'integrity_check'}(${PROBLEMS_KEPT})`) as Record<string, string>[]).map((r) => String(Object.values(r)[0]));
  } catch (err) {
    throw damageOf(file, err) ?? err;
  }
  if (rows.length === 1 && rows[0] === 'ok') return;
  throw new DatabaseDamagedError(file, 'damaged', rows);
}

/** The damage an error of SQLite names, or null for an error that says nothing about the file (a missing folder, a lock). */
export function damageOf(file: string, err: unknown): DatabaseDamagedError | null {
  const code = (err as { code?: unknown }).code;
  const message = err instanceof Error ? err.message : String(err);
  if (code === 'SQLITE_NOTADB') return new DatabaseDamagedError(file, 'not_a_database', [message]);
  if (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT')) return new DatabaseDamagedError(file, 'damaged', [message]);
  return null;
}

/**
 * A read-only look at a file in WAL mode (every Desk database and backup) makes SQLite create its
 * -wal and -shm beside it. Returns the function that removes the ones this look created, once
 * closed, so checking a backup leaves the backups folder as it was.
 */
function sideFilesOf(file: string): () => void {
  const created = ['-wal', '-shm'].map((s) => `${file}${s}`).filter((f) => !fs.existsSync(f));
  return () => {
    for (const f of created) {
      // An empty -wal holds nothing; one that is not was written by somebody else since: keep it.
      if (f.endsWith('-wal') && fs.existsSync(f) && fs.statSync(f).size > 0) continue;
      fs.rmSync(f, { force: true });
    }
  };
}

/** Checks a file through a read-only connection of its own; null when it passes. A missing file fails as unreadable. */
export function checkFile(file: string, mode: IntegrityMode, nativeBinding?: string): DatabaseDamagedError | null {
  if (!fs.existsSync(file)) return new DatabaseDamagedError(file, 'damaged', ['the file does not exist']);
  const tidy = sideFilesOf(file);
  let sqlite: Database.Database | undefined;
  try {
    sqlite = new Database(file, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
    checkConnection(sqlite, file, mode);
    return null;
  } catch (err) {
    if (err instanceof DatabaseDamagedError) return err;
    return damageOf(file, err) ?? new DatabaseDamagedError(file, 'damaged', [err instanceof Error ? err.message : String(err)]);
  } finally {
    sqlite?.close();
    tidy();
  }
}

// The worker's code, inline: one file fewer to bundle. It loads the same better-sqlite3 as the desk.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
let result;
try {
  const db = new Database(workerData.file, { readonly: true, fileMustExist: true, ...(workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {}) });
  try {
    result = { rows: db.pragma(workerData.pragma).map((r) => String(Object.values(r)[0])) };
  } finally {
    db.close();
  }
} catch (err) {
  result = { error: { code: err && err.code, message: err instanceof Error ? err.message : String(err) } };
}
parentPort.postMessage(result);
`;

/**
 * checkFile on a worker thread: a full integrity_check of a large file takes seconds, which the
 * desk's thread (serving the API) must not spend.
 */
export async function checkFileOffThread(file: string, mode: IntegrityMode, nativeBinding?: string): Promise<DatabaseDamagedError | null> {
  if (!fs.existsSync(file)) return new DatabaseDamagedError(file, 'damaged', ['the file does not exist']);
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const pragma = `${mode === 'quick' ? 'quick_check' : 'integrity_check'}(${PROBLEMS_KEPT})`;
  const tidy = sideFilesOf(file);
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, module, nativeBinding, pragma } });
  const result = await new Promise<{ rows?: string[]; error?: { code?: string; message: string } }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the integrity check's worker exited with code ${code}`)));
  }).finally(async () => {
    await worker.terminate();
    tidy();
  });
  if (result.error) {
    const err = Object.assign(new Error(result.error.message), { code: result.error.code });
    return damageOf(file, err) ?? new DatabaseDamagedError(file, 'damaged', [result.error.message]);
  }
  const rows = result.rows ?? [];
  return rows.length === 1 && rows[0] === 'ok' ? null : new DatabaseDamagedError(file, 'damaged', rows);
}
