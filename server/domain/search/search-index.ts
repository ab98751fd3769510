import { AsyncResource } from 'node:async_hooks';
import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import { SEARCH_KINDS as INDEXED_KINDS } from '../../../db/migrations/0014_search';
import { DEFERRED_ACTIVITY_KINDS } from '../../../db/migrations/0017_search_deferred';
import { onTableWrite } from '../../../db/statement-cache';
import { inTransaction, type Trx } from '../../../db/transactions';

/**
 * Rows waiting for the search index (db/migrations/0017_search_deferred.ts): new signals and
 * their arrival activity rows get their search_docs row (doc_id) from a trigger and are indexed
 * here in bulk, one FTS5 segment for the lot, before the transaction that wrote them commits.
 */

/** The columns of a kind as 0014's triggers write them, over the row `r`. */
function columnsOf(kind: 'signal' | 'activity'): string {
  const k = INDEXED_KINDS.find((x) => x.kind === kind);
  if (!k) throw new Error(`search kind ${kind} is not indexed`);
  return `d.doc_id, ${k.title}, ${k.body}, ${k.tags}, '${k.kind}'`;
}

// CROSS JOIN keeps SQLite on the short pending list first, then each row by its key.
export const INDEX_PENDING_SQL = `
  INSERT INTO search_fts (rowid, title, body, tags, kind)
  SELECT ${columnsOf('signal')} FROM search_pending p CROSS JOIN search_docs d ON d.doc_id = p.doc_id CROSS JOIN signals r ON r.id = d.ref WHERE d.kind = 'signal'
  UNION ALL
  SELECT ${columnsOf('activity')} FROM search_pending p CROSS JOIN search_docs d ON d.doc_id = p.doc_id CROSS JOIN activity r ON r.id = d.ref WHERE d.kind = 'activity'
    AND r.kind IN (${DEFERRED_ACTIVITY_KINDS.map((k) => `'${k}'`).join(', ')})
  ORDER BY 1`;

/** True when rows wait for the index. */
export async function hasPending(db: Db): Promise<boolean> {
  const { rows } = await sql<{ pending: number }>`SELECT EXISTS (SELECT 1 FROM search_pending) AS pending`.execute(db);
  return rows[0]?.pending === 1;
}

/**
 * Indexes every pending row from its table's current values and empties the list (a row deleted
 * meanwhile has no search_docs row: skipped). Returns how many rows were indexed.
 */
export async function indexPending(trx: Trx): Promise<number> {
  if (!(await hasPending(trx))) return 0;
  const { numAffectedRows } = await sql.raw(INDEX_PENDING_SQL).execute(trx);
  await sql`DELETE FROM search_pending`.execute(trx);
  return Number(numAffectedRows ?? 0);
}

/** Indexes the pending rows in a transaction of their own (joining an open one). */
export function catchUp(db: Db): Promise<number> {
  return inTransaction(db, (trx) => indexPending(trx));
}

/**
 * Keeps the index current on the desk's connection: after a statement writes `signals` (every new
 * signal does, whatever the path), `indexPending` is queued through inTransaction from outside the
 * writer's async context, so it joins the open group-commit batch as its last member and runs
 * before the batch's COMMIT; a caller is answered only after that COMMIT, so whoever was told a
 * signal was stored finds it. (Queued from inside, it would run at once within the writer's own
 * savepoint, per statement, which is what the deferral avoids.) Rows another connection writes
 * wait for GET /search (which catches up first) or the `search.index` job.
 */
export function keepIndexCurrent(db: Db, onError: (err: unknown) => void): () => void {
  let queued = false;
  const join = () => {
    inTransaction(db, (trx) => {
      // Cleared as it starts: a later member of the same batch writing signals queues another.
      queued = false;
      return indexPending(trx);
    }).catch((err: unknown) => {
      // The rows stay pending (GET /search and the job catch up); a desk closing meanwhile lands here too.
      queued = false;
      try {
        onError(err);
      } catch {
        // a logger already closed: nothing more to tell
      }
    });
  };
  // Bound where no transaction is open, so inTransaction queues instead of running inside the
  // writer; after a setImmediate, so the requests read in the same turn join the batch first and
  // one catch-up indexes them all.
  const queue = AsyncResource.bind(() => setImmediate(join));
  const stop = onTableWrite(db, 'signals', () => {
    if (queued) return;
    queued = true;
    queue();
  });
  return stop ?? (() => {});
}
