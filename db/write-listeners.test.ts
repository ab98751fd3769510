import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../server/testing/database';
import { onAnyTableWrite, onTableWrite } from './statement-cache';
import { inTransaction, type Trx } from './transactions';

/** onTableWrite's listeners on Desk's own database: when they run, and in which async context. */
const database = useTestDatabase();

const job = (name: string) => ({ name, lastRunAt: null, lastFinishedAt: null, lastError: null, runCount: 0 });
const jobNames = async () => (await database.db.selectFrom('schedulerJobs').select('name').orderBy('name').execute()).map((r) => r.name);

describe('table write listeners', () => {
  it('hear a transaction once per table, after its COMMIT and before its caller is answered; a read there sees the committed rows', async () => {
    const order: string[] = [];
    const reads: Promise<string[]>[] = [];
    const tables: string[] = [];
    onAnyTableWrite(database.db, (table) => tables.push(table));
    onTableWrite(database.db, 'scheduler_jobs', () => {
      order.push('heard');
      reads.push(jobNames());
    });
    await inTransaction(database.db, async (trx) => {
      await trx.insertInto('schedulerJobs').values(job('a')).execute();
      await trx.insertInto('schedulerJobs').values(job('b')).execute();
      await trx.updateTable('schedulerJobs').set({ runCount: 1 }).execute();
      order.push('fn done');
    });
    order.push('answered');
    expect(order).toEqual(['fn done', 'heard', 'answered']);
    expect(tables).toEqual(['scheduler_jobs']);
    expect(await Promise.all(reads)).toEqual([['a', 'b']]);
  });

  it('are not told of a transaction rolled back; a write outside any transaction is heard at once', async () => {
    let heard = 0;
    onTableWrite(database.db, 'scheduler_jobs', () => heard++);
    await expect(
      // eslint-disable-next-line no-restricted-syntax -- a whole transaction rolled back (a group-commit member only rolls back its savepoint)
      database.db.transaction().execute(async (trx) => {
        await trx.insertInto('schedulerJobs').values(job('gone')).execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(heard).toBe(0);
    await database.db.insertInto('schedulerJobs').values(job('autocommit')).execute();
    expect(heard).toBe(1);
  });

  it('run outside the writer’s transaction: one that starts a transaction gets its own, after the writer’s, and neither waits for the other', async () => {
    let writer: Trx | undefined;
    let fromListener: Promise<Trx> | undefined;
    onTableWrite(database.db, 'scheduler_jobs', () => {
      fromListener ??= inTransaction(database.db, async (trx) => {
        await trx.insertInto('schedulerJobs').values(job('from listener')).execute();
        return trx;
      });
    });
    await inTransaction(database.db, async (trx) => {
      writer = trx;
      await trx.insertInto('schedulerJobs').values(job('writer')).execute();
    });
    const listenerTrx = await fromListener;
    expect(listenerTrx).toBeDefined();
    expect(listenerTrx).not.toBe(writer);
    expect(await jobNames()).toEqual(['from listener', 'writer']);
  });
});
