import { sql, type Kysely } from 'kysely';

/**
 * The sender's own id of a pushed signal (inbound webhook `externalId`): a signal whose
 * externalId is already on the desk is not created again, whichever delivery carries it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE signals ADD COLUMN external_id TEXT`.execute(db);
  await sql`CREATE UNIQUE INDEX signals_external_id ON signals (external_id) WHERE external_id IS NOT NULL`.execute(db);
}
