import { expect, test } from '@playwright/test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expectAccessible } from './axe';
import { deskForFile } from './desk';

/**
 * Settings › Integrations › AI assistants: an MCP token issued in the UI, and the Streamable HTTP
 * configuration Settings shows (with that token filled in) used as written by the MCP SDK's own
 * client against the built desk; revoking it in the UI refuses the client's next request.
 */

const desk = deskForFile();

interface HttpConfig {
  mcpServers: { desk: { url: string; headers: { Authorization: string } } };
}

test('an MCP token issued in Settings opens /mcp with the configuration shown there, until it is revoked', async ({ page }) => {
  await page.goto(desk.openUrl);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Integrations' }).click();
  const group = page.getByRole('group', { name: 'MCP tokens' });
  await expect(group.getByText('No MCP token yet.')).toBeVisible();
  await expect(group.getByLabel('Claude Desktop configuration', { exact: true })).toContainText('<your MCP token>');

  await group.getByLabel('Used by').fill('Claude Desktop');
  await group.getByLabel('Access').selectOption('write');
  await group.getByRole('button', { name: 'Issue MCP token' }).click();
  const tokenField = group.getByRole('textbox', { name: 'New MCP token' });
  await expect(tokenField).toHaveValue(/^dskm_/);
  const token = await tokenField.inputValue();
  await expect(group.getByRole('listitem').filter({ hasText: 'Claude Desktop' })).toContainText('Read and write');
  const claude = JSON.parse((await group.getByLabel('Claude Desktop configuration', { exact: true }).textContent()) ?? '') as { mcpServers: { desk: { env: Record<string, string> } } };
  expect(claude.mcpServers.desk.env).toEqual({ DESK_MCP_TOKEN: token, DESK_DATA_DIR: desk.dataDir });
  // The AI assistants part (the relay row above has a link axe flags, outside this feature).
  await expectAccessible(page, '[role="group"][aria-label="MCP tokens"]');

  // The Streamable HTTP configuration, as written, in the SDK's own client.
  const config = JSON.parse((await group.getByLabel('Streamable HTTP configuration', { exact: true }).textContent()) ?? '') as HttpConfig;
  expect(config.mcpServers.desk.url).toBe(`${desk.baseUrl}/mcp`);
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(config.mcpServers.desk.url), { requestInit: { headers: config.mcpServers.desk.headers } }));
  const filed = (await client.callTool({ name: 'add_signal', arguments: { title: 'Filed by an assistant' } })) as CallToolResult;
  expect(filed.isError ?? false).toBe(false);
  const signals = await desk.api<{ signals: { title: string }[] }>('GET', '/api/v1/signals');
  expect(signals.body.signals.map((s) => s.title)).toContain('Filed by an assistant');

  // The call is in the activity log with the tool as the actor, and the token shows its last use.
  const activity = await desk.api<{ activities: { kind: string; actorLabel?: string; actor?: { label: string } }[] }>('GET', '/api/v1/activity?kind=mcp.tool_called');
  expect(activity.body.activities).toHaveLength(1);
  await page.reload();
  await expect(page.getByRole('group', { name: 'MCP tokens' }).getByRole('listitem').filter({ hasText: 'Claude Desktop' })).toContainText('last used');

  const item = page.getByRole('group', { name: 'MCP tokens' }).getByRole('listitem').filter({ hasText: 'Claude Desktop' });
  await item.getByRole('button', { name: 'Revoke' }).click();
  await item.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByRole('group', { name: 'MCP tokens' }).getByText('No MCP token yet.')).toBeVisible();
  await expect(client.listTools()).rejects.toThrow(/401|Unauthorized/i);
  await client.close();
});
