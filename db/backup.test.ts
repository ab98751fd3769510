import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from './connection';
import { inTransaction } from './transactions';

/**
 * The online backup while the same connection has a write transaction open (a request awaiting
 * its work): better-sqlite3 would report it finished with 0 pages and write no file, which made
 * the desk's daily backup fail at start-up.
 */

let dir: string;
let opened: OpenedDatabase | undefined;
afterEach(async () => {
  await opened?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('waits for an open transaction to end, then writes a whole copy including what it wrote', async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-backup-'));
  opened = await openDatabase(path.join(dir, 'desk.sqlite'));
  const db = opened.db;
  let finish!: () => void;
  const open = new Promise<void>((resolve) => (finish = resolve));
  const writing = inTransaction(db, async (trx) => {
    await trx.insertInto('activity').values({ id: 'act_backup', kind: 'backup.created', detail: 'during', actorUserId: null, actorLabel: 'system', entityType: null, entityId: null, createdAt: '2026-03-10T12:00:00.000Z' }).execute();
    await open;
  });
  const target = path.join(dir, 'copy.sqlite');
  const backup = opened.backup(target);
  // Let the backup try while the transaction is open, then end the transaction.
  await new Promise((resolve) => setTimeout(resolve, 30));
  finish();
  await writing;
  await backup;
  const copy = new Database(target, { readonly: true });
  try {
    expect(copy.prepare("select detail from activity where id = 'act_backup'").get()).toEqual({ detail: 'during' });
  } finally {
    copy.close();
  }
});
