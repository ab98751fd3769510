import fs from 'node:fs';
import Database from 'better-sqlite3';
import { CamelCasePlugin, Kysely, SqliteDialect } from 'kysely';
import { checkConnection, checkFileOffThread, checkHeader, SYNC_CHECK_MAX_BYTES, type DatabaseDamagedError } from './integrity';
import { appliedMigrations, migrateDatabase, type MigrateResult, type SchemaVersion } from './migrate';
import { migrations as shippedMigrations } from './migrations/index';
import type { DB } from './schema';
import { registerStatementCache, StatementCachingDriver } from './statement-cache';
import { JoiningDriver, registerDriver } from './transactions';

export type Db = Kysely<DB>;

export interface OpenedDatabase {
  db: Db;
  /** What opening did to the schema (null with `migrate: false`). */
  migrated: MigrateResult | null;
  /**
   * The start's integrity check: settles with null once `PRAGMA quick_check` passed (at once for a
   * file checked before opening), with the damage when it failed on a worker thread for a large
   * file (`check: 'quick'`); null as well when no check was asked for. The worker starts at the
   * first call (the desk calls it once it listens, so the check's reads do not slow its start).
   */
  verified(): Promise<DatabaseDamagedError | null>;
  /**
   * Writes a consistent copy of the live database to `file` (SQLite's online backup: readers and
   * writers carry on while it runs).
   */
  backup(file: string): Promise<void>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /**
   * Path of a better_sqlite3.node to load instead of the one in node_modules (which is built for
   * Node). The Electron shell passes its own copy built for Electron's ABI.
   */
  nativeBinding?: string;
  /**
   * Bring the schema up to date (default). False for a second connection to a file the desk has
   * already opened and migrated (the loop's cycle worker): same pragmas, no schema work.
   */
  migrate?: boolean;
  /**
   * `OFF` is for test desks only (server/testing): nothing is synced, so the hundreds of desks a test
   * run starts do not wait on the disk at every commit. Whatever runs Desk for a user keeps the
   * default, FULL; the crash test runs its desk as `npm start` does, at FULL.
   */
  synchronous?: Synchronous;
  /**
   * Where to write the online copy of an older database before its schema is upgraded (db/migrate.ts),
   * given the schema versions; none when absent. The desk names it in its backups folder.
   */
  upgradeBackup?: (from: SchemaVersion, to: SchemaVersion) => string;
  /** The time recorded for each migration applied (the desk's clock). */
  now?: () => Date;
  /**
   * `quick` (default when migrating, i.e. the desk's own connection): `PRAGMA quick_check` before
   * anything writes for a file up to SYNC_CHECK_MAX_BYTES; a larger one gets `checkHeader` now and
   * its quick_check on a worker thread (`verified`), awaited before a migration writes. A file that
   * fails is closed again and DatabaseDamagedError (db/integrity.ts) is thrown: the desk starts in
   * rescue mode rather than writing into damage. `none`: no check (the cycle worker's connection).
   */
  check?: 'quick' | 'none';
}

/** SQLite's `synchronous` setting of a connection: FULL (the default), OFF for test desks. */
export type Synchronous = 'FULL' | 'OFF';

/**
 * Page cache per connection, in KiB (SQLite's negative cache_size). better-sqlite3 builds SQLite with
 * 16 MiB (SQLITE_DEFAULT_CACHE_SIZE=-16000), and sorts and temporary tables of a query spill past the
 * same size: large ones (the cost export's breakdowns) kept the server's resident set far higher
 * than 4 MiB does, with no change in the endpoints' latency the bench can see (the OS file cache
 * serves a page that falls out of ours in microseconds; mmap stays off, its pages would count as
 * the server's too). Each connection has its own: the desk's and the cycle worker's.
 */
export const PAGE_CACHE_KIB = 4096;

/** Opens (creating if needed) the SQLite file with the pragmas Desk relies on, and migrates it (unless `migrate: false`). */
/** How often a backup that could not start is tried again, and how long it waits for a transaction to end. */
const BACKUP_ATTEMPTS = 20;
const BACKUP_RETRY_MS = 10;

export async function openDatabase(file: string, options: OpenDatabaseOptions = {}): Promise<OpenedDatabase> {
  const sqlite = openSqlite(file, options.nativeBinding);
  // Before any pragma: setting WAL on a damaged or foreign file would be the first write into it.
  let verified: () => Promise<DatabaseDamagedError | null> = () => Promise.resolve(null);
  try {
    if ((options.check ?? (options.migrate === false ? 'none' : 'quick')) === 'quick') {
      if (fileSize(file) <= SYNC_CHECK_MAX_BYTES) {
        checkConnection(sqlite, file, 'quick');
      } else {
        checkHeader(sqlite, file);
        let started: Promise<DatabaseDamagedError | null> | null = null;
        // A worker that cannot run the check says nothing about the file: the desk runs unchecked (logged by the caller).
        verified = () => (started ??= checkFileOffThread(file, 'quick', options.nativeBinding));
      }
    }
  } catch (err) {
    sqlite.close();
    throw err;
  }
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Durability: in WAL mode FULL syncs the WAL at every commit, so a write answered 201 survives a
  // power loss or OS crash, not only a crash of Desk (NORMAL syncs at checkpoints and may roll the
  // last commits back). Measured by `npm run bench` (FULL against NORMAL on the hot write paths).
  sqlite.pragma(`synchronous = ${options.synchronous === 'OFF' ? 'OFF' : 'FULL'}`);
  sqlite.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  let migrated: MigrateResult | null = null;
  try {
    if (options.migrate !== false) {
      // A migration writes: on a large file it waits for the check that runs off-thread.
      if (appliedMigrations(sqlite).length < Object.keys(shippedMigrations).length) {
        const damage = await verified();
        if (damage) throw damage;
      }
      migrated = await migrateDatabase(sqlite, { backupBeforeUpgrade: options.upgradeBackup, now: options.now });
    }
  } catch (err) {
    sqlite.close();
    throw err;
  }
  let driver: JoiningDriver | undefined;
  let caching: StatementCachingDriver | undefined;
  const dialect = new SqliteDialect({ database: sqlite });
  const db = new Kysely<DB>({
    dialect: {
      createAdapter: () => dialect.createAdapter(),
      createDriver: () => (driver = new JoiningDriver((caching = withStatementCache(dialect, sqlite)))),
      createIntrospector: (k) => dialect.createIntrospector(k),
      createQueryCompiler: () => dialect.createQueryCompiler(),
    },
    plugins: [new CamelCasePlugin()],
  });
  if (!driver) throw new Error('Kysely did not create its driver');
  registerDriver(db, driver);
  if (caching) registerStatementCache(db, caching);
  return {
    db,
    migrated,
    async backup(target: string) {
      // better-sqlite3 answers a backup that could not start because this connection is inside a
      // write transaction (another request's, awaiting its work) as finished with 0 pages, and
      // writes no file. Start between transactions, and start again if one slipped in first.
      for (let attempt = 1; ; attempt++) {
        while (sqlite.inTransaction) await new Promise((resolve) => setTimeout(resolve, BACKUP_RETRY_MS));
        const { totalPages } = await sqlite.backup(target);
        if (totalPages > 0) return;
        if (attempt === BACKUP_ATTEMPTS) throw new Error(`the backup could not start: the database was busy ${BACKUP_ATTEMPTS} times`);
      }
    },
    async close() {
      await db.destroy();
    },
    verified,
  };
}

const fileSize = (file: string): number => {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
};

/** Kysely's SQLite driver with prepared statements kept per SQL text (db/statement-cache.ts). */
function withStatementCache(dialect: SqliteDialect, sqlite: Database.Database): StatementCachingDriver {
  return new StatementCachingDriver(dialect.createDriver(), sqlite);
}

/**
 * The database holds the workspace token: 0600. SQLite creates its -wal and -shm files with the
 * database file's own mode, so creating that file private (before SQLite does) covers them too;
 * files left readable by an older Desk are made private. Windows has no POSIX modes.
 */
function makeDatabaseFilesPrivate(file: string): void {
  if (process.platform === 'win32' || file === ':memory:' || file === '' || file.startsWith('file:')) return;
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    try {
      fs.chmodSync(f, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

function openSqlite(file: string, nativeBinding: string | undefined): Database.Database {
  // better-sqlite3 would only say "Cannot find module"; say which binding was expected and why.
  if (nativeBinding !== undefined && !fs.existsSync(nativeBinding)) {
    throw new Error(`SQLite native binding not found: ${nativeBinding} (the better_sqlite3.node to load instead of node_modules' own)`);
  }
  makeDatabaseFilesPrivate(file);
  return nativeBinding === undefined ? new Database(file) : new Database(file, { nativeBinding });
}
