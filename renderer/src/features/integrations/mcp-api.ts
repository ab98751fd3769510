import { queryOptions } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';

/** MCP tokens of AI assistants (/api/v1/integrations/mcp-tokens): the list never holds a token. */

export type McpToken = Schema<'McpToken'>;
export type McpTokenList = Schema<'McpTokenList'>;
export type CreatedMcpToken = Schema<'CreatedMcpTokenAnswer'>;
export type McpTokenScope = Schema<'McpTokenScope'>;

export const mcpTokensQuery = () =>
  queryOptions({
    queryKey: queryKeys.integrations.mcpTokens,
    queryFn: () => unwrap(api.GET('/api/v1/integrations/mcp-tokens')),
  });

/** Issues a token: the answer is the only time it is shown. */
export const useCreateMcpToken = () =>
  useDeskMutation({
    mutationFn: (body: Schema<'CreateMcpTokenBody'>): Promise<CreatedMcpToken> => unwrap(api.POST('/api/v1/integrations/mcp-tokens', { body })),
    affects: [queryKeys.integrations.mcpTokens],
  });

export const useRevokeMcpToken = () =>
  useDeskMutation({
    mutationFn: (tokenId: string): Promise<McpToken> => unwrap(api.DELETE('/api/v1/integrations/mcp-tokens/{tokenId}', { params: { path: { tokenId } } })),
    affects: [queryKeys.integrations.mcpTokens],
  });
