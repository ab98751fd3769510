import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../server/testing/database';
import { TableCache, tableCache } from './table-cache';
import { inTransaction } from './transactions';

const database = useTestDatabase();

const job = (name: string) => ({ name, lastRunAt: null, lastFinishedAt: null, lastError: null, runCount: 0 });
const loadNames = async () => (await database.db.selectFrom('schedulerJobs').select('name').orderBy('name').execute()).map((r) => r.name);
const names = () => tableCache<'names', string[]>(database.db, 'test.names', ['scheduler_jobs'])!;
/** Through the cache, as a reader would. */
const readNames = () => names().get('names') ?? names().load('names', loadNames);

describe('TableCache', () => {
  it('does not keep a value read before a write that ran while the read was under way', async () => {
    const cache = new TableCache<'k', string>();
    let finish!: (value: string) => void;
    const slow = cache.load('k', () => new Promise((resolve) => (finish = resolve)));
    cache.invalidate(); // a write committed after the slow read fetched its (now old) value
    finish('old');
    expect(await slow).toBe('old');
    expect(cache.get('k')).toBeUndefined();
    expect(await cache.load('k', async () => 'new')).toBe('new');
    expect(cache.get('k')).toBe('new');
    cache.invalidate();
    expect(cache.get('k')).toBeUndefined();
  });

  it('keeps a committed read until a committed write to its table drops it', async () => {
    expect(await readNames()).toEqual([]);
    expect(names().get('names')).toEqual([]);
    await inTransaction(database.db, (trx) => trx.insertInto('schedulerJobs').values(job('a')).execute());
    expect(names().get('names')).toBeUndefined();
    expect(await readNames()).toEqual(['a']);
  });

  it('inside a transaction serves nothing kept (it reads its own writes) and keeps nothing: a rolled-back write leaves no kept value', async () => {
    expect(await readNames()).toEqual([]);
    await expect(
      inTransaction(database.db, async (trx) => {
        await trx.insertInto('schedulerJobs').values(job('uncommitted')).execute();
        expect(await readNames()).toEqual(['uncommitted']);
        // Not kept while the write is open, even after the kept value was dropped.
        names().invalidate();
        expect(await readNames()).toEqual(['uncommitted']);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(names().get('names')).toBeUndefined();
    expect(await readNames()).toEqual([]);
    // (The first read may not be kept: the batch the rolled-back member ran in commits meanwhile.)
    expect(await readNames()).toEqual([]);
    expect(names().get('names')).toEqual([]);
  });
});
