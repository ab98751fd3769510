import type { Db } from '../../../db/connection';
import { inTransaction } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { conflict, DeskError, notFound } from '../../core/errors';
import { newId } from '../../core/ids';
import { recordActivity } from '../activity/activity';
import { resolveActor } from '../members/resolve-actor';
import { insertMcpToken, markMcpTokenRevoked, markMcpTokenUsed, type McpTokenRow } from './mcp-token-store';
import { checkMcpTokenLabel, checkMcpTokenScope, hashMcpToken, isMcpToken, MAX_MCP_TOKENS, mcpTokenHint, newMcpToken, type McpTokenScope } from './rules';

/** An MCP token as lists show it: never the token, only its hint. */
export interface McpToken {
  id: string;
  /** Which assistant uses it, e.g. "Claude Desktop on the laptop". */
  label: string;
  /** `read`: the tools that change nothing; `write`: every tool. */
  scope: McpTokenScope;
  /** The token's prefix and last characters, to recognise it: `dskm_…AbC9`. */
  tokenHint: string;
  /** @format date-time */
  createdAt: string;
  /** When a tool was last called with it; null when never. @format date-time */
  lastUsedAt: string | null;
}

/** The answer to creating one: the only time the token is shown. */
export interface CreatedMcpToken extends McpToken {
  /** The token itself. Shown once: only its hash is kept. */
  token: string;
}

/** Who is calling, once a presented token has been checked. */
export interface McpAccess {
  tokenId: string;
  label: string;
  scope: McpTokenScope;
  tokenHint: string;
}

/** What the activity row of one tool call says. */
export interface McpCallNote {
  detail: string;
  entityType?: string;
  entityId?: string;
}

const COLUMNS = ['id', 'label', 'scope', 'tokenHint', 'createdAt', 'lastUsedAt'] as const;
const toView = (r: McpTokenRow): McpToken => ({ id: r.id, label: r.label, scope: r.scope, tokenHint: r.tokenHint, createdAt: r.createdAt, lastUsedAt: r.lastUsedAt });

const revokedMeanwhile = () => new DeskError(401, 'unauthorized', 'This MCP token was revoked: issue a new one in Settings > Integrations');

/**
 * MCP tokens: issue (shown once), list (no secrets), revoke, resolve a presented token, and write
 * each tool call to the activity log with the tool's name as the actor.
 */
export class McpTokenService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Active tokens, newest first (at most MAX_MCP_TOKENS). */
  async list(): Promise<McpToken[]> {
    const rows = await this.db.selectFrom('mcpTokens').select(COLUMNS).where('revokedAt', 'is', null).orderBy('createdAt', 'desc').orderBy('id', 'desc').execute();
    return rows.map(toView);
  }

  /** A new token, logged as `mcp_token.created` (never the token). 409 `limit_reached` at MAX_MCP_TOKENS; 422 for a bad label or scope. */
  async create(input: { label?: unknown; scope?: unknown } = {}): Promise<CreatedMcpToken> {
    const label = checkMcpTokenLabel(input.label);
    const scope = checkMcpTokenScope(input.scope);
    return inTransaction(this.db, async (trx) => {
      const active = await trx.selectFrom('mcpTokens').select((eb) => eb.fn.countAll<number>().as('n')).where('revokedAt', 'is', null).executeTakeFirstOrThrow();
      if (Number(active.n) >= MAX_MCP_TOKENS) throw conflict('limit_reached', `There are already ${MAX_MCP_TOKENS} active MCP tokens: revoke one first`);
      const actor = await resolveActor(trx);
      const token = newMcpToken();
      const row: McpTokenRow = { id: newId('mcp', this.clock), label, scope, tokenHint: mcpTokenHint(token), createdAt: this.clock.now().toISOString(), lastUsedAt: null };
      await insertMcpToken(trx, row, hashMcpToken(token));
      await recordActivity(trx, this.clock, {
        kind: 'mcp_token.created',
        detail: `MCP token created: ${label} (${scope === 'write' ? 'read and write' : 'read only'}, ${row.tokenHint})`,
        actor,
        entityType: 'mcp_token',
        entityId: row.id,
      });
      return { ...toView(row), token };
    });
  }

  /** Revokes a token at once, logged as `mcp_token.revoked`. 404 for an unknown or already revoked one. */
  async revoke(id: string): Promise<McpToken> {
    return inTransaction(this.db, async (trx) => {
      const row = await trx.selectFrom('mcpTokens').select(COLUMNS).where('id', '=', id).where('revokedAt', 'is', null).executeTakeFirst();
      if (!row) throw notFound('mcp_token', id);
      const actor = await resolveActor(trx);
      await markMcpTokenRevoked(trx, id, this.clock.now().toISOString());
      await recordActivity(trx, this.clock, { kind: 'mcp_token.revoked', detail: `MCP token revoked: ${row.label} (${row.tokenHint})`, actor, entityType: 'mcp_token', entityId: id });
      return toView(row);
    });
  }

  /** The access of a presented token, or null when it is no active MCP token (wrong, revoked, or another kind of token). */
  async resolve(token: string): Promise<McpAccess | null> {
    if (!isMcpToken(token)) return null;
    const row = await this.db.selectFrom('mcpTokens').select(['id', 'label', 'scope', 'tokenHint']).where('tokenHash', '=', hashMcpToken(token)).where('revokedAt', 'is', null).executeTakeFirst();
    return row ? { tokenId: row.id, label: row.label, scope: row.scope, tokenHint: row.tokenHint } : null;
  }

  /**
   * Runs one tool call and writes its activity row (kind `mcp.tool_called`, actor: the tool's name).
   * `atomic`: the change, the row and the token's last use commit in one transaction (the domain
   * service's own transaction joins it), so a refused change leaves no row either. Calls that must
   * not hold a transaction (reads, a whole loop cycle) run first and are logged after.
   */
  async call<T>(access: McpAccess, tool: string, run: () => Promise<T>, note: (result: T) => McpCallNote, options: { atomic: boolean }): Promise<T> {
    const log = async (result: T) => {
      await inTransaction(this.db, async (trx) => {
        if (!(await markMcpTokenUsed(trx, access.tokenId, this.clock.now().toISOString()))) throw revokedMeanwhile();
        const { detail, entityType, entityId } = note(result);
        await recordActivity(trx, this.clock, {
          kind: 'mcp.tool_called',
          detail: `${detail} (MCP: ${access.label}, ${access.tokenHint})`,
          actor: { userId: null, label: mcpActor(tool) },
          ...(entityType === undefined ? {} : { entityType }),
          ...(entityId === undefined ? {} : { entityId }),
        });
      });
      return result;
    };
    if (!options.atomic) return log(await run());
    return inTransaction(this.db, async () => log(await run()));
  }
}

/** The actor label of a tool call: the tool's name, marked as MCP. */
export const mcpActor = (tool: string): string => `mcp:${tool}`;
