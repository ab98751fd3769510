import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Schema } from '../../api/client';
import { useAuth } from '../../lib/auth';
import { json, noFake, fakeFetch } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';
import { McpAssistants } from './McpAssistants';

const MCP_URL = 'http://127.0.0.1:4477/mcp';
const SECRET = 'dskm_secretwxyz';

/** The MCP token endpoints as the server behaves: the token only in the answer that issues it. */
function fakeDesk() {
  let tokens: Schema<'McpToken'>[] = [];
  return fakeFetch((call) => {
    const { method, path } = call;
    if (method === 'GET' && path === '/api/v1/integrations/mcp-tokens') return json(200, { mcpTokens: tokens, mcpUrl: MCP_URL, dataDir: '/home/me/desk-data' });
    if (method === 'POST' && path === '/api/v1/integrations/mcp-tokens') {
      const body = call.body as { label?: string; scope?: 'read' | 'write' };
      const made: Schema<'McpToken'> = { id: 'mcp_1', label: body.label ?? 'AI assistant', scope: body.scope ?? 'read', tokenHint: 'dskm_…wxyz', createdAt: '2026-03-10T12:00:00.000Z', lastUsedAt: null };
      tokens = [made];
      return json(201, { ...made, token: SECRET, mcpUrl: MCP_URL });
    }
    if (method === 'DELETE' && path === '/api/v1/integrations/mcp-tokens/mcp_1') {
      const gone = tokens[0];
      tokens = [];
      return json(200, gone);
    }
    return noFake(call);
  });
}

let desk: ReturnType<typeof fakeDesk>;
beforeEach(() => {
  useAuth.setState({ token: 'workspace-token', status: 'signed-in' });
  desk = fakeDesk();
});

const snippet = (name: string) => screen.getByLabelText(name).textContent ?? '';

describe('McpAssistants', () => {
  it('shows both configurations with a placeholder until a token is issued, never the workspace token', async () => {
    renderWithApp(<McpAssistants />);
    expect(await screen.findByText('No MCP token yet.')).toBeTruthy();
    expect(snippet('Claude Desktop configuration')).toContain('"DESK_MCP_TOKEN": "<your MCP token>"');
    expect(snippet('Claude Desktop configuration')).toContain('"DESK_DATA_DIR": "/home/me/desk-data"');
    expect(snippet('Streamable HTTP configuration')).toContain(`"url": "${MCP_URL}"`);
    expect(document.body.textContent).not.toContain('workspace-token');
  });

  it('issues a read-and-write token: shown once with a copy button, filled into the configurations; then revoked', async () => {
    renderWithApp(<McpAssistants />);
    fireEvent.change(await screen.findByLabelText('Used by'), { target: { value: 'Claude on the laptop' } });
    fireEvent.change(screen.getByLabelText('Access'), { target: { value: 'write' } });
    fireEvent.click(screen.getByRole('button', { name: 'Issue MCP token' }));
    const issued = await screen.findByRole('textbox', { name: 'New MCP token' });
    expect(issued).toHaveProperty('value', SECRET);
    expect(desk.calls.find((c) => c.method === 'POST')?.body).toEqual({ label: 'Claude on the laptop', scope: 'write' });
    expect(screen.getByRole('button', { name: 'Copy new MCP token' })).toBeTruthy();
    expect(snippet('Claude Desktop configuration')).toContain(`"DESK_MCP_TOKEN": "${SECRET}"`);
    expect(snippet('Streamable HTTP configuration')).toContain(`"Authorization": "Bearer ${SECRET}"`);
    const list = await screen.findByRole('list', { name: 'Active MCP tokens' });
    const item = within(list).getByRole('listitem');
    expect(item.textContent).toContain('dskm_…wxyz');
    expect(item.textContent).toContain('Read and write');

    fireEvent.click(within(item).getByRole('button', { name: 'Revoke' }));
    fireEvent.click(within(item).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(desk.calls.some((c) => c.method === 'DELETE' && c.path === '/api/v1/integrations/mcp-tokens/mcp_1')).toBe(true));
    expect(await screen.findByText('No MCP token yet.')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'New MCP token' })).toBeNull();
    expect(snippet('Claude Desktop configuration')).toContain('<your MCP token>');
  });
});
