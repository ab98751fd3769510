import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE sources (
      id TEXT PRIMARY KEY,
      type TEXT NOT NULL,
      label TEXT NOT NULL,
      url TEXT,
      notes TEXT,
      status TEXT NOT NULL CHECK (status IN ('pending','connected','error')),
      paused_at TEXT,
      paused_until_at TEXT,
      poll_interval_minutes INTEGER,
      include_keywords TEXT NOT NULL DEFAULT '[]',
      exclude_keywords TEXT NOT NULL DEFAULT '[]',
      last_synced_at TEXT,
      last_polled_at TEXT,
      last_error_message TEXT,
      last_signal_at TEXT,
      consecutive_failures INTEGER NOT NULL DEFAULT 0,
      next_retry_at TEXT,
      etag TEXT,
      last_modified TEXT,
      quietness_acked_at TEXT,
      quietness_warned_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX sources_paused_until ON sources (paused_until_at) WHERE paused_until_at IS NOT NULL`.execute(db);
  await sql`
    CREATE TABLE signals (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      priority TEXT NOT NULL,
      title TEXT NOT NULL,
      detail TEXT NOT NULL,
      source_url TEXT,
      source_id TEXT REFERENCES sources(id) ON DELETE SET NULL,
      pinned INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX signals_created ON signals (created_at)`.execute(db);
  await sql`CREATE INDEX signals_source_created ON signals (source_id, created_at)`.execute(db);
  await sql`
    CREATE TABLE signal_reactions (
      signal_id TEXT NOT NULL REFERENCES signals(id) ON DELETE CASCADE,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      emoji TEXT NOT NULL,
      created_at TEXT NOT NULL,
      PRIMARY KEY (signal_id, user_id, emoji)
    )`.execute(db);
  await sql`
    CREATE TABLE feed_items_seen (
      source_id TEXT NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
      item_key TEXT NOT NULL,
      seen_at TEXT NOT NULL,
      PRIMARY KEY (source_id, item_key)
    )`.execute(db);
  await sql`
    CREATE TABLE idempotency_keys (
      key TEXT PRIMARY KEY,
      response TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX idempotency_created ON idempotency_keys (created_at)`.execute(db);
}
