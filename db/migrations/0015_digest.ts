import { sql, type Kysely } from 'kysely';

/**
 * The daily digest and dashboard preferences (issue 15).
 *
 * - dashboard_prefs: one row per member who changed something (no row = the defaults). List and
 *   map fields are JSON text (small, always read and written whole with the row). The *_updated_at
 *   stamps are the optimistic-concurrency versions the client echoes: density one stamp, the cost
 *   panel order one stamp per axis (a JSON object axis -> ISO).
 * - dashboard_comment_filters: a member's filter on one task's comments, one row per (member, task)
 *   with its own stamp (each entry is checked on its own); the oldest are dropped past the cap.
 * - digest_state: one row: when the production digest last ran (the 22-hour workspace gate) and
 *   the workspace day it ran for (one run per day).
 * - digest_audit: every gating decision recorded (scheduled runs, one-shot previews, preference
 *   changes that move a recipient's gating): outcome would_send | muted, why, and how it went out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE dashboard_prefs (
      user_id TEXT PRIMARY KEY REFERENCES users(id),
      collapsed_panels TEXT NOT NULL,
      digest_personal_sections TEXT NOT NULL,
      collapsed_activity_buckets TEXT NOT NULL,
      digest_quiet_weekends INTEGER NOT NULL,
      digest_quiet_hours_start INTEGER,
      digest_quiet_hours_end INTEGER,
      panel_order TEXT NOT NULL,
      active_work_sort TEXT NOT NULL,
      cost_panel_columns TEXT NOT NULL,
      cost_panel_order TEXT NOT NULL,
      cost_panel_order_updated_at TEXT NOT NULL,
      density TEXT NOT NULL CHECK (density IN ('comfortable','compact')),
      density_updated_at TEXT,
      updated_at TEXT NOT NULL
    )`.execute(db);

  await sql`
    CREATE TABLE dashboard_comment_filters (
      user_id TEXT NOT NULL REFERENCES users(id),
      task_id TEXT NOT NULL,
      q TEXT,
      author_id TEXT,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (user_id, task_id)
    )`.execute(db);
  await sql`CREATE INDEX dashboard_comment_filters_updated ON dashboard_comment_filters (user_id, updated_at)`.execute(db);

  await sql`
    CREATE TABLE digest_state (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      last_run_at TEXT,
      last_run_day TEXT
    )`.execute(db);
  await sql`INSERT INTO digest_state (id, last_run_at, last_run_day) VALUES (1, NULL, NULL)`.execute(db);

  await sql`
    CREATE TABLE digest_audit (
      id TEXT PRIMARY KEY,
      created_at TEXT NOT NULL,
      trigger TEXT NOT NULL CHECK (trigger IN ('schedule','preview','preferences')),
      user_id TEXT NOT NULL,
      recipient_label TEXT NOT NULL,
      recipient_email TEXT,
      outcome TEXT NOT NULL CHECK (outcome IN ('would_send','muted')),
      reason TEXT NOT NULL,
      delivery TEXT CHECK (delivery IN ('smtp','outbox','failed')),
      subject TEXT,
      detail TEXT NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX digest_audit_created ON digest_audit (created_at, id)`.execute(db);
}
