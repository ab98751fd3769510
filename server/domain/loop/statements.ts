import { CompiledQuery } from 'kysely';
import { runSync } from '../../../db/statement-cache';
import { liveConnectionOf, type Trx } from '../../../db/transactions';

/**
 * Runs one fixed SQL statement with `params` in the caller's transaction: straight on its
 * connection's kept statement while it is open (as db/compiled.ts does for inserts), else through
 * Kysely. Apply writes one row per touched task (a thousand in a big cycle); building and compiling
 * each with the query builder cost more than SQLite's own work.
 */
export async function runStatement(trx: Trx, sqlText: string, params: readonly unknown[]): Promise<void> {
  const connection = liveConnectionOf(trx);
  if (connection !== null && runSync(connection, sqlText, params) !== undefined) return;
  await trx.executeQuery(CompiledQuery.raw(sqlText, [...params]));
}
