import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { dbFingerprint, userTables, writeMark } from './db-fingerprint';
import { openDatabase } from '../../db/connection';
import { inTransaction } from '../../db/transactions';
import { startTestDesk, type TestDesk } from './desk';
import { DAY_MS } from '../core/clock';
import { expectRejectedUnchanged } from './expect-rejected';
import { restoreRows, snapshotRows } from './fixtures/desk-snapshot';
import { createSignal } from './fixtures/signals';
import { createManualSource } from './fixtures/sources';
import { useTestDesk } from './use-test-desk';
import { changedTables, readAffected, recordReadTables } from './read-tables';

/** The test kit itself: each helper passes for what it should accept and fails for what it must catch. */

const desks: TestDesk[] = [];
afterEach(async () => {
  for (const d of desks.splice(0)) await d.stop();
});
async function start(...args: Parameters<typeof startTestDesk>) {
  const d = await startTestDesk(...args);
  desks.push(d);
  return d;
}

describe('dbFingerprint', () => {
  it('covers every user table and none of SQLite or Kysely bookkeeping', async () => {
    const desk = await start();
    const tables = await userTables(desk.services.db);
    expect(tables).toEqual(expect.arrayContaining(['workspace', 'users', 'activity', 'signals', 'sources', 'outbox_events', 'idempotency_keys']));
    expect(tables.filter((t) => t.startsWith('sqlite_') || t.startsWith('kysely_'))).toEqual([]);
    const fp = await dbFingerprint(desk.services.db);
    expect(Object.keys(fp)).toEqual(tables);
    expect(fp.workspace).toHaveLength(1);
    expect(JSON.parse(fp.workspace[0])).toMatchObject({ plan: 'free', loop_state: 'on' });
  });

  it('is equal for an unchanged database and differs after any row change', async () => {
    const desk = await start();
    const db = desk.services.db;
    const before = await dbFingerprint(db);
    expect(await dbFingerprint(db)).toEqual(before);
    await db.updateTable('workspace').set({ digestEmail: 'ops@example.com' }).execute();
    const changed = await dbFingerprint(db);
    expect(changed).not.toEqual(before);
    expect(Object.keys(changed).filter((t) => JSON.stringify(changed[t]) !== JSON.stringify(before[t]))).toEqual(['workspace']);
    await db.updateTable('workspace').set({ digestEmail: null }).execute();
    expect(await dbFingerprint(db)).toEqual(before);
  });
});

describe('writeMark', () => {
  it('moves with every row written (rolled back too, or by another connection), not with reads', async () => {
    const desk = await start();
    const db = desk.services.db;
    const mark = await writeMark(db);
    await desk.api('GET', '/api/v1/workspace');
    await dbFingerprint(db);
    expect(await writeMark(db)).toBe(mark);

    await db.updateTable('workspace').set({ digestEmail: 'ops@example.com' }).execute();
    const afterWrite = await writeMark(db);
    expect(afterWrite).not.toBe(mark);

    await expect(
      inTransaction(db, async (trx) => {
        await trx.updateTable('workspace').set({ digestEmail: null }).execute();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const afterRollback = await writeMark(db);
    expect(afterRollback).not.toBe(afterWrite);

    // The cycle worker writes through a connection of its own.
    const other = await openDatabase(path.join(desk.dataDir, 'desk.sqlite'), { migrate: false, synchronous: 'OFF' });
    try {
      await other.db.updateTable('workspace').set({ digestEmail: 'other@example.com' }).execute();
    } finally {
      await other.close();
    }
    expect(await writeMark(db)).not.toBe(afterRollback);
  });
});

describe('expectRejectedUnchanged', () => {
  it('passes for a refused request and returns its response', async () => {
    const desk = await start();
    const res = await expectRejectedUnchanged(desk, { method: 'PATCH', path: '/api/v1/workspace/loop', body: { loopState: 'sleeping' } }, { field: 'loopState', error: 'validation_failed' });
    expect(res.body.details[0].field).toBe('loopState');
    await expectRejectedUnchanged(desk, { method: 'GET', path: '/api/v1/sources/src_missing' }, { status: 404 });
  });

  it('fails when the request changed a row, even one no API reads', async () => {
    const desk = await start();
    const sneaky = async () => {
      await desk.services.db.insertInto('users').values({ id: 'usr_sneaky', name: 'S', email: null, role: 'viewer', createdAt: desk.clock.now().toISOString() }).execute();
      return { status: 422, body: { error: 'validation_failed', message: 'no', details: [{ field: 'x', message: 'no' }] }, headers: new Headers() };
    };
    await expect(expectRejectedUnchanged(desk, sneaky, { field: 'x' })).rejects.toThrow(/changed the database/);
  });

  it('fails on another status, another field, another error code or a body outside the error shape', async () => {
    const desk = await start();
    const bad = { method: 'PATCH', path: '/api/v1/workspace/loop', body: { loopState: 'sleeping' } };
    await expect(expectRejectedUnchanged(desk, bad, { status: 409 })).rejects.toThrow();
    await expect(expectRejectedUnchanged(desk, bad, { field: 'plan' })).rejects.toThrow();
    await expect(expectRejectedUnchanged(desk, bad, { error: 'source_exists' })).rejects.toThrow();
    // an accepted request is not a rejection (and it changed the workspace)
    await expect(expectRejectedUnchanged(desk, { method: 'PATCH', path: '/api/v1/workspace/loop', body: { loopState: 'off' } })).rejects.toThrow();
    const shapeless = async () => ({ status: 422, body: 'nope', headers: new Headers() });
    await expect(expectRejectedUnchanged(desk, shapeless)).rejects.toThrow();
  });
});

describe('startTestDesk', () => {
  it('removes the data folder it created on stop(), but never one it was given', async () => {
    const desk = await startTestDesk();
    expect(fs.existsSync(path.join(desk.dataDir, 'desk.sqlite'))).toBe(true);
    await desk.stop();
    expect(fs.existsSync(desk.dataDir)).toBe(false);

    const given = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-kit-given-'));
    try {
      const onGiven = await startTestDesk({ dataDir: given });
      await onGiven.stop();
      expect(fs.existsSync(path.join(given, 'desk.sqlite'))).toBe(true);
    } finally {
      fs.rmSync(given, { recursive: true, force: true });
    }
  });

  it('keeps the folder for a restart when asked, and the next desk can take it over', async () => {
    const first = await startTestDesk();
    await first.api('PATCH', '/api/v1/workspace/loop', { loopState: 'off' });
    await first.stop({ keepDataDir: true });
    expect(fs.existsSync(first.dataDir)).toBe(true);
    const second = await startTestDesk({ dataDir: first.dataDir, ownsDataDir: true });
    expect((await second.api('GET', '/api/v1/workspace')).body.loopState).toBe('off');
    await second.stop();
    expect(fs.existsSync(first.dataDir)).toBe(false);
  });

  it('does not sync the disk at commit (synchronous OFF), unless the test asks for FULL', async () => {
    const pragma = async (d: TestDesk) => (await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(d.services.db)).rows[0].synchronous;
    expect(await pragma(await start())).toBe(0);
    expect(await pragma(await start({ sqliteSynchronous: 'FULL' }))).toBe(2);
  });

  it('gives a typed client that sends the bearer token', async () => {
    const desk = await start();
    const { data, response } = await desk.client.GET('/api/v1/workspace');
    expect(response.status).toBe(200);
    expect(data?.plan).toBe('free');
    const patched = await desk.client.PATCH('/api/v1/workspace/loop', { body: { loopState: 'paused' } });
    expect(patched.data?.loopState).toBe('paused');
    const anonymous = await desk.clientWithToken(null).GET('/api/v1/workspace');
    expect(anonymous.response.status).toBe(401);
    expect(anonymous.error).toMatchObject({ error: 'unauthorized' });
  });
});

describe('snapshotRows / restoreRows', () => {
  it('puts back every row, including rows a delete cascaded away, and writes nothing when nothing changed', async () => {
    const desk = await start();
    const db = desk.services.db;
    const kept = await createSignal(desk, { title: 'kept' });
    expect((await desk.api('POST', `/api/v1/signals/${kept.id}/reaction`, { emoji: '👍' })).status).toBe(200);
    const snapshot = await snapshotRows(db);
    const before = await dbFingerprint(db);
    const writes = async () => (await sql<{ n: number }>`SELECT total_changes() AS n`.execute(db)).rows[0].n;

    const idle = await writes();
    expect(await restoreRows(db, snapshot)).toBe(false);
    expect(await writes()).toBe(idle);

    // A new signal changes signals; putting signals back deletes them all, which cascades into their reactions.
    await createSignal(desk, { title: 'added' });
    await db.updateTable('workspace').set({ loopState: 'off' }).execute();
    expect(await restoreRows(db, snapshot)).toBe(true);
    expect(await dbFingerprint(db)).toEqual(before);
    expect(await db.selectFrom('signalReactions').select('signalId').execute()).toEqual([{ signalId: kept.id }]);
  });
});

describe('useTestDesk', () => {
  const shared = useTestDesk();
  let first: { url: string; fingerprint: Awaited<ReturnType<typeof dbFingerprint>>; now: string };

  it('starts one desk for the file (this test changes it)', async () => {
    const desk = shared.desk;
    first = { url: desk.url, fingerprint: await dbFingerprint(desk.services.db), now: desk.clock.now().toISOString() };
    await createSignal(desk, { title: 'left behind' });
    await createManualSource(desk);
    await desk.api('PATCH', '/api/v1/workspace/loop', { loopState: 'off' });
    await desk.api('PUT', '/api/v1/workspace/focus-tags', { tags: ['billing'] });
    desk.clock.advance(DAY_MS);
    expect(await dbFingerprint(desk.services.db)).not.toEqual(first.fingerprint);
  });

  it('gives the next test the same desk, reset to every row and the clock it started with', async () => {
    const desk = shared.desk;
    expect(desk.url).toBe(first.url);
    expect(desk.clock.now().toISOString()).toBe(first.now);
    expect(await dbFingerprint(desk.services.db)).toEqual(first.fingerprint);
    const listed = await desk.api('GET', '/api/v1/signals');
    expect(listed.body.signals).toEqual([]);
    expect((await desk.api('GET', '/api/v1/workspace')).body).toMatchObject({ loopState: 'on', focusTags: [] });
    // and it still works after the reset: ids, foreign keys and the activity log
    const signal = await createSignal(desk, { title: 'after reset' });
    expect((await desk.api('POST', `/api/v1/signals/${signal.id}/reaction`, { emoji: '👍' })).status).toBe(200);
  });
});

describe('recordReadTables', () => {
  it("names each read's tables with the caches emptied first, marks reads without SQL, and leaves better-sqlite3 as it was", async () => {
    const desk = await start();
    await createSignal(desk, { title: 'Read me' });
    // Warm the workspace row's cache: a recording that kept it would see no SQL for GET /workspace.
    expect((await desk.api('GET', '/api/v1/workspace')).status).toBe(200);
    const probe = new Database(':memory:');
    const all = Object.getPrototypeOf(probe.prepare('select 1')).all;
    const tables = await recordReadTables(desk.services.db, ['/api/v1/workspace', '/api/v1/signals', '/api/v1/openapi.json'], (p) => desk.api('GET', p));
    expect(tables.get('/api/v1/workspace')).toEqual(new Set(['workspace']));
    expect(tables.get('/api/v1/signals')).toEqual(expect.any(Set));
    expect([...(tables.get('/api/v1/signals') as Set<string>)]).toEqual(expect.arrayContaining(['signals', 'sources']));
    expect(tables.get('/api/v1/openapi.json')).toBe('always');
    expect(Object.getPrototypeOf(probe.prepare('select 2')).all).toBe(all);
    probe.close();
  });

  it('makes a read again after writes to one of its tables, or when it has no tables to go by', () => {
    const fp = { signals: ['a', 'b'], tasks: ['t'], workspace: ['w'] };
    const changed = changedTables(fp, { signals: ['a', 'c'], tasks: ['t'], workspace: ['w'], runs: ['r'] });
    expect(changed).toEqual(new Set(['signals', 'runs']));
    expect(readAffected(new Set(['tasks', 'signals']), changed)).toBe(true);
    expect(readAffected(new Set(['tasks', 'workspace']), changed)).toBe(false);
    expect(readAffected('always', new Set())).toBe(true);
    expect(readAffected(undefined, new Set())).toBe(true);
  });
});
