import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { filePathKey } from '../../server/integrations/feeds/file-import';
import { openDatabase, type OpenedDatabase } from '../connection';
import { migrations } from './index';
import { filePathKey0007 } from './0007_file_source_path_unique';

let dir: string;
let file: string;
let opened: OpenedDatabase | null = null;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-0007-'));
  file = path.join(dir, 'desk.sqlite');
});
afterEach(async () => {
  await opened?.close();
  opened = null;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A database migrated up to (not including) 0007, as a desk of the previous version left it. */
async function migrateBefore0007(): Promise<Kysely<unknown>> {
  const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0007'));
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(file) }) });
  const result = await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest();
  expect(result.error).toBeUndefined();
  return db;
}

async function addSource(db: Kysely<unknown>, id: string, type: string, url: string | null, createdAt: string) {
  await sql`
    INSERT INTO sources (id, type, label, url, status, created_at, updated_at)
    VALUES (${id}, ${type}, ${id}, ${url}, 'connected', ${createdAt}, ${createdAt})`.execute(db);
}

async function addSignal(db: Kysely<unknown>, id: string, sourceId: string) {
  await sql`INSERT INTO signals (id, kind, priority, title, detail, source_id, created_at) VALUES (${id}, 'other', 'normal', ${id}, '', ${sourceId}, '2026-01-01T00:00:00.000Z')`.execute(db);
}

async function addSeen(db: Kysely<unknown>, sourceId: string, key: string) {
  await sql`INSERT INTO feed_items_seen (source_id, item_key, seen_at) VALUES (${sourceId}, ${key}, '2026-01-01T00:00:00.000Z')`.execute(db);
}

describe('0007 file sources unique per file', () => {
  it('keeps the oldest of duplicate file sources, moves the others\' signals and dedupe keys to it, and deletes them', async () => {
    const old = await migrateBefore0007();
    // three sources for /data/crm.csv, spelled three ways; the oldest is created second by id order
    await addSource(old, 'src_b', 'file', '/data/crm.csv', '2026-01-02T00:00:00.000Z');
    await addSource(old, 'src_a', 'file', 'file:///data/crm.csv', '2026-01-01T00:00:00.000Z');
    await addSource(old, 'src_c', 'file', '/data/./crm.csv', '2026-01-03T00:00:00.000Z');
    await addSource(old, 'src_other', 'file', '/data/other.json', '2026-01-04T00:00:00.000Z');
    await addSource(old, 'src_feed', 'rss', 'https://example.com/feed', '2026-01-05T00:00:00.000Z');
    await addSignal(old, 'sig_a', 'src_a');
    await addSignal(old, 'sig_b', 'src_b');
    await addSignal(old, 'sig_c', 'src_c');
    await addSignal(old, 'sig_other', 'src_other');
    await addSeen(old, 'src_a', 'k1');
    await addSeen(old, 'src_b', 'k1');
    await addSeen(old, 'src_b', 'k2');
    await addSeen(old, 'src_c', 'k3');
    await old.destroy();

    opened = await openDatabase(file);
    const { db } = opened;
    expect(await db.selectFrom('sources').select(['id', 'url', 'filePath']).orderBy('id').execute()).toEqual([
      { id: 'src_a', url: 'file:///data/crm.csv', filePath: path.resolve('/data/crm.csv') },
      { id: 'src_feed', url: 'https://example.com/feed', filePath: null },
      { id: 'src_other', url: '/data/other.json', filePath: path.resolve('/data/other.json') },
    ]);
    expect(await db.selectFrom('signals').select(['id', 'sourceId']).orderBy('id').execute()).toEqual([
      { id: 'sig_a', sourceId: 'src_a' },
      { id: 'sig_b', sourceId: 'src_a' },
      { id: 'sig_c', sourceId: 'src_a' },
      { id: 'sig_other', sourceId: 'src_other' },
    ]);
    expect(await db.selectFrom('feedItemsSeen').select(['sourceId', 'itemKey']).orderBy('itemKey').execute()).toEqual([
      { sourceId: 'src_a', itemKey: 'k1' },
      { sourceId: 'src_a', itemKey: 'k2' },
      { sourceId: 'src_a', itemKey: 'k3' },
    ]);
    const index = await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE name = 'sources_file_path'`.execute(db);
    expect(index.rows[0].sql).toMatch(/CREATE UNIQUE INDEX sources_file_path ON sources \(file_path\) WHERE type = 'file'/);
  });

  it('normalises paths exactly as the code that compares them (filePathKey)', () => {
    const spellings = ['/a/x.csv', 'file:///a/x.csv', '/a/./x.csv', '/a//x.csv', '/a/b/../x.csv', ' /a/X.JSON ', 'file:///a/%20b.json', 'a/x.csv', '/a/x.txt', 'file://host/x.csv', 'https://a/x.csv'];
    for (const s of spellings) expect(filePathKey0007(s), s).toBe(filePathKey(s.trim()));
    expect(filePathKey0007('/a/b/../x.csv')).toBe(path.resolve('/a/x.csv'));
    expect(filePathKey0007(null)).toBeNull();
  });
});
