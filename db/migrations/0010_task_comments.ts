import { sql, type Kysely } from 'kysely';

/**
 * Task comments (threaded one level deep: a reply's parent is always a top-level comment of the
 * same task), their reactions, and the `@name` mentions they record. Everything goes with its task
 * (ON DELETE CASCADE). The author is a member id without a foreign key: a removed member's comments
 * stay on the task. Indexes: a task's comments in order (the thread view, engagement), a member's
 * unacknowledged mentions newest first (the personal inbox).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE task_comments (
      id TEXT PRIMARY KEY,
      task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
      parent_comment_id TEXT REFERENCES task_comments(id) ON DELETE CASCADE,
      author_user_id TEXT NOT NULL,
      text TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX task_comments_task ON task_comments (task_id, created_at, id)`.execute(db);
  await sql`CREATE INDEX task_comments_parent ON task_comments (parent_comment_id)`.execute(db);
  await sql`
    CREATE TABLE comment_reactions (
      comment_id TEXT NOT NULL REFERENCES task_comments(id) ON DELETE CASCADE,
      user_id TEXT NOT NULL,
      emoji TEXT NOT NULL,
      created_at TEXT NOT NULL,
      PRIMARY KEY (comment_id, user_id, emoji)
    )`.execute(db);
  await sql`
    CREATE TABLE comment_mentions (
      id TEXT PRIMARY KEY,
      comment_id TEXT NOT NULL REFERENCES task_comments(id) ON DELETE CASCADE,
      user_id TEXT NOT NULL,
      acknowledged_at TEXT,
      created_at TEXT NOT NULL,
      UNIQUE (comment_id, user_id)
    )`.execute(db);
  await sql`CREATE INDEX comment_mentions_user ON comment_mentions (user_id, acknowledged_at, created_at, id)`.execute(db);
}
