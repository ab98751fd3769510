import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type Migration } from 'kysely';
import { migrations as shippedMigrations } from './migrations/index';

/**
 * Bringing a database's schema up to date, the step every start of the desk takes.
 *
 * Kysely's Migrator runs SQLite migrations outside any transaction (its SQLite adapter declares no
 * transactional DDL), so a migration that failed half-way left a database no version of Desk could
 * open. SQLite does roll DDL back, so here the whole upgrade, every pending migration and its
 * bookkeeping row, is ONE transaction: a failed upgrade leaves the file exactly as it was, at its
 * old version, and an older database is upgraded all the way or not at all. A migration therefore
 * cannot change `PRAGMA foreign_keys` (a no-op inside a transaction); one that rebuilds a table sets
 * `PRAGMA defer_foreign_keys = ON` instead, and the keys are checked at COMMIT.
 *
 * Before an older database (one with migrations applied) is changed, an online copy is written where
 * `backupBeforeUpgrade` says, named by the caller with both schema versions. A fresh database gets
 * none: it holds nothing to lose.
 *
 * The bookkeeping is Kysely's own tables (`kysely_migration`, `kysely_migration_lock`), as every
 * shipped Desk wrote them, so databases of every earlier version read the same.
 */

/** A schema version: the number of a migration's name (`0015_digest` is 15; 0 before any). */
export type SchemaVersion = number;

export interface MigrateOptions {
  /**
   * Where to write the online copy taken before an older database is upgraded, given the schema
   * versions it goes from and to; no copy when absent (a fresh database never gets one).
   */
  backupBeforeUpgrade?: (from: SchemaVersion, to: SchemaVersion) => string;
  /** Stop after this migration (the upgrade fixtures build databases of each earlier version). */
  target?: string;
  /** The migrations to apply, in order (default: every shipped one; tests pass a failing one). */
  migrations?: Record<string, Migration>;
  /** When each migration was applied, recorded in `kysely_migration` (default: the system time). */
  now?: () => Date;
}

export interface MigrateResult {
  from: SchemaVersion;
  to: SchemaVersion;
  /** The migrations applied, in order. */
  applied: string[];
  /** The copy written before the upgrade, or null (nothing to upgrade, a fresh database, or no place given). */
  backup: string | null;
}

/** An upgrade that failed; the database is as it was before it began. */
export class MigrationFailedError extends Error {
  constructor(
    message: string,
    readonly from: SchemaVersion,
    readonly to: SchemaVersion,
    readonly migration: string,
    readonly backup: string | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MigrationFailedError';
  }
}

/** The schema version a migration's name stands for. */
export function schemaVersionOf(name: string): SchemaVersion {
  const m = /^(\d+)_/.exec(name);
  if (!m) throw new Error(`migration ${name} does not start with its number (NNNN_name)`);
  return Number(m[1]);
}

/** A schema version as the backup names and messages spell it: `0015`. */
export const formatSchemaVersion = (version: SchemaVersion): string => String(version).padStart(4, '0');

/** The migrations already applied to the file, in name order (none on a fresh file). */
export function appliedMigrations(sqlite: Database.Database): string[] {
  const table = sqlite.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get('kysely_migration');
  if (!table) return [];
  return (sqlite.prepare(`SELECT name FROM kysely_migration ORDER BY name`).all() as { name: string }[]).map((r) => r.name);
}

/** Brings the schema of an open connection up to date (or up to `target`), as described above. */
export async function migrateDatabase(sqlite: Database.Database, options: MigrateOptions = {}): Promise<MigrateResult> {
  const all = options.migrations ?? shippedMigrations;
  const names = Object.keys(all);
  const known = new Set(names);
  const applied = appliedMigrations(sqlite);
  const latestKnown = names.at(-1) ?? null;
  const unknown = applied.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new Error(
      `This database was written by a newer version of Desk: it has migration ${unknown.join(', ')}, which this version does not know ` +
        `(it knows up to ${latestKnown ?? 'none'}). Start the newer Desk, or restore a backup this version wrote.`,
    );
  }
  const expectedPrefix = names.slice(0, applied.length);
  if (applied.some((name, i) => name !== expectedPrefix[i])) {
    throw new Error(`The database's applied migrations (${applied.join(', ')}) are not the first ${applied.length} of this version's (${expectedPrefix.join(', ')})`);
  }
  const end = options.target === undefined ? names.length : names.indexOf(options.target) + 1;
  if (end === 0) throw new Error(`no migration ${options.target}`);
  const pending = names.slice(applied.length, end);
  const from = applied.length === 0 ? 0 : schemaVersionOf(applied.at(-1)!);
  if (pending.length === 0) return { from, to: from, applied: [], backup: null };
  const to = schemaVersionOf(pending.at(-1)!);

  const backup = applied.length > 0 && options.backupBeforeUpgrade ? await writeBackup(sqlite, options.backupBeforeUpgrade(from, to)) : null;

  // The migrations' own Kysely, on this same connection: plain (no plugins), never destroyed (that
  // would close the connection the desk goes on using).
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
  const now = options.now ?? (() => new Date());
  let current = pending[0];
  sqlite.exec('BEGIN IMMEDIATE');
  try {
    sqlite.exec(`CREATE TABLE IF NOT EXISTS kysely_migration (name varchar(255) NOT NULL PRIMARY KEY, timestamp varchar(255) NOT NULL)`);
    sqlite.exec(`CREATE TABLE IF NOT EXISTS kysely_migration_lock (id varchar(255) NOT NULL PRIMARY KEY, is_locked integer DEFAULT 0 NOT NULL)`);
    sqlite.prepare(`INSERT OR IGNORE INTO kysely_migration_lock (id, is_locked) VALUES ('migration_lock', 0)`).run();
    const record = sqlite.prepare(`INSERT INTO kysely_migration (name, timestamp) VALUES (?, ?)`);
    for (const name of pending) {
      current = name;
      await all[name].up(db);
      record.run(name, now().toISOString());
    }
    sqlite.exec('COMMIT');
  } catch (err) {
    // SQLite ends some transactions itself on an error (a full disk, an I/O error).
    if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
    const reason = err instanceof Error ? err.message : String(err);
    const was = applied.length === 0 ? 'empty' : `at schema ${formatSchemaVersion(from)}`;
    const copy = backup ? ` A copy of the database taken before the upgrade is at ${backup}.` : '';
    throw new MigrationFailedError(
      `Upgrading the database from schema ${formatSchemaVersion(from)} to ${formatSchemaVersion(to)} failed in migration ${current}: ${reason}. ` +
        `Nothing was changed: the database is still ${was}.${copy}`,
      from,
      to,
      current,
      backup,
      { cause: err },
    );
  }
  return { from, to, applied: pending, backup };
}

/**
 * SQLite's online backup of the connection's database into `target`: written under a temporary
 * name and renamed when whole, private to the user (0600, its folder 0700), as the backup service
 * writes its own.
 */
async function writeBackup(sqlite: Database.Database, target: string): Promise<string> {
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const partial = `${target}.partial`;
  try {
    await sqlite.backup(partial);
    fs.chmodSync(partial, 0o600);
    fs.renameSync(partial, target);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`The database needs an upgrade, but the copy taken first could not be written to ${target}: ${reason}. Nothing was changed.`, { cause: err });
  } finally {
    fs.rmSync(partial, { force: true });
  }
  return target;
}
