import { sql, type Kysely } from 'kysely';

/**
 * Signals and their arrival rows (activity `signal.created` / `signal.received`) reach the search
 * index (0014) in bulk, at the end of the transaction that wrote them, instead of one FTS5 insert
 * per row from a trigger.
 *
 * Why: FTS5 writes its pending terms to a new segment at every savepoint, and every statement that
 * fires a trigger opens one (a statement journal), so each indexed row became a segment of its
 * own, merged again and again by automerge: a third of POST /signals' SQL at 100k
 * signals (two rows a request). Indexed together at the end of a group-commit batch, the rows of a
 * batch make one segment.
 *
 * How: the insert triggers of these rows only add the search_docs row (its doc_id, as before) and a
 * `search_pending` row; `indexPending` (server/domain/search/search-index.ts) indexes the pending
 * rows from their tables' current values in one statement and empties the list. The desk runs it
 * before each group-commit batch that wrote signals commits (db/transactions.ts beforeCommit), GET /search
 * runs it before searching when rows are pending, and the `search.index` job sweeps what other
 * connections left. Updates keep their 0014 triggers: on a row not indexed yet they change nothing
 * in search_fts, and the pending row is indexed from its values of that moment. A delete also takes
 * the row off the list. Every other kind, and activity rows
 * of other kinds (the loop's worker writes those on its own connection), stay indexed by their
 * 0014 triggers as they are written.
 */

/** Activity kinds written with a new signal: indexed with it, at the end of its transaction. */
export const DEFERRED_ACTIVITY_KINDS = ['signal.created', 'signal.received'] as const;
const deferredKinds = DEFERRED_ACTIVITY_KINDS.map((k) => `'${k}'`).join(', ');

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE search_pending (doc_id INTEGER PRIMARY KEY)`.execute(db);
  for (const table of ['signals', 'activity']) {
    await sql.raw(`DROP TRIGGER search_${table}_insert`).execute(db);
    await sql.raw(`DROP TRIGGER search_${table}_delete`).execute(db);
  }
  // A deleted row leaves the list too: its doc_id may be given again to the next row (INTEGER
  // PRIMARY KEY reuses the largest one), which must then be pending as itself.
  for (const [table, kind] of [
    ['signals', 'signal'],
    ['activity', 'activity'],
  ]) {
    const docOf = `(SELECT doc_id FROM search_docs WHERE kind = '${kind}' AND ref = old.id)`;
    await sql
      .raw(
        `CREATE TRIGGER search_${table}_delete AFTER DELETE ON ${table} BEGIN
          DELETE FROM search_fts WHERE rowid = ${docOf};
          DELETE FROM search_pending WHERE doc_id = ${docOf};
          DELETE FROM search_docs WHERE kind = '${kind}' AND ref = old.id;
        END`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `CREATE TRIGGER search_signals_insert AFTER INSERT ON signals BEGIN
        INSERT INTO search_docs (kind, ref, parent, at) VALUES ('signal', new.id, NULL, new.created_at);
        INSERT INTO search_pending (doc_id) VALUES (last_insert_rowid());
      END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER search_activity_insert AFTER INSERT ON activity WHEN new.kind NOT IN (${deferredKinds}) BEGIN
        INSERT INTO search_docs (kind, ref, parent, at) VALUES ('activity', new.id, NULL, new.created_at);
        INSERT INTO search_fts (rowid, title, body, tags, kind) VALUES (last_insert_rowid(), '', new.detail, new.kind, 'activity');
      END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER search_activity_insert_deferred AFTER INSERT ON activity WHEN new.kind IN (${deferredKinds}) BEGIN
        INSERT INTO search_docs (kind, ref, parent, at) VALUES ('activity', new.id, NULL, new.created_at);
        INSERT INTO search_pending (doc_id) VALUES (last_insert_rowid());
      END`,
    )
    .execute(db);
}
