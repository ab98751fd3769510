import { describe, expect, it } from 'vitest';
import type { TestDesk } from '../../testing/desk';
import { relayStatus, until, waitRelayConnected as waitConnected } from '../../testing/fakes/relay-server';
import { useTestRelay } from '../../testing/fakes/use-test-relay';

const fixture = useTestRelay();
let desk: TestDesk;

async function relayActivity(d: TestDesk) {
  const res = await d.api('GET', '/api/v1/activity?kind=workspace.relay_url');
  return res.body.activities as { detail: string }[];
}

async function signals(d: TestDesk) {
  const res = await d.api('GET', '/api/v1/signals?limit=200');
  expect(res.status).toBe(200);
  return res.body.signals as { title: string; kind: string; priority: string }[];
}

describe('integrations API', () => {
  it('is bearer-only', async () => {
    desk = await fixture.startDesk();
    for (const [method, path, body] of [
      ['GET', '/api/v1/integrations/inbound'],
      ['GET', '/api/v1/integrations/relay'],
      ['PUT', '/api/v1/integrations/relay', { relayUrl: fixture.relay.channelUrl() }],
    ] as const) {
      expect((await desk.api(method, path, body, null)).status).toBe(401);
      expect((await desk.api(method, path, body, 'wrong-token-wrong-token')).status).toBe(401);
    }
    expect((await relayStatus(desk)).state).toBe('disabled');
    expect(fixture.relay.streamRequests).toHaveLength(0);
  });

  it('shows the local webhook URL and a disabled relay on a fresh desk', async () => {
    desk = await fixture.startDesk();
    const res = await desk.api('GET', '/api/v1/integrations/inbound');
    expect(res.status).toBe(200);
    expect(res.body.inboundWebhook).toMatchObject({ localUrl: `${desk.url}/api/webhooks/signals/${desk.token}`, relayedUrl: null });
    expect(res.body.inboundWebhook.note).toContain('relay');
    expect(res.body.relay).toMatchObject({ configured: false, state: 'disabled', channelUrl: null, source: null, deliveredCount: 0 });
  });

  it('rejects a bad relay URL with 422 naming relayUrl and changes nothing', async () => {
    desk = await fixture.startDesk();
    const base = fixture.relay.channelUrl('c');
    const tooLong = `${base}?p=${'x'.repeat(500 - base.length - 3 + 1)}`;
    expect(tooLong).toHaveLength(501);
    for (const relayUrl of ['ftp://x', 'not a url', '', '   ', 'javascript:alert(1)', 'https://user:pw@smee.io/abc', tooLong, 42, ['https://smee.io/x']]) {
      const res = await desk.api('PUT', '/api/v1/integrations/relay', { relayUrl });
      expect(res.status, JSON.stringify(relayUrl)).toBe(422);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.details.map((d: { field: string }) => d.field)).toContain('relayUrl');
    }
    expect((await desk.api('PUT', '/api/v1/integrations/relay', {})).status).toBe(422);
    expect((await desk.api('PUT', '/api/v1/integrations/relay', '{"relayUrl":')).status).toBe(400);

    expect(await relayStatus(desk)).toMatchObject({ state: 'disabled', channelUrl: null });
    expect(await relayActivity(desk)).toHaveLength(0);
    expect(fixture.relay.streamRequests).toHaveLength(0);
  });

  it('accepts a 500-character channel, connects, and shows it in the status', async () => {
    desk = await fixture.startDesk();
    const base = fixture.relay.channelUrl('c');
    const longest = `${base}?p=${'x'.repeat(500 - base.length - 3)}`;
    expect(longest).toHaveLength(500);
    const res = await desk.api('PUT', '/api/v1/integrations/relay', { relayUrl: longest });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ configured: true, channelUrl: longest, source: 'workspace' });
    expect(['connecting', 'connected']).toContain(res.body.state);
    await waitConnected(desk, longest);
    expect(fixture.relay.connections()).toBe(1);
    expect(fixture.relay.streamRequests[0].path).toBe('/c');
    expect((await relayActivity(desk)).map((a) => a.detail)).toEqual(['Relay channel set']);

    const inbound = await desk.api('GET', '/api/v1/integrations/inbound');
    expect(inbound.body.inboundWebhook.relayedUrl).toBe(longest);
    expect(inbound.body.relay).toMatchObject({ state: 'connected', connectedAt: desk.clock.now().toISOString() });
  });

  it('turns a relayed request into a signal through the real webhook, once even when replayed', async () => {
    desk = await fixture.startDesk();
    const channel = fixture.relay.channelUrl();
    await desk.api('PUT', '/api/v1/integrations/relay', { relayUrl: channel });
    await waitConnected(desk, channel);

    // a sender outside posts to the public channel, with headers the desk must not see
    const posted = await fetch(channel, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer nope', 'x-github-delivery': 'gh-1' },
      body: JSON.stringify({ kind: 'alert', priority: 'high', title: 'Checkout errors up 40%', detail: 'since 11:50' }),
    });
    expect(posted.status).toBe(200);
    await until(async () => expect((await signals(desk)).map((s) => s.title)).toEqual(['Checkout errors up 40%']));
    expect((await signals(desk))[0]).toMatchObject({ kind: 'alert', priority: 'high' });

    // the relay replays the same event: same key, nothing new
    const event = { 'content-type': 'application/json', body: { title: 'Replayed once' }, query: {}, timestamp: 1_773_144_000_000 };
    fixture.relay.send(event);
    fixture.relay.send(event);
    // a batch works the same way
    fixture.relay.send({ 'content-type': 'application/json', body: { signals: [{ title: 'Batch a' }, { title: 'Batch b' }] }, timestamp: 2 });
    await until(async () => expect(await relayStatus(desk)).toMatchObject({ deliveredCount: 4 }));
    const titles = (await signals(desk)).map((s) => s.title).sort();
    expect(titles).toEqual(['Batch a', 'Batch b', 'Checkout errors up 40%', 'Replayed once']);
    expect(await relayStatus(desk)).toMatchObject({ lastDeliveryStatus: 201, failedCount: 0, lastError: null });

    // a request the webhook rejects shows up in the status and creates nothing
    fixture.relay.send({ body: { title: '' }, timestamp: 3 });
    await until(async () => expect(await relayStatus(desk)).toMatchObject({ failedCount: 1, lastDeliveryStatus: 422 }));
    expect((await relayStatus(desk)).lastError).toMatch(/^relayed request not delivered: the desk refused it \(HTTP 422\): title/);
    expect(await signals(desk)).toHaveLength(4);
  });

  it('reports a lost relay connection and reconnects', async () => {
    desk = await fixture.startDesk();
    const channel = fixture.relay.channelUrl();
    await desk.api('PUT', '/api/v1/integrations/relay', { relayUrl: channel });
    await waitConnected(desk, channel);
    fixture.relay.drop();
    await until(async () => expect(await relayStatus(desk)).toMatchObject({ reconnectAttempts: 1 }));
    expect((await relayStatus(desk)).lastError).toBeTruthy();
    // the desk's own backoff starts at 1 s
    await waitConnected(desk, channel);
    expect(fixture.relay.streamRequests).toHaveLength(2);
  });

  it('null removes the channel and stops the relay', async () => {
    desk = await fixture.startDesk();
    const channel = fixture.relay.channelUrl();
    await desk.api('PUT', '/api/v1/integrations/relay', { relayUrl: channel });
    await waitConnected(desk, channel);
    const res = await desk.api('PUT', '/api/v1/integrations/relay', { relayUrl: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ configured: false, state: 'disabled', channelUrl: null, source: null });
    await until(() => expect(fixture.relay.connections()).toBe(0));
    expect((await desk.api('GET', '/api/v1/integrations/inbound')).body.inboundWebhook.relayedUrl).toBeNull();
    expect((await relayActivity(desk)).map((a) => a.detail)).toEqual(['Relay channel removed', 'Relay channel set']);
    // removing it again is a no-op, not a second log row
    expect((await desk.api('PUT', '/api/v1/integrations/relay', { relayUrl: null })).status).toBe(200);
    expect(await relayActivity(desk)).toHaveLength(2);
  });

  it('uses DESK_RELAY_URL by default; the stored channel wins over it, and null falls back to it', async () => {
    const envChannel = fixture.relay.channelUrl('from-env');
    const stored = fixture.relay.channelUrl('stored');
    desk = await fixture.startDesk({ relayUrl: envChannel });
    await waitConnected(desk, envChannel);
    expect(await relayStatus(desk)).toMatchObject({ source: 'env' });

    expect((await desk.api('PUT', '/api/v1/integrations/relay', { relayUrl: stored })).body).toMatchObject({ channelUrl: stored, source: 'workspace' });
    await waitConnected(desk, stored);
    expect(fixture.relay.connections()).toBe(1);

    expect((await desk.api('PUT', '/api/v1/integrations/relay', { relayUrl: null })).body).toMatchObject({ channelUrl: envChannel, source: 'env' });
    await waitConnected(desk, envChannel);
    expect(fixture.relay.streamRequests.map((r) => r.path)).toEqual(['/from-env', '/stored', '/from-env']);
  });

  it('reconnects to the stored channel when the desk starts again', async () => {
    desk = await fixture.startDesk();
    const channel = fixture.relay.channelUrl('kept');
    await desk.api('PUT', '/api/v1/integrations/relay', { relayUrl: channel });
    await waitConnected(desk, channel);
    const { dataDir } = desk;
    await desk.stop({ keepDataDir: true });
    await until(() => expect(fixture.relay.connections()).toBe(0));

    desk = await fixture.startDesk({ dataDir, ownsDataDir: true, relayUrl: fixture.relay.channelUrl('env-ignored') });
    await waitConnected(desk, channel);
    expect(await relayStatus(desk)).toMatchObject({ source: 'workspace' });
    expect(fixture.relay.streamRequests.map((r) => r.path)).toEqual(['/kept', '/kept']);
  });
});
