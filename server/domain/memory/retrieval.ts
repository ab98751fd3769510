import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import type { EngineMemory } from '../../engine/types';

/**
 * Memory retrieval by full-text relevance: SQLite FTS5 over title, content and tags, ranked by
 * bm25 (title weighted above content, tags above both). Archived entries are never retrieved.
 */

// Words too common to say anything about relevance (they would match most entries).
const STOP_WORDS = new Set(
  'a an and are as at be but by for from has have in is it its of on or that the this to was were will with about into our your their they them we you i he she not no yes do does did can could should would than then there here what when where which who why how new'.split(' '),
);

/**
 * Words of a search at most: the first ones (a task's title comes first in its query). bm25 scores
 * every entry matching any word, so each extra common word costs a pass over its postings: long
 * queries over thousands of entries were slow enough to stall the API during a cycle.
 */
export const MAX_MATCH_TERMS = 10;

/** The FTS5 MATCH expression for free text: its distinct meaningful words, each quoted, OR-ed; null when none. */
export function matchExpression(text: string, maxTerms = MAX_MATCH_TERMS): string | null {
  const words = new Set<string>();
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (raw.length < 2 || STOP_WORDS.has(raw) || /^\d+$/.test(raw)) continue;
    words.add(raw);
    if (words.size >= maxTerms) break;
  }
  if (words.size === 0) return null;
  return [...words].map((w) => `"${w}"`).join(' OR ');
}

/** The `limit` live entries most relevant to `text`, best first. */
export async function searchMemory(db: Db, text: string, limit: number): Promise<EngineMemory[]> {
  const match = matchExpression(text);
  if (match === null || limit <= 0) return [];
  const rows = await sql<{ id: string; kind: EngineMemory['kind']; title: string; content: string; importance: number | null; tags: string }>`
    SELECT m.id, m.kind, m.title, m.content, m.importance, f.tags
    FROM memory_fts f JOIN memory m ON m.id = f.memory_id
    WHERE memory_fts MATCH ${match} AND m.archived_at IS NULL
    ORDER BY bm25(memory_fts, 0, 4.0, 1.0, 6.0), m.id
    LIMIT ${limit}`.execute(db);
  return rows.rows.map((r) => ({ id: r.id, kind: r.kind, title: r.title, content: r.content, importance: r.importance, tags: r.tags === '' ? [] : r.tags.split(' ') }));
}
