import { describe, expect, it } from 'vitest';
import { ManualClock } from '../server/core/clock';
import { WorkspaceService } from '../server/domain/workspace/workspace-service';
import { useTestDatabase } from '../server/testing/database';
import { inTransaction, isInTransaction } from './transactions';

const database = useTestDatabase();

const job = (name: string) => ({ name, lastRunAt: null, lastFinishedAt: null, lastError: null, runCount: 0 });
const jobNames = async () => (await database.db.selectFrom('schedulerJobs').select('name').orderBy('name').execute()).map((r) => r.name);

describe('inTransaction', () => {
  it('lets a read of the workspace profile inside a transaction return (it used to hang on the one connection)', async () => {
    const workspace = new WorkspaceService(database.db, new ManualClock('2026-03-10T12:00:00Z'));
    await workspace.ensureCreated({ plan: 'pro', timezone: 'Europe/Berlin' });
    const profile = await inTransaction(database.db, async (trx) => {
      await trx.insertInto('schedulerJobs').values(job('a')).execute();
      return workspace.profile();
    });
    expect(profile.plan).toBe('pro');
    expect(profile.timezone).toBe('Europe/Berlin');
  });

  it('runs outer-db reads inside it on the transaction, so they see its uncommitted writes', async () => {
    const seen = await inTransaction(database.db, async (trx) => {
      await trx.insertInto('schedulerJobs').values(job('inside')).execute();
      return jobNames();
    });
    expect(seen).toEqual(['inside']);
  });

  it('joins an open transaction when nested, and a failure rolls back both', async () => {
    await expect(
      inTransaction(database.db, async (trx) => {
        await trx.insertInto('schedulerJobs').values(job('outer')).execute();
        await inTransaction(database.db, async (inner) => {
          await inner.insertInto('schedulerJobs').values(job('inner')).execute();
        });
        expect(await jobNames()).toEqual(['inner', 'outer']);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await jobNames()).toEqual([]);
  });

  it('makes a query from another caller wait for the commit instead of joining', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const writing = inTransaction(database.db, async (trx) => {
      await trx.insertInto('schedulerJobs').values(job('w')).execute();
      await gate;
    });
    // Started outside the transaction's async context: it queues behind it and sees the commit.
    const reading = jobNames();
    release();
    await writing;
    expect(await reading).toEqual(['w']);
  });

  it('does not let a callback that outlives its transaction borrow the connection', async () => {
    let late: Promise<string[]> | undefined;
    await inTransaction(database.db, async () => {
      late = new Promise((resolve) => setImmediate(() => resolve(jobNames())));
    });
    expect(isInTransaction()).toBe(false);
    expect(await late).toEqual([]);
  });
});
