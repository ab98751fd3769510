import Database from 'better-sqlite3';
import { CamelCasePlugin, Kysely, Migrator, SqliteDialect, type MigrationResultSet } from 'kysely';
import { migrations } from './migrations/index';
import type { DB } from './schema';

export type Db = Kysely<DB>;

export interface OpenedDatabase {
  db: Db;
  close(): Promise<void>;
}

/** Opens (creating if needed) the SQLite file with the pragmas Desk relies on, and migrates it. */
export async function openDatabase(file: string): Promise<OpenedDatabase> {
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<DB>({
    dialect: new SqliteDialect({ database: sqlite }),
    plugins: [new CamelCasePlugin()],
  });
  try {
    await migrateToLatest(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return {
    db,
    async close() {
      await db.destroy();
    },
  };
}

export async function migrateToLatest(db: Kysely<DB>): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    throw result.error instanceof Error ? result.error : new Error(String(result.error));
  }
  return result;
}
