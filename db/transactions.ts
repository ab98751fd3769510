import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import { CompiledQuery, type DatabaseConnection, type Driver, type Kysely, type Transaction, type TransactionSettings } from 'kysely';
import type { DB } from './schema';
import { runSync } from './statement-cache';

/**
 * The transaction boundary. SQLite has one connection and Kysely's driver guards it with a mutex:
 * a query on the outer `db` issued while a transaction is open would wait for that transaction,
 * which waits for the query, forever. So:
 *  - every transaction starts through `inTransaction(db, fn)`; a nested call joins the open one;
 *  - inside `fn`, any query in the same async context (also `this.db` reads in helpers such as
 *    `workspace.profile()`) runs on the open transaction instead of queueing behind it;
 *  - write helpers take `Trx`, so they cannot be called outside a transaction;
 *  - what would wait forever fails at once instead: inside `fn`, awaiting an inTransaction that
 *    queued for a batch (another caller's, or one called from an async context that lost the open
 *    transaction) and calling inTransaction on another database (see MemberPromise, inTransaction).
 *    A query on the outer `db` from such a lost context still waits: keep to `trx` and fn's context.
 */
export type Trx = Transaction<DB>;

interface OpenTransaction {
  driver: JoiningDriver;
  trx: Trx;
  /** False once the transaction has ended: a late callback started inside it must not join. */
  open: boolean;
}

const current = new AsyncLocalStorage<OpenTransaction>();
const drivers = new WeakMap<Kysely<DB>, JoiningDriver>();

/**
 * Wraps the SQLite driver: while a transaction opened by `inTransaction` holds the connection,
 * queries from inside it borrow that connection rather than waiting on the mutex.
 */
export class JoiningDriver implements Driver {
  private txConnection: DatabaseConnection | null = null;
  private borrowed = 0;

  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const open = current.getStore();
    if (open?.open && open.driver === this && this.txConnection) {
      this.borrowed += 1;
      return this.txConnection;
    }
    return this.inner.acquireConnection();
  }

  /** The connection of the open transaction, if one is open. */
  get transactionConnection(): DatabaseConnection | null {
    return this.txConnection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await this.inner.beginTransaction(connection, settings);
    this.txConnection = connection;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    this.txConnection = null;
    await this.inner.commitTransaction(connection);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    this.txConnection = null;
    try {
      await this.inner.rollbackTransaction(connection);
    } catch (err) {
      // A COMMIT that failed with SQLITE_FULL or an I/O error has already rolled the transaction back
      // (SQLite does so itself). Kysely's ROLLBACK after it would fail and hide that error (a full
      // disk would read as "no transaction is active"): the caller gets the COMMIT's error instead.
      if (err instanceof Error && /no transaction is active/.test(err.message)) return;
      throw err;
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (this.borrowed > 0) {
      this.borrowed -= 1;
      return;
    }
    await this.inner.releaseConnection(connection);
  }

  /** Batches not yet committed: closing the database waits for them (their callers wait for the COMMIT). */
  private readonly pending = new Set<Promise<void>>();

  track(batch: Promise<void>): void {
    this.pending.add(batch);
    void batch.finally(() => this.pending.delete(batch));
  }

  async destroy(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
    return this.inner.destroy();
  }
}

/** Called once by openDatabase: lets inTransaction find the driver of a database. */
export function registerDriver(db: Kysely<DB>, driver: JoiningDriver): void {
  drivers.set(db, driver);
}

/** One caller of inTransaction waiting for its turn in a group commit. */
interface Member {
  fn: (trx: Trx) => Promise<unknown>;
  /** Settled after the COMMIT that makes its writes durable (or at once when fn throws). */
  resolve(value: unknown): void;
  reject(err: unknown): void;
  driver: JoiningDriver;
  /** The batch it runs in (a member not started when its batch closes or fails moves to the next). */
  batch: Batch;
  settled: boolean;
}

/**
 * Why a member's promise cannot be awaited from `open`: it settles only after the COMMIT of its
 * batch, and that batch cannot end while `open` (a member or hook running in a transaction on the
 * same connection) waits. Null when the wait is harmless.
 */
function deadlockOf(member: Member, open: OpenTransaction | undefined): Error | null {
  if (!open?.open || member.settled || open.driver !== member.driver || member.batch.ended) return null;
  return new Error(
    "inTransaction: awaited inside another transaction's fn on the same database. That transaction holds the " +
      'connection until its fn returns, and this one settles only after a COMMIT that comes later: the wait would ' +
      "never end. Call inTransaction from fn's own async context (it then joins the open transaction) or pass " +
      "fn's `trx` down; or await it after the outer inTransaction has resolved.",
  );
}

/**
 * The promise inTransaction hands a caller who queues for a batch. Awaiting it (or calling `then`)
 * inside a transaction that it would have to outlive fails at once instead of hanging forever.
 * `await` reads `then` on a promise of another class, in the awaiting async context.
 */
class MemberPromise<T> extends Promise<T> {
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  member!: Member;

  override then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    const deadlock = deadlockOf(this.member, current.getStore());
    if (deadlock === null) return super.then(onFulfilled, onRejected);
    // This member still runs and settles; the code that awaited it has been told why it cannot.
    super.then(undefined, () => undefined);
    return Promise.reject(deadlock).then(onFulfilled, onRejected);
  }
}

/** The transaction that callers join until it commits. */
interface Batch {
  waiting: Member[];
  /** Set (synchronously) once the batch stops taking members: the next caller starts another. */
  closed: boolean;
  done: Promise<void>;
  /** Called when a member joins: ends a wait for more (see runMembers). */
  wake?: () => void;
  /** Set once no member or hook of it runs any more: its COMMIT or ROLLBACK follows without waiting for anybody. */
  ended: boolean;
}

const openBatches = new WeakMap<Kysely<DB>, Batch>();
/** How many members the last batch of each database had: the next one waits a little for as many. */
const lastBatchSize = new WeakMap<Kysely<DB>, number>();
/** The longest a batch waits for members beyond those of its first turn, in ms. */
export const GROUP_COMMIT_WAIT_MS = 2;
/**
 * Members of one batch at most: under a steady stream of writers (a burst of relayed events) a
 * batch would otherwise keep taking callers, and its first caller would wait for all of them.
 */
export const MAX_GROUP_MEMBERS = 64;
/** The connection of each batch's transaction while it is open (db/compiled.ts runs hot statements on it directly). */
const liveConnections = new WeakMap<Kysely<DB>, DatabaseConnection>();

/**
 * The connection `trx` runs on while its transaction is open; null for anything else (the outer
 * db, a finished transaction: those take Kysely's own way, with its checks).
 */
export function liveConnectionOf(trx: Kysely<DB>): DatabaseConnection | null {
  return liveConnections.get(trx) ?? null;
}
/**
 * Batches begun and not yet settled, over all databases. On Node 20 an enabled AsyncLocalStorage
 * runs a hook on every promise the process creates (HTTP handling included), so `current` is
 * enabled only while a batch is open and disabled when the last one settles.
 */
let batchesOpen = 0;
/** A fixed name will do: members of a batch run one after the other, each releasing its savepoint. */
const SAVEPOINT = CompiledQuery.raw('savepoint desk_member');
const RELEASE = CompiledQuery.raw('release desk_member');
const ROLLBACK_TO = CompiledQuery.raw('rollback to desk_member');

/**
 * Runs `fn` in a transaction: its writes are committed when it resolves, rolled back when it
 * throws. Inside an open transaction it joins it (no savepoint: the outer transaction decides).
 * Keep `fn` short and free of network I/O: the single connection is held until it returns.
 *
 * Group commit: with `synchronous = FULL` every COMMIT syncs the WAL to disk, which costs more
 * than the work of a typical request. Callers that arrive while a transaction is open (the
 * requests read in the same turn of the event loop) run one after the other in that one
 * transaction, each inside its own savepoint, and the batch commits once nobody is left to
 * join (after a setImmediate). Each caller's promise settles only after that COMMIT returned: a
 * resolved inTransaction (a 201) still means durably stored. A caller whose `fn` throws is
 * rolled back to its savepoint and rejected at once; the others are not affected. If the COMMIT
 * itself fails, every member of the batch is rejected (nothing of theirs was stored).
 *
 * Hence a member's promise cannot settle while a member or hook of the same database runs: awaited
 * there, it rejects the awaiting code at once (MemberPromise) instead of hanging. Called inside an
 * open transaction of another database it fails at once too.
 */
export function inTransaction<T>(db: Kysely<DB>, fn: (trx: Trx) => Promise<T>): Promise<T> {
  const open = current.getStore();
  const driver = drivers.get(db);
  if (open?.open) {
    // `db` may be the open transaction itself (a helper handed `trx`): that joins too.
    if (driver === undefined || driver === open.driver) return joined(fn, open.trx);
    return Promise.reject(
      new Error(
        'inTransaction: called inside a transaction of another database. The open one holds its connection until its fn ' +
          'returns (on the same file this one would wait for it) and the two would not commit together: run it after the ' +
          'outer inTransaction has resolved.',
      ),
    );
  }
  if (!driver) return Promise.reject(new Error('inTransaction: database not opened by openDatabase()'));
  let member!: Member;
  const promise = new MemberPromise<T>((resolve, reject) => {
    member = {
      fn: fn as Member['fn'],
      resolve(value) {
        member.settled = true;
        resolve(value as T);
      },
      reject(err) {
        member.settled = true;
        reject(err);
      },
      driver,
      batch: undefined as unknown as Batch, // set just below
      settled: false,
    };
  });
  promise.member = member;
  const batch = openBatches.get(db);
  if (batch && !batch.closed) {
    member.batch = batch;
    batch.waiting.push(member);
    batch.wake?.();
  } else startBatch(db, driver, [member]);
  return promise;
}

function joined<T>(fn: (trx: Trx) => Promise<T>, trx: Trx): Promise<T> {
  try {
    return fn(trx);
  } catch (err) {
    return Promise.reject(err);
  }
}

/**
 * Runs `fn` with `state` as the open transaction. A member's promise that fn hands back unawaited
 * is awaited by runMembers, outside `state`: the same check as MemberPromise.then, made here.
 */
function runInside<T>(state: OpenTransaction, fn: () => Promise<T>): Promise<T> {
  const result = current.run(state, fn);
  const deadlock = result instanceof MemberPromise ? deadlockOf(result.member as Member, state) : null;
  return deadlock === null ? result : Promise.reject(deadlock);
}

function startBatch(db: Kysely<DB>, driver: JoiningDriver, first: Member[]): void {
  const batch: Batch = { waiting: first, closed: false, done: Promise.resolve(), ended: false };
  for (const member of first) member.batch = batch;
  batchesOpen += 1;
  openBatches.set(db, batch);
  const committed: { member: Member; value: unknown }[] = [];
  let started = 0;
  let waitUntil: number | undefined;

  /** Runs the waiting members one by one, each in its savepoint; returns when nobody is left to join. */
  const runMembers = async (trx: Trx, exec: (query: CompiledQuery) => Promise<unknown>): Promise<void> => {
    for (;;) {
      if (started >= MAX_GROUP_MEMBERS) {
        // Full: commit these; whoever is still waiting starts the next batch (it begins once this COMMIT releases the connection).
        batch.closed = true;
        lastBatchSize.set(db, started);
        const rest = batch.waiting.splice(0);
        if (rest.length > 0) startBatch(db, driver, rest);
        return runBeforeCommit(db, driver, trx, exec);
      }
      const member = batch.waiting.shift();
      if (member === undefined) {
        // Let the requests already read in this turn of the event loop join before committing.
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (batch.waiting.length > 0) continue;
        // Under steady load the callers of the last batch come back together but not at once: a
        // batch smaller than the last one waits (a little) for them instead of paying a sync of
        // its own. A lone caller (last batch of one) never waits.
        waitUntil ??= performance.now() + GROUP_COMMIT_WAIT_MS;
        const left = waitUntil - performance.now();
        if (started < (lastBatchSize.get(db) ?? 0) && left > 0) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, left);
            batch.wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          batch.wake = undefined;
          continue;
        }
        batch.closed = true;
        lastBatchSize.set(db, started);
        return runBeforeCommit(db, driver, trx, exec);
      }
      try {
        await exec(SAVEPOINT);
      } catch (err) {
        batch.waiting.unshift(member); // not started: it goes to the next batch
        throw err;
      }
      started += 1;
      const state: OpenTransaction = { driver, trx, open: true };
      let value: unknown;
      try {
        value = await runInside(state, () => member.fn(trx));
      } catch (err) {
        state.open = false;
        try {
          // A failure of the rollback itself (the transaction is gone) fails the whole batch below.
          await exec(ROLLBACK_TO);
          await exec(RELEASE);
        } finally {
          member.reject(err);
        }
        continue;
      }
      state.open = false;
      // Counted before the release: if that fails, the batch fails and this member with it.
      committed.push({ member, value });
      await exec(RELEASE);
    }
  };

  batch.done = db
    .transaction()
    .execute(async (trx) => {
      const connection = driver.transactionConnection;
      try {
        if (connection === null) return await runMembers(trx, (query) => trx.executeQuery(query));
        liveConnections.set(trx, connection);
        // The savepoint statements straight on the connection (cached), not through Kysely's executor.
        await runMembers(trx, async (query) => runSync(connection, query.sql, query.parameters) ?? trx.executeQuery(query));
      } finally {
        liveConnections.delete(trx);
        batch.ended = true;
      }
    })
    .then(
      () => {
        for (const { member, value } of committed) member.resolve(value);
      },
      (err: unknown) => {
        batch.closed = true;
        for (const { member } of committed) member.reject(err);
        // Members that had not started were not part of what failed: they get a batch of their own,
        // unless this one failed before running anybody (BEGIN failed: so would theirs).
        const rest = batch.waiting.splice(0);
        if (started === 0) for (const member of rest) member.reject(err);
        else if (rest.length > 0) startBatch(db, driver, rest);
      },
    )
    .finally(() => {
      // A store left on a resource from now on has open === false: nothing can join it.
      if (--batchesOpen === 0) current.disable();
    });
  driver.track(batch.done);
}

type BeforeCommitHook = { run: (trx: Trx) => Promise<unknown>; onError: (err: unknown) => void };
const beforeCommitHooks = new WeakMap<Kysely<DB>, Set<BeforeCommitHook>>();

/**
 * Runs `run` at the end of every group-commit batch on `db`: inside its transaction, after the last
 * member and before the COMMIT, so what it writes commits with the members' writes and each member
 * is answered only after it ran (e.g. the search index takes a batch's new signals in one go). It
 * runs in a savepoint of its own: if it throws, its writes are rolled back, `onError` hears it and
 * the members' writes still commit. Returns the function that removes the hook.
 */
export function beforeCommit(db: Kysely<DB>, run: (trx: Trx) => Promise<unknown>, onError: (err: unknown) => void): () => void {
  const hooks = beforeCommitHooks.get(db) ?? new Set<BeforeCommitHook>();
  beforeCommitHooks.set(db, hooks);
  const hook = { run, onError };
  hooks.add(hook);
  return () => hooks.delete(hook);
}

async function runBeforeCommit(db: Kysely<DB>, driver: JoiningDriver, trx: Trx, exec: (query: CompiledQuery) => Promise<unknown>): Promise<void> {
  for (const hook of beforeCommitHooks.get(db) ?? []) {
    await exec(SAVEPOINT);
    const state: OpenTransaction = { driver, trx, open: true };
    try {
      await runInside(state, () => hook.run(trx));
    } catch (err) {
      await exec(ROLLBACK_TO);
      try {
        hook.onError(err);
      } catch {
        // a logger already closed: nothing more to tell
      }
    } finally {
      state.open = false;
    }
    await exec(RELEASE);
  }
}

/** True inside inTransaction: for helpers that must not do slow work while the connection is held. */
export function isInTransaction(): boolean {
  return current.getStore()?.open === true;
}
