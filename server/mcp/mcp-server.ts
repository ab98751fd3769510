import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { version } from '../../package.json';
import type { McpAccess } from '../domain/mcp-tokens/mcp-token-service';
import type { Services } from '../services';
import { registerReadTools } from './read-tools';
import { registerPrompts, registerResources } from './resources';
import { registerWriteTools } from './write-tools';

/** Largest number of array elements and object members one tool call's arguments may hold (the SDK refuses more before validation). */
export const MAX_TOOL_INPUT_ELEMENTS = 200;

/**
 * The MCP server of one caller: every tool, resource and prompt over the desk's own services, the
 * changing tools disabled for a read-only token. Built per request (the HTTP transport is
 * stateless), which costs registering a dozen tools, not a database read.
 */
export function buildMcpServer(services: Services, access: McpAccess): McpServer {
  const server = new McpServer(
    { name: 'desk', title: 'Desk', version },
    {
      maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS,
      instructions:
        'Desk is the operator\'s AI operations desk: signals come in, a loop of AI cycles turns them into tasks and outputs, and outputs wait for the operator\'s decision. ' +
        'Start with review_queue ("what waits for me"). Tools whose description starts with CHANGES THE DESK act for the operator: call them only when the operator asked for that change.' +
        (access.scope === 'write' ? '' : ' This token is read-only: the tools that change the desk are disabled.'),
    },
  );
  const ctx = { services, access };
  registerReadTools(server, ctx);
  registerWriteTools(server, ctx);
  registerResources(server, services);
  registerPrompts(server, services);
  return server;
}
