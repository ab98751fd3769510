import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql, type Kysely, type Migration } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from './connection';
import { appliedMigrations, migrateDatabase, MigrationFailedError, schemaVersionOf } from './migrate';
import { migrations } from './migrations/index';

let dir: string;
let file: string;
const handles: Database.Database[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-migrate-'));
  file = path.join(dir, 'desk.sqlite');
});
afterEach(() => {
  for (const h of handles.splice(0)) if (h.open) h.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function connect(at = file): Database.Database {
  const h = new Database(at);
  h.pragma('journal_mode = WAL');
  h.pragma('foreign_keys = ON');
  handles.push(h);
  return h;
}

const names = Object.keys(migrations);
const latest = schemaVersionOf(names.at(-1)!);

/** Every row of every table and the whole schema, as text: equal exactly when the file holds the same. */
function contents(h: Database.Database): string {
  const schema = h.prepare(`SELECT type, name, sql FROM sqlite_master ORDER BY type, name`).all() as { type: string; name: string }[];
  const tables = schema.filter((o) => o.type === 'table' && !o.name.startsWith('sqlite_')).map((o) => o.name);
  return JSON.stringify({ schema, rows: tables.map((t) => [t, h.prepare(`SELECT * FROM "${t}"`).all()]) });
}

/** A database at schema 0015, holding a signal and an activity row. */
async function olderDatabase(): Promise<Database.Database> {
  const h = connect();
  await migrateDatabase(h, { target: '0015_digest' });
  h.prepare(`INSERT INTO signals (id, kind, priority, title, detail, created_at) VALUES ('sig_old', 'other', 'normal', 'Kept', 'through the upgrade', '2026-01-01T00:00:00.000Z')`).run();
  h.prepare(`INSERT INTO activity (id, kind, detail, actor_label, created_at) VALUES ('act_old', 'signal.created', 'old', 'system', '2026-01-01T00:00:00.000Z')`).run();
  return h;
}

const failing = (message: string): Migration => ({
  async up(db: Kysely<unknown>) {
    // Changes first, then fails: the changes must not stay.
    await sql`CREATE TABLE half_done (id TEXT)`.execute(db);
    await sql`UPDATE signals SET title = 'changed'`.execute(db);
    throw new Error(message);
  },
});

describe('migrateDatabase', () => {
  it('writes a copy named with both versions before upgrading an older database, then upgrades it', async () => {
    const h = await olderDatabase();
    const target = path.join(dir, 'backups', 'before.sqlite');
    const seen: [number, number][] = [];
    const result = await migrateDatabase(h, {
      backupBeforeUpgrade: (from, to) => {
        seen.push([from, to]);
        return target;
      },
    });
    expect(seen).toEqual([[15, latest]]);
    expect(result).toEqual({ from: 15, to: latest, applied: names.slice(15), backup: target });
    expect(appliedMigrations(h)).toEqual(names);
    expect(fs.readdirSync(path.dirname(target))).toEqual(['before.sqlite']);
    // The copy is the database as it was: schema 0015, with its rows; private to the user.
    const copy = connect(target);
    expect(appliedMigrations(copy)).toEqual(names.slice(0, 15));
    expect(copy.prepare(`SELECT title FROM signals`).all()).toEqual([{ title: 'Kept' }]);
    expect(fs.statSync(target).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(target)).mode & 0o777).toBe(0o700);
  });

  it('writes no copy for a fresh database, nor when nothing is to be done', async () => {
    const h = connect();
    let asked = 0;
    const backupBeforeUpgrade = () => {
      asked++;
      return path.join(dir, 'copy.sqlite');
    };
    expect((await migrateDatabase(h, { backupBeforeUpgrade })).backup).toBeNull();
    expect(await migrateDatabase(h, { backupBeforeUpgrade })).toEqual({ from: latest, to: latest, applied: [], backup: null });
    expect(asked).toBe(0);
  });

  it('leaves the database exactly as it was when a migration fails, and says which copy holds the data', async () => {
    const h = await olderDatabase();
    const before = contents(h);
    const target = path.join(dir, 'backups', 'copy.sqlite');
    const withFailure = { ...migrations, '9000_broken': failing('no such column: nope') };
    const attempt = migrateDatabase(h, { migrations: withFailure, backupBeforeUpgrade: () => target });
    await expect(attempt).rejects.toBeInstanceOf(MigrationFailedError);
    const err = (await attempt.catch((e: unknown) => e)) as MigrationFailedError;
    expect(err.message).toBe(
      `Upgrading the database from schema 0015 to 9000 failed in migration 9000_broken: no such column: nope. ` +
        `Nothing was changed: the database is still at schema 0015. A copy of the database taken before the upgrade is at ${target}.`,
    );
    expect({ from: err.from, to: err.to, migration: err.migration, backup: err.backup }).toEqual({ from: 15, to: 9000, migration: '9000_broken', backup: target });
    // Migrations 0016.. ran before the failure; none of them stays.
    expect(contents(h)).toBe(before);
    expect(h.inTransaction).toBe(false);
    h.close();
    // Also on reopening the file, and the desk opens it again at its old version... then upgrades.
    expect(contents(connect())).toBe(before);
    const opened = await openDatabase(file);
    try {
      expect((await sql<{ title: string }>`SELECT title FROM signals`.execute(opened.db)).rows).toEqual([{ title: 'Kept' }]);
    } finally {
      await opened.close();
    }
  });

  it('refuses a database of a newer version, naming what it does not know, and changes nothing', async () => {
    const h = connect();
    await migrateDatabase(h);
    h.prepare(`INSERT INTO kysely_migration (name, timestamp) VALUES ('9999_from_the_future', '2030-01-01T00:00:00.000Z')`).run();
    const before = contents(h);
    await expect(migrateDatabase(h, { backupBeforeUpgrade: () => path.join(dir, 'never.sqlite') })).rejects.toThrow(
      /newer version of Desk: it has migration 9999_from_the_future/,
    );
    expect(contents(h)).toBe(before);
    expect(fs.existsSync(path.join(dir, 'never.sqlite'))).toBe(false);
  });

  it('stops at a target version (the upgrade fixtures build each earlier version)', async () => {
    const h = connect();
    expect((await migrateDatabase(h, { target: '0008_tasks' })).to).toBe(8);
    expect(appliedMigrations(h)).toEqual(names.slice(0, 8));
    expect(h.prepare(`SELECT name FROM sqlite_master WHERE name = 'memory'`).get()).toBeUndefined();
  });
});
