import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';

/**
 * File sources are unique per file. Until now the only guard was a look-up by the url as typed, so
 * `/a/x.csv` and `file:///a/x.csv` (or `/a/./x.csv`) made two sources importing the same records
 * twice. This adds `sources.file_path`, the file's path in one spelling, and a unique partial index
 * on it over file sources, so the database itself refuses a second source for a file.
 *
 * Existing duplicates (several file sources whose paths normalise to one file): the OLDEST is kept
 * (earliest created_at, then id). Each newer one is merged into it and deleted: its signals are
 * re-attributed to the kept source (no signal is deleted), its dedupe keys (feed_items_seen) are
 * added to the kept source's, so a re-import does not bring its records in again.
 */

/**
 * Frozen copy of `filePathKey` (server/integrations/feeds/file-import.ts) as it was when this
 * migration shipped; db/migrations.test.ts checks the two agree. A file source whose url is not a
 * file location (none should exist) keeps file_path null and is left alone.
 */
export function filePathKey0007(location: string | null): string | null {
  if (location === null) return null;
  const value = location.trim();
  let file: string;
  try {
    file = value.startsWith('file:') ? fileURLToPath(value) : value;
  } catch {
    return null;
  }
  if (!path.isAbsolute(file) || !/\.(csv|json)$/i.test(file)) return null;
  const resolved = path.resolve(file);
  return process.platform === 'win32' ? resolved.toLowerCase() : resolved;
}

interface FileSourceRow {
  id: string;
  url: string | null;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sources ADD COLUMN file_path TEXT`.execute(db);
  const { rows } = await sql<FileSourceRow>`SELECT id, url FROM sources WHERE type = 'file' ORDER BY created_at, id`.execute(db);
  const kept = new Map<string, string>();
  for (const row of rows) {
    const key = filePathKey0007(row.url);
    if (key === null) continue;
    const keeper = kept.get(key);
    if (keeper === undefined) {
      kept.set(key, row.id);
      await sql`UPDATE sources SET file_path = ${key} WHERE id = ${row.id}`.execute(db);
      continue;
    }
    await sql`UPDATE signals SET source_id = ${keeper} WHERE source_id = ${row.id}`.execute(db);
    await sql`
      INSERT OR IGNORE INTO feed_items_seen (source_id, item_key, seen_at)
      SELECT ${keeper}, item_key, seen_at FROM feed_items_seen WHERE source_id = ${row.id}`.execute(db);
    await sql`DELETE FROM sources WHERE id = ${row.id}`.execute(db);
  }
  await sql`CREATE UNIQUE INDEX sources_file_path ON sources (file_path) WHERE type = 'file'`.execute(db);
}
