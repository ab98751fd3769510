import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import { SEARCH_KINDS as INDEXED_KINDS } from '../../../db/migrations/0014_search';
import { DEFERRED_ACTIVITY_KINDS } from '../../../db/migrations/0017_search_deferred';
import { onTableWrite } from '../../../db/statement-cache';
import { beforeCommit, inTransaction, type Trx } from '../../../db/transactions';

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
 * Keeps the index current on the desk's connection: once a statement wrote `signals` (every new
 * signal does, whatever the path), the group-commit batch indexes the pending rows just before its
 * COMMIT (db/transactions.ts `beforeCommit`), so whoever was told a signal was stored finds it, and
 * a batch's signals make one FTS5 segment. If that fails the rows stay pending (`onError` hears
 * it): GET /search catches up first, and the `search.index` job sweeps them, as it does the rows
 * another connection wrote.
 */
export function keepIndexCurrent(db: Db, onError: (err: unknown) => void): () => void {
  let written = false;
  const stopWatching = onTableWrite(db, 'signals', () => {
    written = true;
  });
  const stopHook = beforeCommit(
    db,
    async (trx) => {
      if (!written) return;
      written = false;
      await indexPending(trx);
    },
    onError,
  );
  return () => {
    stopWatching?.();
    stopHook();
  };
}
