import { sql, type Kysely } from 'kysely';

/**
 * Issue 16, the desk's side of the public site:
 * - roadmap_votes: one row per member and roadmap item (the items themselves are content in
 *   server/domain/roadmap/items.ts). Taking a vote back deletes its row, so counts and the per-day
 *   trend always read the votes standing now. The (voted_at) index serves the 14-day trend.
 * - badge_token: the one read-only token of GET /api/v1/badge.svg (never the workspace token).
 *   At most one row (id = 1); rotation replaces it, revocation deletes it. The token is kept (not
 *   only its hash) so Settings can show the badge's Markdown again; it is compared in constant time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE roadmap_votes (
      item_key TEXT NOT NULL,
      user_id TEXT NOT NULL REFERENCES users(id),
      voted_at TEXT NOT NULL,
      PRIMARY KEY (item_key, user_id)
    ) WITHOUT ROWID`.execute(db);
  await sql`CREATE INDEX roadmap_votes_voted_at ON roadmap_votes (voted_at)`.execute(db);
  await sql`CREATE INDEX roadmap_votes_user ON roadmap_votes (user_id, item_key)`.execute(db);
  await sql`
    CREATE TABLE badge_token (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      token TEXT NOT NULL,
      issued_at TEXT NOT NULL
    )`.execute(db);
}
