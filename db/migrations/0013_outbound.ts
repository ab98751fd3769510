import { sql, type Kysely } from 'kysely';

/**
 * Outbound webhooks (issue 13): subscriptions, one delivery per event x subscription, and the
 * attempt log.
 *
 * - outbound_subscriptions: the receiver URL, an optional label, the signing secret (`whsec_...`,
 *   kept in the database, which lives in the private data folder: 0700 folder, 0600 file), `active`
 *   (false when paused by the operator or disabled by Desk), `disabled_reason` (`gone` after a 410,
 *   `failing` after 5 days of failed scheduled attempts) and `failing_since` (the first failed
 *   scheduled attempt since the last success).
 * - outbound_subscription_events: the event names a subscription receives (the fan-out looks a name
 *   up by index).
 * - outbound_deliveries: one row per event x subscription; `event_id` is the `webhook-id` header,
 *   the same on every attempt; `payload` is the exact bytes sent (signed per attempt with a fresh
 *   timestamp); state pending | succeeded | failed | given_up; `next_attempt_at` while pending.
 * - outbound_attempts: the delivery log, one row per HTTP attempt (scheduled or manual).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE outbound_subscriptions (
      id TEXT PRIMARY KEY,
      url TEXT NOT NULL,
      label TEXT,
      secret TEXT NOT NULL,
      secret_hint TEXT NOT NULL,
      active INTEGER NOT NULL DEFAULT 1,
      disabled_reason TEXT,
      disabled_at TEXT,
      failing_since TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX outbound_subscriptions_created ON outbound_subscriptions (created_at, id)`.execute(db);
  await sql`
    CREATE TABLE outbound_subscription_events (
      subscription_id TEXT NOT NULL REFERENCES outbound_subscriptions(id) ON DELETE CASCADE,
      event TEXT NOT NULL,
      PRIMARY KEY (subscription_id, event)
    )`.execute(db);
  await sql`CREATE INDEX outbound_subscription_events_event ON outbound_subscription_events (event, subscription_id)`.execute(db);
  await sql`
    CREATE TABLE outbound_deliveries (
      id TEXT PRIMARY KEY,
      subscription_id TEXT NOT NULL REFERENCES outbound_subscriptions(id) ON DELETE CASCADE,
      event_id TEXT NOT NULL,
      event TEXT NOT NULL,
      payload TEXT NOT NULL,
      state TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at TEXT,
      last_attempt_at TEXT,
      last_status_code INTEGER,
      created_at TEXT NOT NULL,
      finished_at TEXT
    )`.execute(db);
  await sql`CREATE INDEX outbound_deliveries_due ON outbound_deliveries (state, next_attempt_at)`.execute(db);
  await sql`CREATE INDEX outbound_deliveries_subscription ON outbound_deliveries (subscription_id, state)`.execute(db);
  await sql`CREATE INDEX outbound_deliveries_finished ON outbound_deliveries (finished_at)`.execute(db);
  await sql`
    CREATE TABLE outbound_attempts (
      id TEXT PRIMARY KEY,
      delivery_id TEXT NOT NULL REFERENCES outbound_deliveries(id) ON DELETE CASCADE,
      subscription_id TEXT NOT NULL,
      event_id TEXT NOT NULL,
      event TEXT NOT NULL,
      url TEXT NOT NULL,
      attempt_number INTEGER NOT NULL,
      trigger TEXT NOT NULL,
      outcome TEXT NOT NULL,
      status_code INTEGER,
      error TEXT,
      response_excerpt TEXT,
      duration_ms INTEGER NOT NULL,
      next_retry_at TEXT,
      created_at TEXT NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX outbound_attempts_recent ON outbound_attempts (created_at, id)`.execute(db);
  await sql`CREATE INDEX outbound_attempts_subscription ON outbound_attempts (subscription_id, created_at, id)`.execute(db);
  await sql`CREATE INDEX outbound_attempts_outcome ON outbound_attempts (outcome, created_at, id)`.execute(db);
  await sql`CREATE INDEX outbound_attempts_delivery ON outbound_attempts (delivery_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE outbound_attempts`.execute(db);
  await sql`DROP TABLE outbound_deliveries`.execute(db);
  await sql`DROP TABLE outbound_subscription_events`.execute(db);
  await sql`DROP TABLE outbound_subscriptions`.execute(db);
}
