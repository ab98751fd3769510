import { sql, type Kysely } from 'kysely';

/**
 * Scoped ingest tokens: per-source tokens that can only push signals to that source through the
 * inbound webhook (POST /api/webhooks/signals/<token>). Only a SHA-256 hash of each token is
 * stored (the token is shown once, on creation); the hint is its prefix and last characters, to
 * recognise it in a list. A revoked token keeps its row (revoked_at), so its hash is never reused.
 * Tokens go with their source.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE ingest_tokens (
      id TEXT PRIMARY KEY,
      source_id TEXT NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
      label TEXT NOT NULL,
      token_hash TEXT NOT NULL UNIQUE,
      token_hint TEXT NOT NULL,
      created_at TEXT NOT NULL,
      last_used_at TEXT,
      revoked_at TEXT
    )`.execute(db);
  await sql`CREATE INDEX ingest_tokens_source ON ingest_tokens (source_id, created_at, id)`.execute(db);
}
