import { sql, type Kysely } from 'kysely';
import { SEARCH_KINDS } from './0014_search';
import { DEFERRED_ACTIVITY_KINDS } from './0017_search_deferred';

/**
 * New signals and their arrival activity rows wait in `search_queue` (kind, ref) and get their
 * search_docs row and their FTS5 row together, in bulk, when the index takes the queue
 * (server/domain/search/search-index.ts), instead of a search_docs row and a search_pending row
 * each as they are written (0017).
 *
 * Why: on POST /signals at 100k signals the search rows were a third of the request's SQL: per
 * request four B-tree inserts into search_docs (rowid and (kind, ref)), two into search_pending,
 * and an FTS5 segment per group-commit batch, pages every COMMIT wrote to the WAL. A queue row is
 * one append to a small WITHOUT ROWID B-tree, and the index then takes a few hundred rows at a time,
 * which costs each request a fraction of what its own rows did.
 * Keyed by (kind, ref), never by the source tables' implicit rowids, which VACUUM may renumber.
 *
 * Rows 0017 left pending are indexed here first, with 0017's own statement.
 */

const deferredKinds = DEFERRED_ACTIVITY_KINDS.map((k) => `'${k}'`).join(', ');

/** The FTS5 columns of a kind as 0014's triggers write them, over the row `r` (the domain's indexer uses them too). */
export function columnsOf(kind: 'signal' | 'activity'): string {
  const k = SEARCH_KINDS.find((x) => x.kind === kind);
  if (!k) throw new Error(`search kind ${kind} is not indexed`);
  return `${k.title}, ${k.body}, ${k.tags}, '${k.kind}'`;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `INSERT INTO search_fts (rowid, title, body, tags, kind)
       SELECT d.doc_id, ${columnsOf('signal')} FROM search_pending p CROSS JOIN search_docs d ON d.doc_id = p.doc_id CROSS JOIN signals r ON r.id = d.ref WHERE d.kind = 'signal'
       UNION ALL
       SELECT d.doc_id, ${columnsOf('activity')} FROM search_pending p CROSS JOIN search_docs d ON d.doc_id = p.doc_id CROSS JOIN activity r ON r.id = d.ref WHERE d.kind = 'activity' AND r.kind IN (${deferredKinds})
       ORDER BY 1`,
    )
    .execute(db);
  for (const trigger of ['search_signals_insert', 'search_activity_insert_deferred', 'search_signals_delete', 'search_activity_delete']) {
    await sql.raw(`DROP TRIGGER ${trigger}`).execute(db);
  }
  await sql`DROP TABLE search_pending`.execute(db);
  await sql`CREATE TABLE search_queue (kind TEXT NOT NULL, ref TEXT NOT NULL, PRIMARY KEY (kind, ref)) WITHOUT ROWID`.execute(db);
  await sql
    .raw(
      `CREATE TRIGGER search_signals_insert AFTER INSERT ON signals BEGIN
        INSERT INTO search_queue (kind, ref) VALUES ('signal', new.id);
      END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER search_activity_insert_deferred AFTER INSERT ON activity WHEN new.kind IN (${deferredKinds}) BEGIN
        INSERT INTO search_queue (kind, ref) VALUES ('activity', new.id);
      END`,
    )
    .execute(db);
  // A deleted row leaves the index, or the queue if it was still waiting.
  for (const [table, kind] of [
    ['signals', 'signal'],
    ['activity', 'activity'],
  ]) {
    await sql
      .raw(
        `CREATE TRIGGER search_${table}_delete AFTER DELETE ON ${table} BEGIN
          DELETE FROM search_fts WHERE rowid = (SELECT doc_id FROM search_docs WHERE kind = '${kind}' AND ref = old.id);
          DELETE FROM search_docs WHERE kind = '${kind}' AND ref = old.id;
          DELETE FROM search_queue WHERE kind = '${kind}' AND ref = old.id;
        END`,
      )
      .execute(db);
  }
}
