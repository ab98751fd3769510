import { sql, type Kysely } from 'kysely';

/**
 * Cost guardrails (issue 12): the state of the one spike detector, for every dimension it watches.
 *
 * - cost_watch: one row per watched entity (dimension task | source | tag | assignee | memory, and
 *   its cost_daily key), created the first time the entity spikes or is acknowledged:
 *   last_spike_day and consecutive_spike_days (the streak; it counts only while last_spike_day is
 *   today or yesterday), spike_event_day / chronic_event_day (the day the alert was last raised:
 *   once per entity per day), spike_acked_at + spike_ack_day (a same-day ack holds while
 *   spike_ack_day is today in the workspace timezone), chronic_acked_at (holds 7 days), paused_at
 *   (a spike paused the entity: task, source or tag) and chronic_paused_at (a chronic streak paused a
 *   source). WITHOUT ROWID: the primary key is the only access path.
 * - cost_guard_state: the detector's high-water mark (the last closed workspace day it evaluated),
 *   so days missed while the desk was off are evaluated once each.
 *
 * memory.cost_spike_acked_at / chronic_acked_at / consecutive_spike_days and tasks.spike_paused_at
 * (pre-created by 0011, never written) move into cost_watch and are dropped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE cost_watch (
      dimension TEXT NOT NULL CHECK (dimension IN ('task','source','tag','assignee','memory')),
      key TEXT NOT NULL,
      last_spike_day TEXT,
      consecutive_spike_days INTEGER NOT NULL DEFAULT 0,
      spike_event_day TEXT,
      chronic_event_day TEXT,
      spike_acked_at TEXT,
      spike_ack_day TEXT,
      chronic_acked_at TEXT,
      paused_at TEXT,
      chronic_paused_at TEXT,
      PRIMARY KEY (dimension, key)
    ) WITHOUT ROWID`.execute(db);
  await sql`CREATE INDEX cost_watch_paused ON cost_watch (dimension, key) WHERE paused_at IS NOT NULL OR chronic_paused_at IS NOT NULL`.execute(db);
  await sql`CREATE INDEX cost_watch_streak ON cost_watch (dimension, last_spike_day) WHERE consecutive_spike_days > 0`.execute(db);
  await sql`
    CREATE TABLE cost_guard_state (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      closed_through_day TEXT
    )`.execute(db);
  await sql`INSERT INTO cost_guard_state (id, closed_through_day) VALUES (1, NULL)`.execute(db);

  await sql`
    INSERT INTO cost_watch (dimension, key, consecutive_spike_days, spike_acked_at, spike_ack_day, chronic_acked_at)
    SELECT 'memory', id, consecutive_spike_days, cost_spike_acked_at, substr(cost_spike_acked_at, 1, 10), chronic_acked_at
    FROM memory
    WHERE consecutive_spike_days > 0 OR cost_spike_acked_at IS NOT NULL OR chronic_acked_at IS NOT NULL`.execute(db);
  await sql`
    INSERT INTO cost_watch (dimension, key, paused_at)
    SELECT 'task', id, spike_paused_at FROM tasks WHERE spike_paused_at IS NOT NULL`.execute(db);
  await sql`ALTER TABLE memory DROP COLUMN cost_spike_acked_at`.execute(db);
  await sql`ALTER TABLE memory DROP COLUMN chronic_acked_at`.execute(db);
  await sql`ALTER TABLE memory DROP COLUMN consecutive_spike_days`.execute(db);
  await sql`ALTER TABLE tasks DROP COLUMN spike_paused_at`.execute(db);
}
