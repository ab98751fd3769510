import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import { compiledOnce } from '../../../db/compiled';
import { columnsOf } from '../../../db/migrations/0018_search_queue';
import { uncommittedTables } from '../../../db/statement-cache';
import { beforeCommit, inTransaction, type Trx } from '../../../db/transactions';

/**
 * The search queue (db/migrations/0018_search_queue.ts): new signals and their arrival activity
 * rows wait there, written by triggers, and are indexed here in bulk: their search_docs rows, then
 * their FTS5 rows (one segment for the lot), from their tables' current values.
 *
 * Whatever reads the index takes the queue first (GET /search, GET /activity `q`: `catchUp`), so
 * an answer is always the fully indexed one; on the desk's connection the queue is also taken
 * once INDEX_QUEUE_ROWS rows wait, before their group-commit batch commits, and the
 * `search.index` job sweeps it every minute (a quiet desk's few rows, another connection's).
 */

/**
 * Queued rows the desk lets wait before it indexes them in the batch that queued the last of them
 * (a signal queues two: itself and its arrival activity row). Indexing a few hundred rows at a time
 * costs a third of indexing them batch by batch (one FTS5 segment and one run of search_docs pages
 * for the lot); a few milliseconds of work once every 128 signals, and readers never wait for it
 * (they take the queue first).
 */
export const INDEX_QUEUE_ROWS = 256;

// CROSS JOIN keeps SQLite on the short queue first, then each row by its key. A queued row deleted
// meanwhile left the queue with it (0018's delete triggers).
export const QUEUE_DOCS_SQL = `
  INSERT INTO search_docs (kind, ref, parent, at)
  SELECT q.kind, q.ref, NULL, r.created_at FROM search_queue q CROSS JOIN signals r ON r.id = q.ref WHERE q.kind = 'signal'
  UNION ALL
  SELECT q.kind, q.ref, NULL, r.created_at FROM search_queue q CROSS JOIN activity r ON r.id = q.ref WHERE q.kind = 'activity'
  ORDER BY 4, 2`;

export const QUEUE_FTS_SQL = `
  INSERT INTO search_fts (rowid, title, body, tags, kind)
  SELECT d.doc_id, ${columnsOf('signal')} FROM search_queue q CROSS JOIN search_docs d ON d.kind = q.kind AND d.ref = q.ref CROSS JOIN signals r ON r.id = q.ref WHERE q.kind = 'signal'
  UNION ALL
  SELECT d.doc_id, ${columnsOf('activity')} FROM search_queue q CROSS JOIN search_docs d ON d.kind = q.kind AND d.ref = q.ref CROSS JOIN activity r ON r.id = q.ref WHERE q.kind = 'activity'
  ORDER BY 1`;

/** True when rows wait for the index. */
export async function hasQueued(db: Db): Promise<boolean> {
  const { rows } = await sql<{ queued: number }>`SELECT EXISTS (SELECT 1 FROM search_queue) AS queued`.execute(db);
  return rows[0]?.queued === 1;
}

/** Indexes every queued row and empties the queue. Returns how many rows were indexed. */
export async function indexQueued(trx: Trx): Promise<number> {
  if (!(await hasQueued(trx))) return 0;
  await sql.raw(QUEUE_DOCS_SQL).execute(trx);
  const { numAffectedRows } = await sql.raw(QUEUE_FTS_SQL).execute(trx);
  await sql`DELETE FROM search_queue`.execute(trx);
  return Number(numAffectedRows ?? 0);
}

/** Indexes the queued rows, if any, in a transaction of their own (joining an open one). */
export async function catchUp(db: Db): Promise<number> {
  return (await hasQueued(db)) ? inTransaction(db, (trx) => indexQueued(trx)) : 0;
}

/** How many rows wait, counted up to INDEX_QUEUE_ROWS: compiled once, it runs straight on the batch's connection (once per group commit). */
const queuedUpToLimit = compiledOnce((db) =>
  db
    .selectFrom((eb) => eb.selectFrom('searchQueue').select(sql.lit(1).as('one')).limit(sql.lit(INDEX_QUEUE_ROWS)).as('q'))
    .select((eb) => eb.fn.countAll<number>().as('n')),
);

/**
 * Indexes the queue on the desk's connection once it holds INDEX_QUEUE_ROWS rows: checked at the
 * end of each group-commit batch that wrote `signals` (every new signal does, whatever the path),
 * just before it commits (db/transactions.ts `beforeCommit`). If that fails the rows stay queued
 * (`onError` hears it) for the next reader, batch or job.
 */
export function indexInBulk(db: Db, onError: (err: unknown) => void): () => void {
  return beforeCommit(
    db,
    async (trx) => {
      if (!uncommittedTables(db).has('signals')) return;
      const [counted] = await queuedUpToLimit(trx);
      if ((counted?.n ?? 0) >= INDEX_QUEUE_ROWS) await indexQueued(trx);
    },
    onError,
  );
}
