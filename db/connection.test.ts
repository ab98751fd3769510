import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, PAGE_CACHE_KIB, type OpenedDatabase } from './connection';
import { inTransaction } from './transactions';

/** What each connection costs in memory: its page cache is bounded, and the file is not mapped. */

let dir: string;
const opened: OpenedDatabase[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const pragma = async (database: OpenedDatabase, name: 'cache_size' | 'mmap_size' | 'temp_store' | 'synchronous') => Object.values((await sql.raw<Record<string, number>>(`PRAGMA ${name}`).execute(database.db)).rows[0])[0];

describe('openDatabase memory settings', () => {
  it('gives the desk connection and a second one (the cycle worker) a 4 MiB page cache and no memory map', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-conn-'));
    const file = path.join(dir, 'desk.sqlite');
    const desk = await openDatabase(file);
    opened.push(desk);
    const worker = await openDatabase(file, { migrate: false });
    opened.push(worker);
    expect(PAGE_CACHE_KIB).toBe(4096);
    for (const database of [desk, worker]) {
      // Negative: KiB rather than pages (better-sqlite3's build would keep 16,000 KiB).
      expect(await pragma(database, 'cache_size')).toBe(-4096);
      expect(await pragma(database, 'mmap_size')).toBe(0);
    }
  });

  it('syncs at FULL unless told OFF (test desks), on the desk connection and on a second one alike', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-conn-'));
    const file = path.join(dir, 'desk.sqlite');
    const full = await openDatabase(file);
    opened.push(full);
    const off = await openDatabase(file, { migrate: false, synchronous: 'OFF' });
    opened.push(off);
    expect(await pragma(full, 'synchronous')).toBe(2);
    expect(await pragma(off, 'synchronous')).toBe(0);
  });

  it('keeps a group-commit member\'s savepoint journal in memory, and the temp storage of reads on files', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-conn-'));
    const database = await openDatabase(path.join(dir, 'desk.sqlite'));
    opened.push(database);
    const { db } = database;
    await sql`CREATE TABLE blobs (id INTEGER PRIMARY KEY, body TEXT NOT NULL)`.execute(db);
    await sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) INSERT INTO blobs (body) SELECT printf('%.2000c', 'x') FROM n`.execute(db);
    // SQLite's temp files are unlinked as soon as they are opened: only /proc shows them, "(deleted)".
    const openTempFiles = () =>
      fs.readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return /etilqs_.*\(deleted\)$/.test(fs.readlinkSync(`/proc/self/fd/${fd}`));
        } catch {
          return false;
        }
      }).length;
    const during = await inTransaction(db, async (trx) => {
      // ~400 KB of pages that existed before the member's savepoint: far past the 64 KiB spill.
      await sql`UPDATE blobs SET body = upper(body)`.execute(trx);
      return openTempFiles();
    });
    expect(during).toBe(0);
    // Outside a transaction the build's default (files) stands.
    expect(await pragma(database, 'temp_store')).toBe(0);
  });
});
