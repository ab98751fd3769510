import Database from 'better-sqlite3';
import { CamelCasePlugin, Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StatementCachingDriver, writeTarget } from './statement-cache';

interface TestDb {
  things: { id: number; someName: string };
}

function open() {
  const sqlite = new Database(':memory:');
  sqlite.exec('CREATE TABLE things (id INTEGER PRIMARY KEY, some_name TEXT NOT NULL)');
  const prepare = vi.spyOn(sqlite, 'prepare');
  const dialect = new SqliteDialect({ database: sqlite });
  let driver: StatementCachingDriver | undefined;
  const db = new Kysely<TestDb>({
    dialect: {
      createAdapter: () => dialect.createAdapter(),
      createDriver: () => (driver = new StatementCachingDriver(dialect.createDriver(), sqlite)),
      createIntrospector: (k) => dialect.createIntrospector(k),
      createQueryCompiler: () => dialect.createQueryCompiler(),
    },
    plugins: [new CamelCasePlugin()],
  });
  return { db, prepare, driver: driver as StatementCachingDriver };
}

let opened: Kysely<TestDb>[] = [];
afterEach(async () => {
  for (const db of opened) await db.destroy();
  opened = [];
});

describe('statement cache', () => {
  it('prepares each SQL text once and answers like Kysely’s own connection', async () => {
    const { db, prepare } = open();
    opened.push(db);
    for (let i = 1; i <= 5; i++) {
      const res = await db.insertInto('things').values({ id: i, someName: `n${i}` }).executeTakeFirst();
      expect(res.insertId).toBe(BigInt(i));
      expect(res.numInsertedOrUpdatedRows).toBe(1n);
    }
    const upd = await db.updateTable('things').set({ someName: 'x' }).where('id', '>', 3).executeTakeFirst();
    expect(upd.numUpdatedRows).toBe(2n);
    for (let i = 0; i < 3; i++) expect(await db.selectFrom('things').selectAll().where('id', '=', 5).execute()).toEqual([{ id: 5, someName: 'x' }]);
    // eslint-disable-next-line no-restricted-syntax -- this test's own Kysely over the bare driver, not Desk's database
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('things').where('id', '=', 1).execute();
    });
    // eslint-disable-next-line no-restricted-syntax -- this test's own Kysely over the bare driver, not Desk's database
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('things').where('id', '=', 2).execute();
    });
    const sqls = prepare.mock.calls.map((c) => c[0]);
    expect(new Set(sqls).size).toBe(sqls.length);
    // Immediate: the write lock from the start (a second connection writes the file: statement-cache.ts).
    expect(sqls).toContain('begin immediate');
    expect(await db.selectFrom('things').select('id').orderBy('id').execute()).toEqual([{ id: 3 }, { id: 4 }, { id: 5 }]);
  });

  it('keeps working after a schema change and after a failed statement', async () => {
    const { db } = open();
    opened.push(db);
    await db.insertInto('things').values({ id: 1, someName: 'a' }).execute();
    await expect(db.insertInto('things').values({ id: 1, someName: 'b' }).execute()).rejects.toThrow(/UNIQUE/);
    expect(await db.selectFrom('things').selectAll().execute()).toEqual([{ id: 1, someName: 'a' }]);
    await sql`ALTER TABLE things ADD COLUMN extra TEXT`.execute(db);
    expect(await db.selectFrom('things').selectAll().execute()).toEqual([{ id: 1, someName: 'a', extra: null }]);
  });

  it('tells listeners of every write to their table, whatever the statement, and not of reads', async () => {
    const { db, driver } = open();
    opened.push(db);
    const seen = vi.fn();
    const stop = driver.onTableWrite('things', seen);
    await db.selectFrom('things').selectAll().execute();
    expect(seen).not.toHaveBeenCalled();
    await db.insertInto('things').values({ id: 1, someName: 'a' }).execute();
    await db.updateTable('things').set({ someName: 'b' }).execute();
    await sql`UPDATE things SET some_name = 'c'`.execute(db);
    await db.insertInto('things').values({ id: 2, someName: 'r' }).returning('id').execute();
    // eslint-disable-next-line no-restricted-syntax -- this test's own Kysely over the bare driver, not Desk's database
    await db.transaction().execute((trx) => trx.deleteFrom('things').where('id', '=', 2).execute());
    expect(seen).toHaveBeenCalledTimes(5);
    stop();
    await db.deleteFrom('things').execute();
    expect(seen).toHaveBeenCalledTimes(5);
  });

  it('reports each write statement to onAnyTableWrite, and notifyWritten reaches the listeners of the tables named (or all)', async () => {
    const { db, driver } = open();
    opened.push(db);
    const tables: string[] = [];
    const stopAny = driver.onAnyTableWrite((table) => tables.push(table));
    await db.selectFrom('things').selectAll().execute();
    await db.insertInto('things').values({ id: 1, someName: 'a' }).execute();
    await db.deleteFrom('things').execute();
    expect(tables).toEqual(['things', 'things']);
    stopAny();
    const things = vi.fn();
    const others = vi.fn();
    driver.onTableWrite('things', things);
    driver.onTableWrite('others', others);
    driver.notifyWritten(['Things', 'nobody_listens']);
    expect([things.mock.calls.length, others.mock.calls.length]).toEqual([1, 0]);
    driver.notifyWritten('all');
    expect([things.mock.calls.length, others.mock.calls.length]).toEqual([2, 1]);
    expect(tables).toHaveLength(2);
  });
});

describe('writeTarget', () => {
  it('names the table an INSERT, UPDATE or DELETE writes', () => {
    expect(writeTarget('update "workspace" set "plan" = ?')).toBe('workspace');
    expect(writeTarget('insert into "outbox_events" ("id") values (?)')).toBe('outbox_events');
    expect(writeTarget('INSERT OR REPLACE INTO Workspace (id) VALUES (1)')).toBe('workspace');
    expect(writeTarget('  delete from workspace where 1')).toBe('workspace');
    expect(writeTarget('UPDATE OR IGNORE `workspace` SET x = 1')).toBe('workspace');
    expect(writeTarget('replace into [workspace] values (1)')).toBe('workspace');
    expect(writeTarget('select * from "workspace"')).toBeNull();
    expect(writeTarget('begin')).toBeNull();
  });
});
