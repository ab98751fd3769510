import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Schema } from '../../api/client';
import { TOKEN_STORAGE_KEY, useAuth } from '../../lib/auth';
import { json, noFake, fakeFetch } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';
import { IntegrationsSection } from './IntegrationsSection';

const BASE = 'http://127.0.0.1:4477';
const hook = (token: string) => `${BASE}/api/webhooks/signals/${token}`;

const relay: Schema<'RelayStatus'> = {
  configured: false,
  channelUrl: null,
  source: null,
  state: 'disabled',
  connectedAt: null,
  lastEventAt: null,
  lastDeliveryAt: null,
  lastDeliveryStatus: null,
  lastError: null,
  lastErrorAt: null,
  deliveredCount: 0,
  failedCount: 0,
  reconnectAttempts: 0,
  nextReconnectAt: null,
};

const source = { id: 'src_1', label: 'Zapier', type: 'manual' };

/** The integrations API as the server behaves: the workspace token is checked on every request and changes on rotation. */
function fakeDesk() {
  let token = 'old-token';
  let tokens: Schema<'IngestToken'>[] = [];
  return fakeFetch((call) => {
    const { method, path } = call;
    if (call.authorization !== `Bearer ${token}`) return json(401, { error: 'unauthorized', message: 'Invalid bearer token' });
    if (method === 'GET' && path === '/api/v1/integrations/inbound') return json(200, { inboundWebhook: { localUrl: hook(token), relayedUrl: null, note: '' }, relay });
    if (method === 'GET' && path === '/api/v1/sources') return json(200, { sources: [source], nextCursor: null });
    if (method === 'POST' && path === '/api/v1/workspace/token/rotate') {
      token = 'new-token';
      return json(200, { token, webhookUrl: hook(token), rotatedAt: '2026-03-10T12:00:00.000Z' });
    }
    if (method === 'GET' && path === '/api/v1/sources/src_1/ingest-tokens') return json(200, { ingestTokens: tokens });
    if (method === 'GET' && path === '/api/v1/integrations/mcp-tokens') return json(200, { mcpTokens: [], mcpUrl: `${BASE}/mcp`, dataDir: '/data' });
    if (method === 'POST' && path === '/api/v1/sources/src_1/ingest-tokens') {
      const made = { id: 'ing_1', sourceId: 'src_1', label: 'Zapier', tokenHint: 'dski_…wxyz', createdAt: '2026-03-10T12:00:00.000Z', lastUsedAt: null };
      tokens = [made];
      return json(201, { ...made, token: 'dski_secretwxyz', webhookUrl: hook('dski_secretwxyz') });
    }
    if (method === 'DELETE' && path === '/api/v1/ingest-tokens/ing_1') {
      const gone = tokens[0];
      tokens = [];
      return json(200, gone);
    }
    return noFake(call);
  });
}

let desk: ReturnType<typeof fakeDesk>;
beforeEach(() => {
  window.sessionStorage.clear();
  useAuth.setState({ token: 'old-token', status: 'signed-in' });
  desk = fakeDesk();
});

describe('IntegrationsSection', () => {
  it('rotates the token after a confirm that says what breaks, shows the new webhook URL and stays signed in', async () => {
    renderWithApp(<IntegrationsSection />);
    const local = await screen.findByRole('textbox', { name: 'Local webhook URL' });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(local).toHaveProperty('value', hook('old-token'));

    fireEvent.click(screen.getByRole('button', { name: 'Rotate token' }));
    const confirm = screen.getByRole('group', { name: /Rotate the workspace token\?/ });
    expect(confirm.textContent).toMatch(/stop working at once/);
    expect(desk.calls.some((c) => c.path === '/api/v1/workspace/token/rotate')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Rotate now' }));

    await waitFor(() => expect(local).toHaveProperty('value', hook('new-token')));
    expect(await screen.findByText(/Token rotated/)).toBeTruthy();
    // the store (and this tab's storage) hold the new token; later requests send it and succeed
    expect(useAuth.getState()).toMatchObject({ token: 'new-token', status: 'signed-in' });
    expect(window.sessionStorage.getItem(TOKEN_STORAGE_KEY)).toBe('new-token');
    const rotateAt = desk.calls.findIndex((c) => c.path === '/api/v1/workspace/token/rotate');
    await waitFor(() => expect(desk.calls.slice(rotateAt + 1).some((c) => c.path === '/api/v1/integrations/inbound')).toBe(true));
    expect(desk.calls.slice(rotateAt + 1).every((c) => c.authorization === 'Bearer new-token')).toBe(true);
  });

  it('does nothing when the rotation is cancelled', async () => {
    renderWithApp(<IntegrationsSection />);
    fireEvent.click(await screen.findByRole('button', { name: 'Rotate token' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(desk.calls.some((c) => c.path === '/api/v1/workspace/token/rotate')).toBe(false);
    expect(useAuth.getState().token).toBe('old-token');
  });

  it('offers the scoped ingest URL first: pick a source, create (shown once, with copy), revoke', async () => {
    renderWithApp(<IntegrationsSection />);
    const headings = (await screen.findAllByRole('heading', { level: 3 })).map((h) => h.textContent);
    expect(headings.indexOf('Source ingest URLs (recommended)')).toBeLessThan(headings.indexOf('Workspace webhook URL'));
    expect(screen.getAllByText(/A leaked source URL can only push signals to that source; revoke it any time/).length).toBeGreaterThan(0);

    const picker = screen.getByLabelText('Source');
    await waitFor(() => expect(within(picker).getByRole('option', { name: 'Zapier' })).toBeTruthy());
    fireEvent.change(picker, { target: { value: 'src_1' } });
    const group = await screen.findByRole('group', { name: 'Ingest URLs for Zapier' });
    expect(await within(group).findByText('No ingest URL for this source yet.')).toBeTruthy();
    fireEvent.click(within(group).getByRole('button', { name: 'Create ingest URL' }));
    const created = await within(group).findByRole('textbox', { name: 'New ingest URL' });
    expect(created).toHaveProperty('value', hook('dski_secretwxyz'));
    expect(within(group).getByRole('button', { name: 'Copy new ingest url' })).toBeTruthy();
    expect(within(group).getByText(/Shown once/)).toBeTruthy();
    const item = await within(group).findByRole('listitem');
    expect(item.textContent).toContain('dski_…wxyz');

    fireEvent.click(within(item).getByRole('button', { name: 'Revoke' }));
    fireEvent.click(within(item).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(desk.calls.some((c) => c.method === 'DELETE' && c.path === '/api/v1/ingest-tokens/ing_1')).toBe(true));
    expect(await within(group).findByText('No ingest URL for this source yet.')).toBeTruthy();
    expect(within(group).queryByRole('textbox', { name: 'New ingest URL' })).toBeNull();
  });
});
