import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import type { TestDesk } from './desk';

/** MCP clients of a test desk: the SDK's own Client over Streamable HTTP, and helpers to issue tokens and call tools. */

export async function issueMcpToken(desk: TestDesk, scope: 'read' | 'write', label = `test ${scope}`): Promise<{ id: string; token: string; tokenHint: string }> {
  const res = await desk.api('POST', '/api/v1/integrations/mcp-tokens', { label, scope });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; token: string; tokenHint: string };
}

/** A connected client on the desk's /mcp with `token` as its bearer token. */
export async function mcpHttpClient(desk: { url: string }, token: string): Promise<Client> {
  const client = new Client({ name: 'desk-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${desk.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

/** A tool call's answer, typed as the tool results Desk gives (text plus structured content). */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The text of a tool answer (Desk answers one text block). */
export const textOf = (result: CallToolResult): string => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

/** A successful call's structured content. */
export async function callOk<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await callTool(client, name, args);
  expect(result.isError ?? false, `${name}: ${textOf(result)}`).toBe(false);
  return result.structuredContent as T;
}
