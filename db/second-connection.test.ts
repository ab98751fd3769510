import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type OpenedDatabase } from './connection';
import { notifyTablesWritten, onTableWrite, releaseWriteLock, shareWriteLock } from './statement-cache';
import { inTransaction } from './transactions';

/** Two connections to one file (the desk's and the cycle worker's): what each must be able to count on. */

let dir: string;
const opened: OpenedDatabase[] = [];
const raw: Database.Database[] = [];
afterEach(async () => {
  for (const r of raw.splice(0)) r.close();
  for (const o of opened.splice(0)) await o.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function openBoth() {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-2conn-'));
  const file = path.join(dir, 'desk.sqlite');
  const first = await openDatabase(file);
  opened.push(first);
  const second = await openDatabase(file, { migrate: false });
  opened.push(second);
  return { file, first, second };
}

describe('a second connection to the desk file', () => {
  it('opens without migrating and sees the first connection’s commits (WAL, same pragmas)', async () => {
    const { first, second, file } = await openBoth();
    const probe = new Database(file, { readonly: true });
    raw.push(probe);
    expect(probe.pragma('journal_mode', { simple: true })).toBe('wal');
    const migrations = await first.db.selectFrom('kysely_migration' as never).selectAll().execute();
    expect(migrations.length).toBeGreaterThan(0);
    expect(await second.db.selectFrom('kysely_migration' as never).selectAll().execute()).toEqual(migrations);
    const at = '2026-03-10T12:00:00.000Z';
    const run = { id: 'run_1', trigger: 'manual' as const, status: 'skipped' as const, engine: 'local' as const, model: 'm', startedAt: at, finishedAt: at, durationMs: 0, engineMs: 0, errorMessage: null, skipReason: null };
    await inTransaction(second.db, (trx) => trx.insertInto('runs').values(run).execute());
    expect(await first.db.selectFrom('runs').select(['id', 'status']).execute()).toEqual([{ id: 'run_1', status: 'skipped' }]);
  });

  it('a transaction holds the write lock from BEGIN: another writer waits (here: fails at once with no busy timeout) instead of invalidating its snapshot', async () => {
    const { first, file } = await openBoth();
    const other = new Database(file);
    raw.push(other);
    other.pragma('busy_timeout = 0');
    let otherError: unknown = null;
    await inTransaction(first.db, async (trx) => {
      await trx.selectFrom('workspace').selectAll().execute();
      try {
        other.exec('CREATE TABLE t_other (x)');
      } catch (err) {
        otherError = err;
      }
      await trx.updateTable('workspace').set({ updatedAt: 'x' }).execute();
    });
    expect((otherError as { code?: string } | null)?.code).toBe('SQLITE_BUSY');
    // Once the transaction committed, the other writer goes through.
    other.exec('CREATE TABLE t_other (x)');
  });

  it('with a shared write-lock flag, a transaction waits for the holder’s without blocking its thread, then goes through', async () => {
    const { first, second } = await openBoth();
    const flag = new Int32Array(new SharedArrayBuffer(4));
    shareWriteLock(second.db, flag, 'holder');
    shareWriteLock(first.db, flag, 'waiter');
    const at = '2026-03-10T12:00:00.000Z';
    const run = (id: string) => ({ id, trigger: 'manual' as const, status: 'skipped' as const, engine: 'local' as const, model: 'm', startedAt: at, finishedAt: at, durationMs: 0, engineMs: 0, errorMessage: null, skipReason: null });
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const holder = inTransaction(second.db, async (trx) => {
      await trx.insertInto('runs').values(run('run_holder')).execute();
      await gate;
    });
    await vi.waitFor(() => expect(Atomics.load(flag, 0)).toBe(1));
    let wrote = false;
    // Without the flag this BEGIN would sleep in SQLite's busy handler on this very thread, which
    // holds the other transaction open: nothing could run until the busy timeout failed it.
    const waiter = inTransaction(first.db, async (trx) => {
      await trx.insertInto('runs').values(run('run_waiter')).execute();
      wrote = true;
    });
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(wrote).toBe(false);
    open();
    await holder;
    await waiter;
    expect(wrote).toBe(true);
    expect(Atomics.load(flag, 0)).toBe(0);
    expect((await first.db.selectFrom('runs').select('id').orderBy('id').execute()).map((r) => r.id)).toEqual(['run_holder', 'run_waiter']);
  });

  it('a holder’s flag is cleared when its transaction ends, even after a failure, and releaseWriteLock wakes waiters of a holder that died', async () => {
    const { first, second } = await openBoth();
    const flag = new Int32Array(new SharedArrayBuffer(4));
    shareWriteLock(second.db, flag, 'holder');
    shareWriteLock(first.db, flag, 'waiter');
    await expect(inTransaction(second.db, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    // The caller is answered at once; its (now empty) batch ends just after.
    await vi.waitFor(() => expect(Atomics.load(flag, 0)).toBe(0));
    Atomics.store(flag, 0, 1); // as a worker that died inside its transaction leaves it
    let wrote = false;
    const waiter = inTransaction(first.db, async (trx) => {
      await trx.updateTable('runs').set({ model: 'x' }).execute();
      wrote = true;
    });
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(wrote).toBe(false);
    releaseWriteLock(flag);
    await waiter;
    expect(wrote).toBe(true);
  });

  it('notifyTablesWritten drops what onTableWrite listeners keep, as a write through the connection would', async () => {
    const { first } = await openBoth();
    const seen = vi.fn();
    expect(onTableWrite(first.db, 'artifacts', seen)).not.toBeNull();
    notifyTablesWritten(first.db, ['runs']);
    expect(seen).not.toHaveBeenCalled();
    notifyTablesWritten(first.db, ['artifacts']);
    notifyTablesWritten(first.db, 'all');
    expect(seen).toHaveBeenCalledTimes(2);
  });
});
