import { sql, type Kysely } from 'kysely';

/**
 * GET /sources pages newest first with a keyset cursor on (created_at, id): this index serves each
 * page as an index range, without a sort step.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX sources_created ON sources (created_at, id)`.execute(db);
}
