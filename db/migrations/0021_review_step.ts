import { sql, type Kysely } from 'kysely';

/**
 * The review step (issue 30): who wrote each version of an output, versions that supersede, and
 * feed items that keep their own time.
 *
 * - artifacts.author_kind: `engine` (a loop cycle wrote it) or `member` (an operator's edit or
 *   reopen); author_user_id names the member. Rows written before this are the engine's.
 * - artifacts.superseded_at / superseded_by_id: a ready version that a newer version of the same
 *   output replaced. The spec's statuses stay ready, approved and archived; a superseded version
 *   keeps `ready` but leaves the queue and stays in the version chain.
 * - signals.published_at: the time a feed item says it was published (null when it says none, or
 *   for signals that did not come from a feed). "Newest first" orders by it, falling back to when
 *   Desk received the signal; the two expression indexes serve that order, with and without a
 *   source filter (rowid, in every index, breaks ties as before).
 * - runs.explanation: the engine's account of how it grouped signals and set priorities (the
 *   Runs page shows it); null when the engine gave none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE artifacts ADD COLUMN author_kind TEXT NOT NULL DEFAULT 'engine' CHECK (author_kind IN ('engine','member'))`.execute(db);
  await sql`ALTER TABLE artifacts ADD COLUMN author_user_id TEXT`.execute(db);
  await sql`ALTER TABLE artifacts ADD COLUMN superseded_at TEXT`.execute(db);
  await sql`ALTER TABLE artifacts ADD COLUMN superseded_by_id TEXT`.execute(db);
  await sql`ALTER TABLE signals ADD COLUMN published_at TEXT`.execute(db);
  await sql`ALTER TABLE runs ADD COLUMN explanation TEXT`.execute(db);
  await sql`CREATE INDEX signals_newest ON signals (coalesce(published_at, created_at))`.execute(db);
  await sql`CREATE INDEX signals_source_newest ON signals (source_id, coalesce(published_at, created_at))`.execute(db);
}
