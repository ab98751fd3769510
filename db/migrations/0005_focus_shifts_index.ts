import { sql, type Kysely } from 'kysely';

/**
 * Focus history pages by keyset (started_at, id), newest first: one index on both columns serves
 * the window, the cursor and the order without a sort step. It replaces the started_at-only index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX focus_shifts_started_id ON focus_shifts (started_at, id)`.execute(db);
  await sql`DROP INDEX focus_shifts_started`.execute(db);
}
