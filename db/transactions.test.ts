import { AsyncResource } from 'node:async_hooks';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../server/core/clock';
import { WorkspaceService } from '../server/domain/workspace/workspace-service';
import { useTestDatabase } from '../server/testing/database';
import { openDatabase } from './connection';
import { beforeCommit, inTransaction, isInTransaction, MAX_GROUP_MEMBERS } from './transactions';

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

describe('group commit', () => {
  it('runs callers that arrive together in one transaction, each answered only after the commit', async () => {
    const commits: string[] = [];
    const order: string[] = [];
    const write = (name: string) =>
      inTransaction(database.db, async (trx) => {
        await trx.insertInto('schedulerJobs').values(job(name)).execute();
        order.push(`wrote ${name}`);
        return name;
      }).then((value) => {
        commits.push(value);
        return value;
      });
    const all = Promise.all([write('a'), write('b'), write('c')]);
    expect(await all).toEqual(['a', 'b', 'c']);
    // All three wrote before any was answered: they shared the one COMMIT.
    expect(order).toEqual(['wrote a', 'wrote b', 'wrote c']);
    expect(commits).toEqual(['a', 'b', 'c']);
    expect(await jobNames()).toEqual(['a', 'b', 'c']);
  });

  it('commits at most MAX_GROUP_MEMBERS callers at once, so the first of a burst is not kept waiting for all of it', async () => {
    const answered: number[] = [];
    let written = 0;
    const writes = Array.from({ length: MAX_GROUP_MEMBERS * 2 + 5 }, (_, i) =>
      inTransaction(database.db, async (trx) => {
        await trx.insertInto('schedulerJobs').values(job(`j${String(i).padStart(3, '0')}`)).execute();
        written += 1;
      }).then(() => answered.push(written)),
    );
    await Promise.all(writes);
    // The first caller was answered after its batch's COMMIT: with the batch full, not after the whole burst.
    expect(answered[0]).toBe(MAX_GROUP_MEMBERS);
    expect(answered[MAX_GROUP_MEMBERS]).toBe(MAX_GROUP_MEMBERS * 2);
    expect((await jobNames()).length).toBe(MAX_GROUP_MEMBERS * 2 + 5);
  });

  it('rolls back only the caller that failed; the others of its batch are stored', async () => {
    const results = await Promise.allSettled([
      inTransaction(database.db, async (trx) => {
        await trx.insertInto('schedulerJobs').values(job('kept-1')).execute();
      }),
      inTransaction(database.db, async (trx) => {
        await trx.insertInto('schedulerJobs').values(job('dropped')).execute();
        throw new Error('no');
      }),
      inTransaction(database.db, async (trx) => {
        // Sees what the earlier members of its batch wrote, not the failed one's rows.
        const seen = await trx.selectFrom('schedulerJobs').select('name').orderBy('name').execute();
        await trx.insertInto('schedulerJobs').values(job('kept-2')).execute();
        return seen.map((r) => r.name);
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseFulfilledResult<string[]>).value).toEqual(['kept-1']);
    expect(await jobNames()).toEqual(['kept-1', 'kept-2']);
  });

  it('fails every member of a batch whose COMMIT fails, and stores none of them', async () => {
    // A deferred foreign key is checked at COMMIT: the batch's commit fails as a whole.
    await sql`create table gc_parent (id text primary key)`.execute(database.db);
    await sql`create table gc_child (id text primary key, parent text references gc_parent(id) deferrable initially deferred)`.execute(database.db);
    const results = await Promise.allSettled([
      inTransaction(database.db, async (trx) => {
        await sql`insert into gc_parent (id) values ('p')`.execute(trx);
      }),
      inTransaction(database.db, async (trx) => {
        await sql`insert into gc_child (id, parent) values ('c', 'missing')`.execute(trx);
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    const parents = await sql<{ n: number }>`select count(*) as n from gc_parent`.execute(database.db);
    expect(parents.rows[0].n).toBe(0);
    // The next caller gets a fresh transaction.
    await inTransaction(database.db, async (trx) => {
      await sql`insert into gc_parent (id) values ('q')`.execute(trx);
    });
    const after = await sql<{ n: number }>`select count(*) as n from gc_parent`.execute(database.db);
    expect(after.rows[0].n).toBe(1);
  });
});

describe('beforeCommit', () => {
  it('runs once at the end of a batch, inside it: members are answered after it, and it sees all their writes', async () => {
    const seenByHook: string[][] = [];
    const remove = beforeCommit(
      database.db,
      async (trx) => {
        seenByHook.push((await trx.selectFrom('schedulerJobs').select('name').orderBy('name').execute()).map((r) => r.name));
        await trx.insertInto('schedulerJobs').values(job(`hook-${seenByHook.length}`)).execute();
      },
      () => {},
    );
    try {
      const answered = await Promise.all(
        ['a', 'b', 'c'].map((name) =>
          inTransaction(database.db, async (trx) => {
            await trx.insertInto('schedulerJobs').values(job(name)).execute();
          }).then(() => jobNames()),
        ),
      );
      // One batch, one hook run, which saw the three members' writes; each member, once answered, sees the hook's row.
      expect(seenByHook).toEqual([['a', 'b', 'c']]);
      for (const names of answered) expect(names).toEqual(['a', 'b', 'c', 'hook-1']);
    } finally {
      remove();
    }
    await inTransaction(database.db, async (trx) => {
      await trx.insertInto('schedulerJobs').values(job('after')).execute();
    });
    expect(seenByHook).toHaveLength(1);
  });

  it('a hook that throws has its writes rolled back and is reported; the members still commit', async () => {
    const errors: unknown[] = [];
    const remove = beforeCommit(
      database.db,
      async (trx) => {
        await trx.insertInto('schedulerJobs').values(job('half-done')).execute();
        throw new Error('hook failed');
      },
      (err) => errors.push(err),
    );
    try {
      await inTransaction(database.db, async (trx) => {
        await trx.insertInto('schedulerJobs').values(job('member')).execute();
      });
    } finally {
      remove();
    }
    expect(await jobNames()).toEqual(['member']);
    expect(errors.map((e) => (e as Error).message)).toEqual(['hook failed']);
  });
});

/**
 * Waits that could never end fail at once. Each test has a short timeout: without the guard it
 * hangs (the member's fn waits for a promise that settles only after its own batch commits).
 */
describe('inTransaction guards', () => {
  const AWAITED_INSIDE = /awaited inside another transaction's fn on the same database.*pass fn's `trx` down/;

  it('a member awaiting another caller’s inTransaction queued in its batch fails at once; the other caller still commits', { timeout: 5000 }, async () => {
    const other: { second?: Promise<string> } = {};
    const first = inTransaction(database.db, async (trx) => {
      await trx.insertInto('schedulerJobs').values(job('first')).execute();
      return other.second;
    });
    other.second = inTransaction(database.db, async (trx) => {
      await trx.insertInto('schedulerJobs').values(job('second')).execute();
      return 'second';
    });
    await expect(first).rejects.toThrow(AWAITED_INSIDE);
    await expect(other.second).resolves.toBe('second');
    expect(await jobNames()).toEqual(['second']);
  });

  it('awaiting a member that already ran in the same batch (answered only at its COMMIT) fails at once', { timeout: 5000 }, async () => {
    const first = inTransaction(database.db, (trx) => trx.insertInto('schedulerJobs').values(job('first')).execute());
    const second = inTransaction(database.db, async (trx) => {
      await trx.insertInto('schedulerJobs').values(job('second')).execute();
      await first;
    });
    await expect(second).rejects.toThrow(AWAITED_INSIDE);
    await first;
    expect(await jobNames()).toEqual(['first']);
  });

  it('an inTransaction started from an async context without the open transaction and awaited inside fn fails at once', { timeout: 5000 }, async () => {
    // e.g. a callback bound before the transaction began: it cannot join, so it queues behind fn.
    const outside = AsyncResource.bind((run: () => Promise<unknown>) => run());
    let inner: Promise<unknown> | undefined;
    const outer = inTransaction(database.db, async () => {
      inner = outside(() => inTransaction(database.db, (trx) => trx.insertInto('schedulerJobs').values(job('inner')).execute()));
      await inner;
    });
    await expect(outer).rejects.toThrow(AWAITED_INSIDE);
    // The queued call itself is not the mistake: it runs and commits.
    await inner;
    expect(await jobNames()).toEqual(['inner']);
  });

  it('a beforeCommit hook awaiting a member of its batch, or an fn handing one back unawaited, fails at once too', { timeout: 5000 }, async () => {
    const outside = AsyncResource.bind((run: () => Promise<unknown>) => run());
    let queued: Promise<unknown> | undefined;
    const failures: unknown[] = [];
    const stop = beforeCommit(database.db, async () => queued, (err) => failures.push(err));
    await inTransaction(database.db, async (trx) => {
      await trx.insertInto('schedulerJobs').values(job('member')).execute();
      queued = outside(() => inTransaction(database.db, (t) => t.insertInto('schedulerJobs').values(job('queued')).execute()));
    });
    stop();
    expect(failures).toHaveLength(1);
    expect(String(failures[0])).toMatch(AWAITED_INSIDE);
    await queued;

    const other: { second?: Promise<string> } = {};
    // Not async: runMembers, not fn, awaits what it returns.
    const first = inTransaction(database.db, () => other.second as Promise<string>);
    other.second = inTransaction(database.db, async () => 'second');
    await expect(first).rejects.toThrow(AWAITED_INSIDE);
    await expect(other.second).resolves.toBe('second');
    expect(await jobNames()).toEqual(['member', 'queued']);
  });

  it('awaiting a member whose batch has committed is fine, inside a later transaction too', async () => {
    const done = inTransaction(database.db, (trx) => trx.insertInto('schedulerJobs').values(job('done')).execute());
    await done;
    await inTransaction(database.db, async (trx) => {
      await done;
      await trx.insertInto('schedulerJobs').values(job('later')).execute();
    });
    expect(await jobNames()).toEqual(['done', 'later']);
  });

  it('inside a transaction, inTransaction on another database fails at once instead of joining the open one', { timeout: 5000 }, async () => {
    const other = await openDatabase(path.join(database.dir, 'other.sqlite'));
    try {
      const nested = inTransaction(database.db, async (trx) => {
        await trx.insertInto('schedulerJobs').values(job('outer')).execute();
        await inTransaction(other.db, (otherTrx) => otherTrx.insertInto('schedulerJobs').values(job('elsewhere')).execute());
      });
      await expect(nested).rejects.toThrow(/called inside a transaction of another database.*after the outer inTransaction has resolved/);
      expect(await jobNames()).toEqual([]);
      expect(await other.db.selectFrom('schedulerJobs').select('name').execute()).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
