import { AsyncResource } from 'node:async_hooks';
import type Database from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, type Driver, type Kysely, type QueryResult, type TransactionSettings } from 'kysely';
import type { DB } from './schema';

/**
 * Prepared statements, kept. Kysely's SQLite connection calls `db.prepare(sql)` for every query;
 * on the hot paths that was the largest single cost after the socket write (better-sqlite3's
 * prepare parses and plans the SQL each time). This driver wraps Kysely's and answers
 * `executeQuery` with a statement prepared once per SQL text (SQLite re-prepares a kept statement
 * by itself after a schema change).
 *
 * It also knows which table each writing statement targets (read once from the SQL, kept with the
 * statement), so a cache of a row elsewhere can be told of every write to its table, whatever code
 * path made it (`onTableWrite`). Statements run with `sqlite.exec()` or by triggers are not seen.
 *
 * Listeners hear a write once it is committed: after the COMMIT of the transaction that made it
 * (once per table), at once for a statement outside a transaction, never for a transaction rolled
 * back. They run synchronously before the writer's callers are answered, but in the async context
 * this module was loaded in, not the writer's: a listener that reads or starts a transaction queues
 * behind the connection like any caller, reads what was committed and can neither join nor
 * deadlock the writer's transaction.
 */

/** Distinct SQL texts kept; past it the cache starts again (a bound against generated SQL, e.g. `in (?, ?, ...)` lists). */
export const MAX_CACHED_STATEMENTS = 1000;

interface Kept {
  stmt: Database.Statement;
  reader: boolean;
  /** The table a write statement targets, as SQL names it; null for reads and others. */
  writes: string | null;
}

const WRITE_TARGET = /^\s*(?:insert(?:\s+or\s+\w+)?\s+into|replace\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+(?:"([^"]+)"|`([^`]+)`|\[([^\]]+)\]|([A-Za-z_]\w*))/i;

/** The table an INSERT/UPDATE/DELETE statement writes, or null. Exported for its test. */
export function writeTarget(sqlText: string): string | null {
  const m = WRITE_TARGET.exec(sqlText);
  if (!m) return null;
  const name = m[1] ?? m[2] ?? m[3] ?? m[4];
  // "main"."workspace" style qualified names are not produced by Desk; the schema part would be ignored.
  return name.toLowerCase();
}

type WriteListener = () => void;
/** Told the table (SQL name) of every committed write: for a caller that reports writes elsewhere. */
type AnyWriteListener = (table: string) => void;

/** Created at load, outside any transaction: listeners run in its (empty) async context, not the writer's. */
const listenerScope = new AsyncResource('desk.tableWrites');

/** Tables written and the listeners to tell once they are committed. */
class WriteListeners {
  readonly byTable = new Map<string, Set<WriteListener>>();
  readonly any = new Set<AnyWriteListener>();
  /** Tables written by the open transaction: told at its COMMIT, forgotten at its ROLLBACK. */
  readonly uncommitted = new Set<string>();

  /** A write statement ran: committed already (no transaction open) or at the transaction's end. */
  written(table: string, inTransaction: boolean): void {
    if (inTransaction) this.uncommitted.add(table);
    else this.tell([table]);
  }

  committed(): void {
    if (this.uncommitted.size === 0) return;
    const tables = [...this.uncommitted];
    this.uncommitted.clear();
    this.tell(tables);
  }

  rolledBack(): void {
    this.uncommitted.clear();
  }

  /**
   * Tells every listener of `tables`, each once, in listenerScope. A listener that throws does not
   * stop the others nor turn the COMMIT before it into a failure: its error is thrown again on a
   * later turn of the event loop, where it is reported as uncaught.
   */
  tell(tables: readonly string[], toAny = true): void {
    const calls: (() => void)[] = [];
    for (const table of tables) {
      const set = this.byTable.get(table);
      if (set) for (const listener of set) calls.push(listener);
      if (toAny) for (const listener of this.any) calls.push(() => listener(table));
    }
    if (calls.length === 0) return;
    listenerScope.runInAsyncScope(() => {
      for (const call of calls) {
        try {
          call();
        } catch (err) {
          setImmediate(() => {
            throw err;
          });
        }
      }
    });
  }
}

/**
 * BEGIN IMMEDIATE, not Kysely's plain (deferred) BEGIN: a second connection writes the same file
 * (the loop's cycle worker, server/domain/loop/cycle-worker.ts). A deferred transaction that read
 * first and then writes after the other connection committed fails at once with
 * SQLITE_BUSY_SNAPSHOT (the busy timeout cannot help a stale snapshot); an immediate one takes the
 * write lock up front, waiting up to `busy_timeout` for the other writer, and never fails that way.
 */
const BEGIN_IMMEDIATE = CompiledQuery.raw('begin immediate');

/**
 * Temporary storage in memory for the instant a write transaction begins. Every group-commit
 * member runs under a SAVEPOINT, whose statement journal keeps a first copy of each page the member
 * touches (a signal touches ~15 B-trees); past 64 KiB SQLite spilled it to a temp file it created
 * and unlinked per member, a cost paid by every POST /signals. SQLite fixes where a
 * transaction's statement journals live when the transaction begins (sqlite3PagerBegin), so memory
 * is set just before BEGIN and the default restored just after: sorts and temp B-trees past the
 * page cache (the exports') keep spilling to temp files, which the OS caches outside the process,
 * instead of growing the process's own heap.
 * Changing temp_store inside a transaction is refused only once a TEMP table or trigger exists,
 * which Desk never creates (restoreTempStore tolerates it).
 */
const TEMP_IN_MEMORY = CompiledQuery.raw('pragma temp_store = memory');
const TEMP_DEFAULT = CompiledQuery.raw('pragma temp_store = default');

/** Never fails the BEGIN it follows: if SQLite refuses the change (a TEMP object), memory just stays, as a connection-wide setting would. */
async function restoreTempStore(connection: DatabaseConnection): Promise<void> {
  try {
    await connection.executeQuery(TEMP_DEFAULT);
  } catch {
    // see above
  }
}

/**
 * A write-lock flag shared with another thread's connection to the same file: one Int32 over a
 * SharedArrayBuffer. The `holder` (the cycle worker's connection) sets it to 1 just before its
 * BEGIN IMMEDIATE and back to 0, with a notify, once its COMMIT or ROLLBACK has returned. The
 * `waiter` (the desk's connection) awaits it (Atomics.waitAsync: its event loop keeps serving)
 * while it is 1 before its own BEGIN, instead of sleeping in SQLite's busy handler on the desk's
 * thread. The busy timeout still covers the instant between the waiter's look and the holder's BEGIN.
 */
export type WriteLockRole = 'holder' | 'waiter';

interface SharedLock {
  flag: Int32Array;
  role: WriteLockRole;
}

/** Clears a holder's flag and wakes its waiters (also for a holder that died holding it). */
export function releaseWriteLock(flag: Int32Array): void {
  Atomics.store(flag, 0, 0);
  Atomics.notify(flag, 0);
}

/** Atomics.waitAsync (Node 16+, V8 8.7); our TypeScript lib is ES2023, which does not declare it. */
type WaitAsync = (a: Int32Array, i: number, v: number) => { async: false } | { async: true; value: Promise<unknown> };
const waitAsync: WaitAsync = (a, i, v) => (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync(a, i, v);

async function whileHeld(flag: Int32Array): Promise<void> {
  while (Atomics.load(flag, 0) === 1) {
    const wait = waitAsync(flag, 0, 1);
    if (wait.async) await wait.value;
  }
}

class CachingConnection implements DatabaseConnection {
  private readonly kept = new Map<string, Kept>();

  constructor(
    readonly inner: DatabaseConnection,
    private readonly sqlite: Database.Database,
    private readonly listeners: WriteListeners,
  ) {}

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    return Promise.resolve(this.run<R>(compiledQuery.sql, compiledQuery.parameters));
  }

  /** What executeQuery does, synchronously (better-sqlite3 is synchronous): for runSync. */
  run<R>(sql: string, parameters: readonly unknown[]): QueryResult<R> {
    let kept = this.kept.get(sql);
    if (kept === undefined) {
      const stmt = this.sqlite.prepare(sql);
      kept = { stmt, reader: stmt.reader, writes: writeTarget(sql) };
      if (this.kept.size >= MAX_CACHED_STATEMENTS) this.kept.clear();
      this.kept.set(sql, kept);
    }
    // What Kysely's own SqliteConnection does with a fresh statement, on the kept one.
    if (kept.reader) {
      const rows = kept.stmt.all(parameters as unknown[]) as R[];
      // INSERT ... RETURNING is a reader too: it still writes.
      if (kept.writes !== null) this.listeners.written(kept.writes, this.sqlite.inTransaction);
      return { rows };
    }
    const { changes, lastInsertRowid } = kept.stmt.run(parameters as unknown[]);
    if (kept.writes !== null) this.listeners.written(kept.writes, this.sqlite.inTransaction);
    return {
      numAffectedRows: changes !== undefined && changes !== null ? BigInt(changes) : undefined,
      insertId: lastInsertRowid !== undefined && lastInsertRowid !== null ? BigInt(lastInsertRowid) : undefined,
      rows: [],
    };
  }

  streamQuery<R>(compiledQuery: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    // A streaming statement stays busy while it is iterated: it gets its own, as before.
    return this.inner.streamQuery<R>(compiledQuery, chunkSize);
  }
}

/** Wraps a Kysely SQLite driver (which has one connection) with the statement cache. */
export class StatementCachingDriver implements Driver {
  private readonly listeners = new WriteListeners();
  private readonly wrapped = new WeakMap<DatabaseConnection, CachingConnection>();
  private lock: SharedLock | null = null;

  constructor(
    private readonly inner: Driver,
    private readonly sqlite: Database.Database,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    let wrapper = this.wrapped.get(connection);
    if (!wrapper) {
      wrapper = new CachingConnection(connection, this.sqlite, this.listeners);
      this.wrapped.set(connection, wrapper);
    }
    return wrapper;
  }

  // begin/commit/rollback go through the wrapper too: Kysely's driver runs them as queries on it.
  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    const lock = this.lock;
    if (lock?.role === 'waiter') await whileHeld(lock.flag);
    if (lock?.role === 'holder') Atomics.store(lock.flag, 0, 1);
    try {
      await connection.executeQuery(TEMP_IN_MEMORY);
      await connection.executeQuery(BEGIN_IMMEDIATE);
    } catch (err) {
      this.released();
      throw err;
    } finally {
      await restoreTempStore(connection);
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.inner.commitTransaction(connection);
    } finally {
      this.released();
    }
    // Only once committed (a failed COMMIT is followed by Kysely's ROLLBACK, which forgets them).
    this.listeners.committed();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.inner.rollbackTransaction(connection);
    } finally {
      this.released();
      this.listeners.rolledBack();
    }
  }

  /** See WriteLockRole. */
  shareWriteLock(flag: Int32Array, role: WriteLockRole): void {
    this.lock = { flag, role };
  }

  private released(): void {
    if (this.lock?.role === 'holder') releaseWriteLock(this.lock.flag);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(connection instanceof CachingConnection ? connection.inner : connection);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  /** Calls `listener` once a write to `table` (its SQL name) is committed (see the top of this file). */
  onTableWrite(table: string, listener: WriteListener): () => void {
    const key = table.toLowerCase();
    const set = this.listeners.byTable.get(key) ?? new Set<WriteListener>();
    this.listeners.byTable.set(key, set);
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Calls `listener` with each table a committed write touched. */
  onAnyTableWrite(listener: AnyWriteListener): () => void {
    this.listeners.any.add(listener);
    return () => this.listeners.any.delete(listener);
  }

  /** The tables the open transaction has written so far (empty outside one). */
  get uncommittedTables(): ReadonlySet<string> {
    return this.listeners.uncommitted;
  }

  /**
   * Tells the listeners of each table that it was written by someone else (another connection to
   * the same file), or the listeners of every table for 'all'. Its statement cache is unaffected.
   */
  notifyWritten(tables: readonly string[] | 'all'): void {
    const keys = tables === 'all' ? [...this.listeners.byTable.keys()] : tables.map((t) => t.toLowerCase());
    // Not to onAnyTableWrite: those report this connection's own writes.
    this.listeners.tell(keys, false);
  }
}

/**
 * Runs compiled SQL on `connection` at once when it is a connection of this cache (else returns
 * undefined): for statements issued by code that already holds the connection (an open
 * transaction), without Kysely's promise chain per query. Rows come back as SQLite names them.
 */
export function runSync<R>(connection: DatabaseConnection, sql: string, parameters: readonly unknown[]): QueryResult<R> | undefined {
  return connection instanceof CachingConnection ? connection.run<R>(sql, parameters) : undefined;
}

const cachingDrivers = new WeakMap<Kysely<DB>, StatementCachingDriver>();

/** Called once by openDatabase. */
export function registerStatementCache(db: Kysely<DB>, driver: StatementCachingDriver): void {
  cachingDrivers.set(db, driver);
}

/**
 * Subscribes to committed writes of `table` (its SQL name, e.g. `workspace`) on a database opened
 * by openDatabase: `listener` runs after the COMMIT, outside the writer's async context, before the
 * writer's callers are answered. Returns null for a database without the statement cache: a caller
 * must then not cache what it cannot invalidate. A value kept in memory: see db/table-cache.ts.
 */
export function onTableWrite(db: Kysely<DB>, table: string, listener: WriteListener): (() => void) | null {
  const driver = cachingDrivers.get(db);
  return driver ? driver.onTableWrite(table, listener) : null;
}

/**
 * Reports committed writes made through this database's driver: `listener` gets each table written
 * (its SQL name), as onTableWrite does. The cycle worker uses it to tell the desk's connection what
 * a cycle wrote. Returns null for a database without the statement cache.
 */
export function onAnyTableWrite(db: Kysely<DB>, listener: AnyWriteListener): (() => void) | null {
  const driver = cachingDrivers.get(db);
  return driver ? driver.onAnyTableWrite(listener) : null;
}

/**
 * The tables written so far by the transaction open on this database's connection (empty when none
 * is open; writes rolled back to a savepoint are still listed): for work that runs inside that
 * transaction before its COMMIT, such as a beforeCommit hook (db/transactions.ts).
 */
export function uncommittedTables(db: Kysely<DB>): ReadonlySet<string> {
  return cachingDrivers.get(db)?.uncommittedTables ?? new Set();
}

/**
 * Another connection to the same file (the cycle worker's) committed writes to `tables` (SQL
 * names), or to anything ('all': a writer that stopped before saying what it wrote): drops what
 * `onTableWrite` listeners of this database keep for them, as a write through it would. Call it
 * after that COMMIT, before answering anyone who expects to see the writes.
 */
export function notifyTablesWritten(db: Kysely<DB>, tables: readonly string[] | 'all'): void {
  cachingDrivers.get(db)?.notifyWritten(tables);
}

/**
 * Shares a write-lock flag (see WriteLockRole) between this database's connection and another
 * thread's connection to the same file: the cycle worker's is the `holder`, the desk's the `waiter`.
 */
export function shareWriteLock(db: Kysely<DB>, flag: Int32Array, role: WriteLockRole): void {
  cachingDrivers.get(db)?.shareWriteLock(flag, role);
}
