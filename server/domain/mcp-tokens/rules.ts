import crypto from 'node:crypto';
import { invalid } from '../../core/errors';
import { MCP_TOKEN_SCOPES, type McpTokenScope } from '../../core/vocabulary';
export { MCP_TOKEN_SCOPES, type McpTokenScope };

/**
 * MCP tokens: what an AI assistant (Claude Desktop, Cursor, any MCP client) shows to Desk's MCP
 * server. Never the workspace token: a token of its own, `read` (tools that change nothing) or
 * `write` (every tool), revocable at once. Pure rules: shape, hash, hint, label, scope, the cap.
 */

/** Every MCP token starts with this, so it is recognisable in a config file or a leak scan. */
export const MCP_TOKEN_PREFIX = 'dskm_';
/** Active (unrevoked) MCP tokens: one per assistant and machine is the idea. */
export const MAX_MCP_TOKENS = 20;
export const MAX_MCP_TOKEN_LABEL_LENGTH = 100;
/** What a token is for when the operator gives no label. */
export const DEFAULT_MCP_TOKEN_LABEL = 'AI assistant';
/** A new token opens the tools that change nothing unless write access is asked for. */
export const DEFAULT_MCP_TOKEN_SCOPE: McpTokenScope = 'read';
const HINT_TAIL = 4;

/** A new token: the prefix and 256 random bits, base64url. */
export function newMcpToken(): string {
  return `${MCP_TOKEN_PREFIX}${crypto.randomBytes(32).toString('base64url')}`;
}

export const isMcpToken = (token: string): boolean => token.startsWith(MCP_TOKEN_PREFIX) && token.length <= 200;

/** What is stored instead of the token: SHA-256, hex (a 256-bit random token needs no slow hash). */
export function hashMcpToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** Enough to recognise a token in a list, not enough to use it: `dskm_…AbC9`. */
export function mcpTokenHint(token: string): string {
  return `${MCP_TOKEN_PREFIX}…${token.slice(-HINT_TAIL)}`;
}

/** The label, trimmed, 1-100 characters; DEFAULT_MCP_TOKEN_LABEL when absent. */
export function checkMcpTokenLabel(label: unknown): string {
  if (label === undefined || label === null) return DEFAULT_MCP_TOKEN_LABEL;
  const text = typeof label === 'string' ? label.trim() : '';
  if (text.length < 1 || text.length > MAX_MCP_TOKEN_LABEL_LENGTH) {
    throw invalid('label', `must be 1-${MAX_MCP_TOKEN_LABEL_LENGTH} characters and not only spaces`);
  }
  return text;
}

export function checkMcpTokenScope(scope: unknown): McpTokenScope {
  if (scope === undefined || scope === null) return DEFAULT_MCP_TOKEN_SCOPE;
  if (typeof scope !== 'string' || !(MCP_TOKEN_SCOPES as readonly string[]).includes(scope)) {
    throw invalid('scope', `must be one of: ${MCP_TOKEN_SCOPES.join(', ')}`);
  }
  return scope as McpTokenScope;
}

/** Where MCP clients connect on a desk's base URL (Streamable HTTP). */
export const MCP_PATH = '/mcp';

export const mcpUrl = (baseUrl: string): string => `${baseUrl.replace(/\/+$/, '')}${MCP_PATH}`;
