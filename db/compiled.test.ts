import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../server/testing/database';
import { compiledOnce, insertRow, learnNames } from './compiled';
import { inTransaction } from './transactions';

const t = useTestDatabase();

const job = (name: string) => ({ name, lastRunAt: null, lastFinishedAt: null, lastError: null, runCount: 0 });

describe('insertRow', () => {
  it('writes what insertInto(...).values(row) writes, shape after shape, on the db and in a transaction', async () => {
    await insertRow(t.db, 'schedulerJobs', job('a'));
    await insertRow(t.db, 'schedulerJobs', { ...job('b'), runCount: 7 });
    await inTransaction(t.db, (trx) => insertRow(trx, 'schedulerJobs', { ...job('c'), lastError: 'boom' }));
    // another column order is another shape, bound in its own order
    await insertRow(t.db, 'schedulerJobs', { runCount: 3, lastError: null, lastFinishedAt: null, lastRunAt: '2026-01-01T00:00:00.000Z', name: 'd' });
    await t.db.insertInto('schedulerJobs').values(job('e')).execute();
    const rows = await t.db.selectFrom('schedulerJobs').selectAll().orderBy('name').execute();
    expect(rows).toEqual([
      job('a'),
      { ...job('b'), runCount: 7 },
      { ...job('c'), lastError: 'boom' },
      { ...job('d'), runCount: 3, lastRunAt: '2026-01-01T00:00:00.000Z' },
      job('e'),
    ]);
  });

  it('inside a transaction runs on its connection: rolled back with it, and a finished transaction refuses it', async () => {
    await insertRow(t.db, 'schedulerJobs', job('shape')); // the shape is known: the next inserts take the direct way
    let kept: Parameters<typeof insertRow>[0] | undefined;
    await expect(
      inTransaction(t.db, async (trx) => {
        kept = trx;
        await insertRow(trx, 'schedulerJobs', job('rolled-back'));
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect((await t.db.selectFrom('schedulerJobs').select('name').execute()).map((r) => r.name)).toEqual(['shape']);
    // Kysely's own check: a transaction used after it ended is an error, not a write outside it.
    await expect(insertRow(kept!, 'schedulerJobs', job('late'))).rejects.toThrow(/committed|rolled back/i);
  });

  it('leaves undefined values out (the column default applies) and passes expressions to the builder', async () => {
    await insertRow(t.db, 'schedulerJobs', { ...job('u'), runCount: undefined as unknown as number });
    await insertRow(t.db, 'schedulerJobs', { ...job('x'), lastError: sql<string>`'from ' || 'sql'` as unknown as string });
    await insertRow(t.db, 'schedulerJobs', { ...job('y'), lastError: sql<string>`'again'` as unknown as string });
    const rows = await t.db.selectFrom('schedulerJobs').select(['name', 'runCount', 'lastError']).orderBy('name').execute();
    expect(rows).toEqual([
      { name: 'u', runCount: 0, lastError: null },
      { name: 'x', runCount: 0, lastError: 'from sql' },
      { name: 'y', runCount: 0, lastError: 'again' },
    ]);
  });

  it('rolls back with its transaction and reports constraint failures', async () => {
    await expect(
      inTransaction(t.db, async (trx) => {
        await insertRow(trx, 'schedulerJobs', job('r'));
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    await insertRow(t.db, 'schedulerJobs', job('dup'));
    await expect(insertRow(t.db, 'schedulerJobs', job('dup'))).rejects.toThrow(/UNIQUE/);
    expect((await t.db.selectFrom('schedulerJobs').select('name').execute()).map((r) => r.name)).toEqual(['dup']);
  });
});

describe('compiledOnce', () => {
  it('runs a parameterless query compiled once, rows named as the plugins name them', async () => {
    await insertRow(t.db, 'schedulerJobs', job('a'));
    const names = compiledOnce((db) => db.selectFrom('schedulerJobs').select(['name', 'runCount']).orderBy('name'));
    expect(await names(t.db)).toEqual([{ name: 'a', runCount: 0 }]);
    await insertRow(t.db, 'schedulerJobs', job('b'));
    expect(await inTransaction(t.db, (trx) => names(trx))).toEqual([
      { name: 'a', runCount: 0 },
      { name: 'b', runCount: 0 },
    ]);
  });

  it('inside a transaction, once it has learnt the names, reads straight from the connection with the same rows', async () => {
    const names = compiledOnce((db) => db.selectFrom('schedulerJobs').select(['name', 'runCount', 'lastError']).orderBy('name'));
    await insertRow(t.db, 'schedulerJobs', job('a'));
    const first = await inTransaction(t.db, (trx) => names(trx)); // through Kysely: learns run_count -> runCount
    const again = await inTransaction(t.db, async (trx) => {
      await insertRow(trx, 'schedulerJobs', { ...job('b'), runCount: 2, lastError: 'x' });
      return names(trx); // straight: sees the transaction's own write
    });
    expect(first).toEqual([{ name: 'a', runCount: 0, lastError: null }]);
    expect(again).toEqual([
      { name: 'a', runCount: 0, lastError: null },
      { name: 'b', runCount: 2, lastError: 'x' },
    ]);
  });

  it('learns only a pure renaming of the columns', () => {
    expect(learnNames([{ run_count: 1, name: 'a' }], [{ runCount: 1, name: 'a' }])).toEqual([
      ['run_count', 'runCount'],
      ['name', 'name'],
    ]);
    expect(learnNames([{ n: 1 }], [{ n: 2 }])).toBeNull();
    expect(learnNames([{ n: 1 }], [{ n: 1, extra: true }])).toBeNull();
    expect(learnNames([], [])).toBeNull();
  });

  it('refuses a query with parameters (their values would be frozen)', async () => {
    const one = compiledOnce((db) => db.selectFrom('schedulerJobs').select('name').where('name', '=', 'a'));
    await expect(one(t.db)).rejects.toThrow(/takes parameters/);
  });
});
