import type { McpTokenTable } from '../../../db/schema';
import type { Trx } from '../../../db/transactions';

/** The one writer of `mcp_tokens` (server/architecture/table-owners.ts). */

export type McpTokenRow = Omit<McpTokenTable, 'tokenHash' | 'revokedAt'>;

export async function insertMcpToken(trx: Trx, row: McpTokenRow, tokenHash: string): Promise<void> {
  await trx.insertInto('mcpTokens').values({ ...row, tokenHash, revokedAt: null }).execute();
}

export async function markMcpTokenRevoked(trx: Trx, id: string, at: string): Promise<void> {
  await trx.updateTable('mcpTokens').set({ revokedAt: at }).where('id', '=', id).execute();
}

/** Stamps a call; false when the token was revoked since it was checked (the call is then refused). */
export async function markMcpTokenUsed(trx: Trx, id: string, at: string): Promise<boolean> {
  const res = await trx.updateTable('mcpTokens').set({ lastUsedAt: at }).where('id', '=', id).where('revokedAt', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
