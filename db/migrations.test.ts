import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db, type OpenedDatabase } from './connection';
import { migrations } from './migrations/index';

const here = path.dirname(fileURLToPath(import.meta.url));

let dir: string;
let file: string;
const opened: OpenedDatabase[] = [];

async function open(): Promise<OpenedDatabase> {
  const database = await openDatabase(file);
  opened.push(database);
  return database;
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-migrations-'));
  file = path.join(dir, 'desk.sqlite');
});
afterEach(async () => {
  for (const d of opened.splice(0)) await d.close().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
});

async function rows<T = Record<string, unknown>>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return (await query.execute(db)).rows as T[];
}

const firstValue = async (db: Db, query: ReturnType<typeof sql>) => Object.values((await rows(db, query))[0])[0];

async function tableNames(db: Db): Promise<string[]> {
  const r = await rows<{ name: string }>(db, sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`);
  return r.map((t) => t.name);
}

async function columnNames(db: Db, table: string): Promise<string[]> {
  const r = await rows<{ name: string }>(db, sql`SELECT name FROM pragma_table_info(${table})`);
  return r.map((c) => c.name).sort();
}

async function appliedMigrations(db: Db): Promise<string[]> {
  const r = await rows<{ name: string }>(db, sql`SELECT name FROM kysely_migration ORDER BY name`);
  return r.map((m) => m.name);
}

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The tables and columns db/schema.ts declares, read from its source (types do not exist at run time). */
function declaredSchema(): Map<string, string[]> {
  const source = fs.readFileSync(path.join(here, 'schema.ts'), 'utf8');
  const block = (name: string) => {
    const m = new RegExp(`export interface ${name} \\{([\\s\\S]*?)\\n\\}`).exec(source);
    if (!m) throw new Error(`interface ${name} not found in db/schema.ts`);
    return [...m[1].matchAll(/^ {2}(\w+)\??: *(.+?);/gm)].map((f) => [f[1], f[2]] as const);
  };
  const tables = new Map<string, string[]>();
  for (const [table, type] of block('DB')) tables.set(snake(table), block(type).map(([col]) => snake(col)).sort());
  return tables;
}

describe('migrations', () => {
  it('migrate a fresh database to the latest version, every migration in order', async () => {
    const { db } = await open();
    const names = Object.keys(migrations);
    expect(names.length).toBeGreaterThanOrEqual(2);
    expect(await appliedMigrations(db)).toEqual(names);
  });

  it('create every table and column db/schema.ts declares, and nothing it does not', async () => {
    const { db } = await open();
    const declared = declaredSchema();
    for (const table of ['workspace', 'users', 'focus_shifts', 'activity', 'outbox_events', 'scheduler_jobs', 'sources', 'signals', 'signal_reactions', 'feed_items_seen', 'idempotency_keys']) {
      expect(declared.has(table), `${table} in db/schema.ts`).toBe(true);
    }
    // FTS5 keeps its index in shadow tables named after the virtual table.
    const actual = (await tableNames(db)).filter((t) => !t.startsWith('kysely_') && !/_fts_(config|content|data|docsize|idx)$/.test(t));
    expect(actual).toEqual([...declared.keys()].sort());
    for (const [table, columns] of declared) {
      expect(await columnNames(db, table), table).toEqual(columns);
    }
  });

  it('are a no-op when run again, in the same process or on reopening', async () => {
    const first = await open();
    await first.db.insertInto('focusShifts').values({ id: 'fcs_1', tags: '["a"]', startedAt: '2026-01-01T00:00:00.000Z' }).execute();
    const applied = await rows(first.db, sql`SELECT * FROM kysely_migration ORDER BY name`);
    await first.close();

    const second = await open();
    expect(await rows(second.db, sql`SELECT * FROM kysely_migration ORDER BY name`)).toEqual(applied);
    expect(await second.db.selectFrom('focusShifts').selectAll().execute()).toEqual([{ id: 'fcs_1', tags: '["a"]', startedAt: '2026-01-01T00:00:00.000Z' }]);
  });

  it('refuse a database written by a newer version (an unknown migration was applied)', async () => {
    const first = await open();
    await sql`INSERT INTO kysely_migration (name, timestamp) VALUES ('9999_from_the_future', '2030-01-01T00:00:00.000Z')`.execute(first.db);
    await first.close();
    await expect(openDatabase(file)).rejects.toThrow(/9999_from_the_future/);
  });

  it('come from a static list that names every migration file (nothing is read from disk at run time)', async () => {
    const files = fs
      .readdirSync(path.join(here, 'migrations'))
      .filter((f) => /^\d{4}_[a-z0-9_]+\.ts$/.test(f))
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    expect(Object.keys(migrations)).toEqual(files);
    for (const [name, migration] of Object.entries(migrations)) expect(typeof migration.up, name).toBe('function');
    const code = fs.readFileSync(path.join(here, 'migrations/index.ts'), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    expect(code).not.toMatch(/FileMigrationProvider|readdir|import\(/);
  });
});

describe('openDatabase', () => {
  it('turns on WAL with synchronous FULL, foreign keys and a busy timeout', async () => {
    const { db } = await open();
    expect(await firstValue(db, sql`PRAGMA journal_mode`)).toBe('wal');
    // FULL (2): the WAL is synced at each commit, so an acknowledged write survives a power loss.
    expect(await firstValue(db, sql`PRAGMA synchronous`)).toBe(2);
    expect(await firstValue(db, sql`PRAGMA foreign_keys`)).toBe(1);
    expect(await firstValue(db, sql`PRAGMA busy_timeout`)).toBe(5000);
  });

  it('enforces foreign keys', async () => {
    const { db } = await open();
    await expect(
      db.insertInto('signalReactions').values({ signalId: 'sig_missing', userId: 'usr_missing', emoji: '👍', createdAt: '2026-01-01T00:00:00.000Z' }).execute(),
    ).rejects.toThrow(/FOREIGN KEY/);
  });

  it('closes cleanly: the WAL is checkpointed and removed', async () => {
    const database = await open();
    await database.db.insertInto('focusShifts').values({ id: 'fcs_1', tags: '[]', startedAt: '2026-01-01T00:00:00.000Z' }).execute();
    expect(fs.existsSync(`${file}-wal`)).toBe(true);
    await database.close();
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    await expect(database.db.selectFrom('focusShifts').selectAll().execute()).rejects.toThrow();
  });
});
