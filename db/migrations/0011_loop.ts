import { sql, type Kysely } from 'kysely';

/**
 * The loop (issue 10): memory, artifacts (outputs), runs (cycles) and cost accounting.
 *
 * - memory: one row per entry; usage counters and attributed cost kept on the row so lists read
 *   no history. `archived_at` is set by the stale-memory sweep (archived entries are no longer
 *   listed or retrieved). memory_fts is a standalone FTS5 index (title, content, tags) kept by
 *   triggers, queried with bm25() for retrieval.
 * - artifacts: `status` ready | approved | archived; `ready_at` is immutable once set, `decided_at`
 *   stamped by approve/archive; versions are chained by parent_artifact_id (walked at most 12
 *   hops). The signals and memory the cycle saw are JSON arrays, like tasks'.
 * - runs: one row per cycle (status running | completed | failed | skipped); what it read and
 *   produced as JSON id lists and counts; tokens and micro-USD.
 * - cost_daily: one row per (dimension, key, workspace-timezone day) for workspace, task, source,
 *   tag, assignee and memory, so a 30-day trajectory reads 30 rows and one spike detector (issue
 *   12) serves all five dimensions. memory_retrieval_daily: retrievals per entry per day.
 * - signals.triaged_at: when a cycle took the signal in (null = new for the loop).
 * - task_notes.consumed_at / consumed_run_id: the cycle that read the note as direction.
 * - tasks.spike_paused_at: set by the cost-spike detector (issue 12) while a spike with action
 *   `pause` applies; the cycle de-prioritises such tasks.
 * - workspace: the engine settings (the API key itself is kept outside the database, see
 *   server/engine/secrets) and the day the cost-cap stop was last announced (once a day).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE memory (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      title TEXT NOT NULL,
      content TEXT NOT NULL,
      importance REAL,
      pinned INTEGER NOT NULL DEFAULT 0,
      retrieval_count INTEGER NOT NULL DEFAULT 0,
      last_retrieved_at TEXT,
      total_attributed_input_tokens INTEGER NOT NULL DEFAULT 0,
      total_attributed_output_tokens INTEGER NOT NULL DEFAULT 0,
      cost_micro_usd INTEGER NOT NULL DEFAULT 0,
      cost_spike_acked_at TEXT,
      chronic_acked_at TEXT,
      consecutive_spike_days INTEGER NOT NULL DEFAULT 0,
      created_by_run_id TEXT,
      archived_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX memory_created ON memory (archived_at, created_at, id)`.execute(db);
  await sql`CREATE INDEX memory_cost ON memory (archived_at, cost_micro_usd)`.execute(db);
  await sql`CREATE INDEX memory_retrieved ON memory (archived_at, last_retrieved_at)`.execute(db);
  await sql`
    CREATE TABLE memory_tags (
      memory_id TEXT NOT NULL REFERENCES memory(id) ON DELETE CASCADE,
      tag TEXT NOT NULL,
      PRIMARY KEY (memory_id, tag)
    )`.execute(db);
  await sql`CREATE INDEX memory_tags_tag ON memory_tags (tag, memory_id)`.execute(db);
  await sql`
    CREATE TABLE memory_reactions (
      memory_id TEXT NOT NULL REFERENCES memory(id) ON DELETE CASCADE,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      emoji TEXT NOT NULL,
      created_at TEXT NOT NULL,
      PRIMARY KEY (memory_id, user_id, emoji)
    )`.execute(db);
  await sql`
    CREATE TABLE memory_retrieval_daily (
      memory_id TEXT NOT NULL REFERENCES memory(id) ON DELETE CASCADE,
      day TEXT NOT NULL,
      count INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (memory_id, day)
    )`.execute(db);

  // Retrieval index: tags are folded in as text so a tag word matches too.
  await sql`CREATE VIRTUAL TABLE memory_fts USING fts5(memory_id UNINDEXED, title, content, tags, tokenize = 'porter unicode61')`.execute(db);
  await sql`
    CREATE TRIGGER memory_fts_insert AFTER INSERT ON memory BEGIN
      INSERT INTO memory_fts (memory_id, title, content, tags) VALUES (new.id, new.title, new.content, '');
    END`.execute(db);
  await sql`
    CREATE TRIGGER memory_fts_update AFTER UPDATE OF title, content ON memory BEGIN
      UPDATE memory_fts SET title = new.title, content = new.content WHERE memory_id = new.id;
    END`.execute(db);
  await sql`
    CREATE TRIGGER memory_fts_delete AFTER DELETE ON memory BEGIN
      DELETE FROM memory_fts WHERE memory_id = old.id;
    END`.execute(db);
  for (const event of ['INSERT', 'DELETE'] as const) {
    const ref = event === 'INSERT' ? 'new' : 'old';
    await sql
      .raw(
        `CREATE TRIGGER memory_fts_tags_${event.toLowerCase()} AFTER ${event} ON memory_tags BEGIN
          UPDATE memory_fts SET tags = (SELECT coalesce(group_concat(tag, ' '), '') FROM memory_tags WHERE memory_id = ${ref}.memory_id) WHERE memory_id = ${ref}.memory_id;
        END`,
      )
      .execute(db);
  }

  await sql`
    CREATE TABLE runs (
      id TEXT PRIMARY KEY,
      trigger TEXT NOT NULL CHECK (trigger IN ('schedule','manual')),
      status TEXT NOT NULL CHECK (status IN ('running','completed','failed','skipped')),
      engine TEXT NOT NULL,
      model TEXT NOT NULL,
      started_at TEXT NOT NULL,
      finished_at TEXT,
      duration_ms INTEGER,
      engine_ms INTEGER,
      input_tokens INTEGER NOT NULL DEFAULT 0,
      output_tokens INTEGER NOT NULL DEFAULT 0,
      cost_micro_usd INTEGER NOT NULL DEFAULT 0,
      read_signal_ids TEXT NOT NULL DEFAULT '[]',
      read_task_ids TEXT NOT NULL DEFAULT '[]',
      read_memory_ids TEXT NOT NULL DEFAULT '[]',
      read_note_ids TEXT NOT NULL DEFAULT '[]',
      created_task_ids TEXT NOT NULL DEFAULT '[]',
      updated_task_ids TEXT NOT NULL DEFAULT '[]',
      artifact_ids TEXT NOT NULL DEFAULT '[]',
      memory_ids TEXT NOT NULL DEFAULT '[]',
      error_message TEXT,
      skip_reason TEXT
    )`.execute(db);
  await sql`CREATE INDEX runs_started ON runs (started_at, id)`.execute(db);
  await sql`CREATE INDEX runs_status_started ON runs (status, started_at)`.execute(db);

  await sql`
    CREATE TABLE artifacts (
      id TEXT PRIMARY KEY,
      task_id TEXT REFERENCES tasks(id) ON DELETE SET NULL,
      run_id TEXT REFERENCES runs(id) ON DELETE SET NULL,
      parent_artifact_id TEXT REFERENCES artifacts(id) ON DELETE SET NULL,
      version INTEGER NOT NULL DEFAULT 1,
      kind TEXT NOT NULL,
      title TEXT NOT NULL,
      content TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('ready','approved','archived')),
      pinned INTEGER NOT NULL DEFAULT 0,
      source_signal_ids TEXT NOT NULL DEFAULT '[]',
      source_memory_ids TEXT NOT NULL DEFAULT '[]',
      public_share_token TEXT UNIQUE,
      ready_at TEXT NOT NULL,
      decided_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX artifacts_status_ready ON artifacts (status, ready_at, id)`.execute(db);
  await sql`CREATE INDEX artifacts_task ON artifacts (task_id, created_at)`.execute(db);
  await sql`CREATE INDEX artifacts_parent ON artifacts (parent_artifact_id)`.execute(db);
  await sql`CREATE INDEX artifacts_created ON artifacts (created_at, id)`.execute(db);
  await sql`CREATE INDEX artifacts_decided ON artifacts (decided_at) WHERE decided_at IS NOT NULL`.execute(db);
  await sql`
    CREATE TABLE artifact_tags (
      artifact_id TEXT NOT NULL REFERENCES artifacts(id) ON DELETE CASCADE,
      tag TEXT NOT NULL,
      PRIMARY KEY (artifact_id, tag)
    )`.execute(db);
  await sql`CREATE INDEX artifact_tags_tag ON artifact_tags (tag, artifact_id)`.execute(db);
  await sql`
    CREATE TABLE artifact_reactions (
      artifact_id TEXT NOT NULL REFERENCES artifacts(id) ON DELETE CASCADE,
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      emoji TEXT NOT NULL,
      created_at TEXT NOT NULL,
      PRIMARY KEY (artifact_id, user_id, emoji)
    )`.execute(db);

  await sql`
    CREATE TABLE cost_daily (
      dimension TEXT NOT NULL CHECK (dimension IN ('workspace','task','source','tag','assignee','memory')),
      key TEXT NOT NULL,
      day TEXT NOT NULL,
      input_tokens INTEGER NOT NULL DEFAULT 0,
      output_tokens INTEGER NOT NULL DEFAULT 0,
      cost_micro_usd INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (dimension, key, day)
    )`.execute(db);
  await sql`CREATE INDEX cost_daily_day ON cost_daily (dimension, day)`.execute(db);

  await sql`ALTER TABLE signals ADD COLUMN triaged_at TEXT`.execute(db);
  await sql`CREATE INDEX signals_untriaged ON signals (created_at, id) WHERE triaged_at IS NULL`.execute(db);
  await sql`ALTER TABLE task_notes ADD COLUMN consumed_at TEXT`.execute(db);
  await sql`ALTER TABLE task_notes ADD COLUMN consumed_run_id TEXT`.execute(db);
  await sql`CREATE INDEX task_notes_unconsumed ON task_notes (task_id) WHERE consumed_at IS NULL`.execute(db);
  await sql`ALTER TABLE tasks ADD COLUMN spike_paused_at TEXT`.execute(db);

  await sql`ALTER TABLE workspace ADD COLUMN engine TEXT NOT NULL DEFAULT 'local' CHECK (engine IN ('local','openai'))`.execute(db);
  await sql`ALTER TABLE workspace ADD COLUMN engine_model TEXT`.execute(db);
  await sql`ALTER TABLE workspace ADD COLUMN engine_base_url TEXT`.execute(db);
  await sql`ALTER TABLE workspace ADD COLUMN cost_cap_announced_day TEXT`.execute(db);
}
