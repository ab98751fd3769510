import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, PAGE_CACHE_KIB, type OpenedDatabase } from './connection';

/** What each connection costs in memory: its page cache is bounded, and the file is not mapped. */

let dir: string;
const opened: OpenedDatabase[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const pragma = async (database: OpenedDatabase, name: 'cache_size' | 'mmap_size' | 'temp_store') => Object.values((await sql.raw<Record<string, number>>(`PRAGMA ${name}`).execute(database.db)).rows[0])[0];

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

  it('keeps temporary storage in memory on both connections (the savepoint journals of group commit never touch a temp file)', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-conn-'));
    const file = path.join(dir, 'desk.sqlite');
    const desk = await openDatabase(file);
    opened.push(desk);
    const worker = await openDatabase(file, { migrate: false });
    opened.push(worker);
    // 2 = MEMORY (0 would be the build's default, a file past 64 KiB).
    for (const database of [desk, worker]) expect(await pragma(database, 'temp_store')).toBe(2);
  });
});
