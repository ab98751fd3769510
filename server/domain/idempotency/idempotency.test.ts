import { beforeEach, describe, expect, it } from 'vitest';
import { inTransaction } from '../../../db/transactions';
import { DAY_MS } from '../../core/clock';
import { useTestDatabase } from '../../testing/database';
import { invalidFieldOf } from '../../testing/errors';
import { checkIdempotencyKey, idempotencyScope, once } from './idempotency';

const t = useTestDatabase();
const scope = idempotencyScope('test-scope', DAY_MS);
const other = idempotencyScope('other-scope', DAY_MS);


/** Runs `once` in a transaction with a change that counts its runs and returns the count. */
let runs = 0;
const call = (keys: string[], s = scope) =>
  inTransaction(t.db, (trx) => once(trx, t.clock, s, keys, async () => ({ run: ++runs })));

describe('once', () => {
  beforeEach(() => {
    runs = 0;
  });

  it('replays the stored result for a repeated key without running the change again', async () => {
    expect(await call(['k1'])).toEqual({ replayed: false, result: { run: 1 } });
    expect(await call(['k1'])).toEqual({ replayed: true, result: { run: 1 } });
    expect(runs).toBe(1);
  });

  it('stores the result under every key, so any of them replays it', async () => {
    await call(['a', 'b']);
    expect(await call(['b'])).toEqual({ replayed: true, result: { run: 1 } });
  });

  it('keeps scopes apart and runs every time without keys', async () => {
    await call(['k']);
    expect(await call(['k'], other)).toEqual({ replayed: false, result: { run: 2 } });
    await call([]);
    await call([]);
    expect(runs).toBe(4);
  });

  it('treats a key older than the TTL as new', async () => {
    await call(['k']);
    t.clock.advance(DAY_MS + 1);
    expect(await call(['k'])).toEqual({ replayed: false, result: { run: 2 } });
  });

  it('touches no key row without keys; the next keyed call sweeps its scope\'s expired keys', async () => {
    const stored = async () => (await t.db.selectFrom('idempotencyKeys').select('key').orderBy('key').execute()).map((r) => r.key);
    await call(['old']);
    await call(['kept'], other);
    t.clock.advance(DAY_MS + 1);
    await call([]);
    expect(await stored()).toEqual(['other-scope:kept', 'test-scope:old']);
    await call(['new']);
    expect(await stored()).toEqual(['other-scope:kept', 'test-scope:new']);
    expect(runs).toBe(4);
  });

  it('stores nothing when the change fails, so a retry runs it', async () => {
    await expect(inTransaction(t.db, (trx) => once(trx, t.clock, scope, ['k'], async () => Promise.reject(new Error('no'))))).rejects.toThrow('no');
    expect(await call(['k'])).toEqual({ replayed: false, result: { run: 1 } });
  });

  it('checks a key: 1-200 characters without control characters', () => {
    expect(checkIdempotencyKey('key', 'a'.repeat(200))).toHaveLength(200);
    for (const bad of ['', 'a'.repeat(201), 'a\nb', 42]) expect(invalidFieldOf(() => checkIdempotencyKey('key', bad))).toBe('key');
  });
});
