import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../../db/connection';
import { inTransaction } from '../../../db/transactions';
import { DAY_MS, ManualClock } from '../../core/clock';
import { invalidFieldOf } from '../../testing/errors';
import { checkIdempotencyKey, idempotencyScope, once } from './idempotency';

let dir: string;
let database: OpenedDatabase;
const clock = new ManualClock('2026-03-10T12:00:00Z');
const scope = idempotencyScope('test-scope', DAY_MS);
const other = idempotencyScope('other-scope', DAY_MS);

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-idem-'));
  database = await openDatabase(path.join(dir, 'desk.sqlite'));
});
afterEach(async () => {
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs `once` in a transaction with a change that counts its runs and returns the count. */
let runs = 0;
const call = (keys: string[], s = scope) =>
  inTransaction(database.db, (trx) => once(trx, clock, s, keys, async () => ({ run: ++runs })));

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
    clock.advance(DAY_MS + 1);
    expect(await call(['k'])).toEqual({ replayed: false, result: { run: 2 } });
  });

  it('stores nothing when the change fails, so a retry runs it', async () => {
    await expect(inTransaction(database.db, (trx) => once(trx, clock, scope, ['k'], async () => Promise.reject(new Error('no'))))).rejects.toThrow('no');
    expect(await call(['k'])).toEqual({ replayed: false, result: { run: 1 } });
  });

  it('checks a key: 1-200 characters without control characters', () => {
    expect(checkIdempotencyKey('key', 'a'.repeat(200))).toHaveLength(200);
    for (const bad of ['', 'a'.repeat(201), 'a\nb', 42]) expect(invalidFieldOf(() => checkIdempotencyKey('key', bad))).toBe('key');
  });
});
