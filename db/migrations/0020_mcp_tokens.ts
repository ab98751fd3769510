import { sql, type Kysely } from 'kysely';

/**
 * MCP tokens: the bearer tokens of AI assistants that reach Desk through its MCP server (/mcp and
 * `npm run mcp`). A token of its own, never the workspace token: `scope` is `read` (the tools that
 * change nothing) or `write` (every tool). As with ingest tokens (0006), only a SHA-256 hash is
 * stored (the token is shown once, on creation) with a hint to recognise it, and a revoked token
 * keeps its row (revoked_at), so its hash is never reused.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE mcp_tokens (
      id TEXT PRIMARY KEY,
      label TEXT NOT NULL,
      scope TEXT NOT NULL CHECK (scope IN ('read', 'write')),
      token_hash TEXT NOT NULL UNIQUE,
      token_hint TEXT NOT NULL,
      created_at TEXT NOT NULL,
      last_used_at TEXT,
      revoked_at TEXT
    )`.execute(db);
  await sql`CREATE INDEX mcp_tokens_active ON mcp_tokens (revoked_at, created_at, id)`.execute(db);
}
