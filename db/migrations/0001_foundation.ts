import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE workspace (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      owner_user_id TEXT NOT NULL,
      ingest_token TEXT NOT NULL,
      plan TEXT NOT NULL CHECK (plan IN ('free','pro','team')),
      timezone TEXT NOT NULL,
      loop_state TEXT NOT NULL CHECK (loop_state IN ('on','paused','off')),
      pause_until_at TEXT,
      loop_interval_minutes INTEGER NOT NULL,
      watch_hours INTEGER NOT NULL,
      overdue_hours INTEGER NOT NULL,
      focus_tags TEXT NOT NULL DEFAULT '[]',
      stale_task_auto_archive_days INTEGER,
      stale_memory_auto_archive_days INTEGER,
      task_cost_spike_action TEXT,
      source_cost_spike_action TEXT,
      source_chronic_spike_action TEXT,
      source_chronic_threshold_days INTEGER NOT NULL DEFAULT 3,
      tag_cost_spike_action TEXT,
      daily_cost_cap_usd_cents INTEGER,
      digest_email TEXT,
      relay_url TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE users (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      email TEXT,
      role TEXT NOT NULL CHECK (role IN ('owner','admin','editor','viewer')),
      created_at TEXT NOT NULL
    )`.execute(db);
  await sql`
    CREATE TABLE focus_shifts (
      id TEXT PRIMARY KEY,
      tags TEXT NOT NULL,
      started_at TEXT NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX focus_shifts_started ON focus_shifts (started_at)`.execute(db);
  await sql`
    CREATE TABLE activity (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      detail TEXT NOT NULL,
      actor_user_id TEXT,
      actor_label TEXT NOT NULL,
      entity_type TEXT,
      entity_id TEXT,
      created_at TEXT NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX activity_created ON activity (created_at)`.execute(db);
  await sql`CREATE INDEX activity_kind_created ON activity (kind, created_at)`.execute(db);
  await sql`
    CREATE TABLE outbox_events (
      id TEXT PRIMARY KEY,
      event TEXT NOT NULL,
      payload TEXT NOT NULL,
      created_at TEXT NOT NULL,
      delivered_at TEXT
    )`.execute(db);
  await sql`CREATE INDEX outbox_undelivered ON outbox_events (delivered_at, created_at)`.execute(db);
  await sql`
    CREATE TABLE scheduler_jobs (
      name TEXT PRIMARY KEY,
      last_run_at TEXT,
      last_finished_at TEXT,
      last_error TEXT,
      run_count INTEGER NOT NULL DEFAULT 0
    )`.execute(db);
}
