import { sql, type Kysely } from 'kysely';

/**
 * Tasks (issue 9): the queue, its tags, blockers, operator notes, work log and share-page views.
 *
 * - `tasks.status` stores queued | in_progress | needs_input | done | archived (`archived` is the
 *   stored value of the stale sweep; a PATCH move restores the task). kind, deliverable_type and
 *   priority hold the domain vocabularies (server/domain/tasks/rules.ts), checked by the service,
 *   not by SQL, so the vocabulary can grow without a table rebuild.
 * - source_signal_ids / source_memory_ids: JSON arrays (TEXT) of the inputs the AI cycle used.
 * - Cost: integer tokens and micro-USD; session_count counts AI cycles on the task.
 * - Share tokens are unique when set (several NULLs allowed).
 * - Indexes: the queue list pages newest first with a keyset on (created_at, id), filtered by
 *   status on (status, created_at, id) and by assignee on (assigned_to_user_id, created_at, id);
 *   staleness reads (status, updated_at) and the auto-archived list (archived_by_sweep, archived_at);
 *   a task's timeline reads activity by (entity_type, entity_id, created_at).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE tasks (
      id TEXT PRIMARY KEY,
      title TEXT NOT NULL,
      summary TEXT NOT NULL,
      kind TEXT,
      deliverable_type TEXT,
      priority TEXT,
      due_at TEXT,
      status TEXT NOT NULL CHECK (status IN ('queued','in_progress','needs_input','done','archived')),
      assigned_to_user_id TEXT REFERENCES users(id) ON DELETE SET NULL,
      goal TEXT NOT NULL DEFAULT '',
      context TEXT NOT NULL DEFAULT '',
      pinned INTEGER NOT NULL DEFAULT 0,
      source_signal_ids TEXT NOT NULL DEFAULT '[]',
      source_memory_ids TEXT NOT NULL DEFAULT '[]',
      archive_warned_at TEXT,
      archived_at TEXT,
      archived_by_sweep INTEGER NOT NULL DEFAULT 0,
      public_work_log_token TEXT UNIQUE,
      public_timeline_token TEXT UNIQUE,
      total_input_tokens INTEGER NOT NULL DEFAULT 0,
      total_output_tokens INTEGER NOT NULL DEFAULT 0,
      cost_micro_usd INTEGER NOT NULL DEFAULT 0,
      session_count INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX tasks_created ON tasks (created_at, id)`.execute(db);
  await sql`CREATE INDEX tasks_status_created ON tasks (status, created_at, id)`.execute(db);
  await sql`CREATE INDEX tasks_assignee_created ON tasks (assigned_to_user_id, created_at, id)`.execute(db);
  await sql`CREATE INDEX tasks_status_updated ON tasks (status, updated_at)`.execute(db);
  await sql`CREATE INDEX tasks_updated ON tasks (updated_at)`.execute(db);
  await sql`CREATE INDEX tasks_archived_sweep ON tasks (archived_by_sweep, archived_at) WHERE archived_by_sweep = 1`.execute(db);

  await sql`
    CREATE TABLE task_tags (
      task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
      tag TEXT NOT NULL,
      PRIMARY KEY (task_id, tag)
    )`.execute(db);
  await sql`CREATE INDEX task_tags_tag ON task_tags (tag, task_id)`.execute(db);

  await sql`
    CREATE TABLE task_blockers (
      task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
      blocker_task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
      PRIMARY KEY (task_id, blocker_task_id)
    )`.execute(db);
  await sql`CREATE INDEX task_blockers_blocker ON task_blockers (blocker_task_id)`.execute(db);

  await sql`
    CREATE TABLE task_notes (
      id TEXT PRIMARY KEY,
      task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
      text TEXT NOT NULL,
      author_user_id TEXT REFERENCES users(id) ON DELETE SET NULL,
      created_at TEXT NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX task_notes_task_created ON task_notes (task_id, created_at, id)`.execute(db);

  await sql`
    CREATE TABLE task_work_log (
      id TEXT PRIMARY KEY,
      task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
      entry TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX task_work_log_task_created ON task_work_log (task_id, created_at, id)`.execute(db);

  await sql`
    CREATE TABLE task_views (
      task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN ('work_log','timeline')),
      day TEXT NOT NULL,
      count INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (task_id, kind, day)
    )`.execute(db);

  // A task's timeline reads its activity rows: served by this index, not a scan of the log.
  await sql`CREATE INDEX activity_entity_created ON activity (entity_type, entity_id, created_at)`.execute(db);
}
