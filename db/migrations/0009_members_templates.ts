import { sql, type Kysely } from 'kysely';

/**
 * Members, invites, task templates and shared saved searches (issue 9, parts 8-10).
 *
 * - users: reviewer availability (`available` or `away`, default `available`) and a soft removal
 *   (`removed_at`): other rows (activity, reactions, saved searches, later comments and assignees)
 *   keep naming a removed member, so the row stays; a removed member is no longer listed and can no
 *   longer act (resolveActor refuses it).
 * - invites: pending invites only (revoking deletes the row, accepting turns it into a user); one
 *   pending invite per email (case-insensitive).
 * - task_templates: at most 20 per workspace (checked by the service), label unique ignoring case.
 * - shared_saved_searches: at most 30 per workspace (checked by the service), attributed to a member.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users ADD COLUMN availability TEXT NOT NULL DEFAULT 'available' CHECK (availability IN ('available','away'))`.execute(db);
  await sql`ALTER TABLE users ADD COLUMN removed_at TEXT`.execute(db);
  await sql`CREATE INDEX users_active ON users (removed_at, created_at, id)`.execute(db);

  await sql`
    CREATE TABLE invites (
      id TEXT PRIMARY KEY,
      email TEXT NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('admin','editor','viewer')),
      invited_by_user_id TEXT NOT NULL REFERENCES users(id),
      created_at TEXT NOT NULL
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX invites_email ON invites (email COLLATE NOCASE)`.execute(db);
  await sql`CREATE INDEX invites_created ON invites (created_at, id)`.execute(db);

  await sql`
    CREATE TABLE task_templates (
      id TEXT PRIMARY KEY,
      label TEXT NOT NULL,
      emoji TEXT,
      hint TEXT,
      title TEXT NOT NULL,
      summary TEXT NOT NULL,
      goal TEXT,
      kind TEXT NOT NULL,
      deliverable_type TEXT NOT NULL,
      priority TEXT,
      tags TEXT NOT NULL DEFAULT '[]',
      usage_count INTEGER NOT NULL DEFAULT 0,
      last_used_at TEXT,
      created_by_user_id TEXT NOT NULL REFERENCES users(id),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX task_templates_label ON task_templates (label COLLATE NOCASE)`.execute(db);
  await sql`CREATE INDEX task_templates_created ON task_templates (created_at, id)`.execute(db);

  await sql`
    CREATE TABLE shared_saved_searches (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      query TEXT NOT NULL,
      created_by_user_id TEXT NOT NULL REFERENCES users(id),
      created_at TEXT NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX shared_saved_searches_created ON shared_saved_searches (created_at, id)`.execute(db);
}
