import { AsyncLocalStorage } from 'node:async_hooks';
import type { DatabaseConnection, Driver, Kysely, Transaction, TransactionSettings } from 'kysely';
import type { DB } from './schema';

/**
 * The transaction boundary. SQLite has one connection and Kysely's driver guards it with a mutex:
 * a query on the outer `db` issued while a transaction is open would wait for that transaction,
 * which waits for the query, forever. So:
 *  - every transaction starts through `inTransaction(db, fn)`; a nested call joins the open one;
 *  - inside `fn`, any query in the same async context (also `this.db` reads in helpers such as
 *    `workspace.profile()`) runs on the open transaction instead of queueing behind it;
 *  - write helpers take `Trx`, so they cannot be called outside a transaction.
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
    await this.inner.rollbackTransaction(connection);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (this.borrowed > 0) {
      this.borrowed -= 1;
      return;
    }
    await this.inner.releaseConnection(connection);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** Called once by openDatabase: lets inTransaction find the driver of a database. */
export function registerDriver(db: Kysely<DB>, driver: JoiningDriver): void {
  drivers.set(db, driver);
}

/**
 * Runs `fn` in a transaction: commits when it resolves, rolls back when it throws. Inside an open
 * transaction it joins it (no savepoint: the outer transaction decides). Keep `fn` short and free
 * of network I/O: the single connection is held until it returns.
 */
export async function inTransaction<T>(db: Kysely<DB>, fn: (trx: Trx) => Promise<T>): Promise<T> {
  const open = current.getStore();
  if (open?.open) return fn(open.trx);
  const driver = drivers.get(db);
  if (!driver) throw new Error('inTransaction: database not opened by openDatabase()');
  return db.transaction().execute(async (trx) => {
    const state: OpenTransaction = { driver, trx, open: true };
    try {
      return await current.run(state, () => fn(trx));
    } finally {
      state.open = false;
    }
  });
}

/** True inside inTransaction: for helpers that must not do slow work while the connection is held. */
export function isInTransaction(): boolean {
  return current.getStore()?.open === true;
}
