import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../core/clock';
import { backoffDelay, RelayClient, relayIdempotencyKey, webhookUrl, type RelayClientOptions } from './relay-client';
import { startFakeTarget, startTestRelay, type FakeTarget, type TestRelay } from '../../testing/fakes/relay-server';

const TOKEN = 'tok_relay_test_0123456789';
const WEBHOOK = `/api/webhooks/signals/${TOKEN}`;
const until = (check: () => unknown, timeout = 5_000) => vi.waitFor(check, { timeout, interval: 10 });

let relay: TestRelay;
let target: FakeTarget;
let clock: ManualClock;
let client: RelayClient;

function newClient(options: Partial<RelayClientOptions> = {}): RelayClient {
  client = new RelayClient({ clock, token: TOKEN, localBaseUrl: target.url, minDelayMs: 20, maxDelayMs: 200, ...options });
  return client;
}

async function connected(c: RelayClient = client) {
  await until(() => expect(c.status().state).toBe('connected'));
}

beforeEach(async () => {
  relay = await startTestRelay();
  target = await startFakeTarget();
  clock = new ManualClock('2026-03-10T12:00:00.000Z');
});

afterEach(async () => {
  vi.restoreAllMocks();
  await client?.stop();
  await relay.close();
  await target.close();
});

describe('pure rules', () => {
  it('builds the one webhook URL from the base URL and token', () => {
    expect(webhookUrl('http://127.0.0.1:4477', TOKEN)).toBe(`http://127.0.0.1:4477${WEBHOOK}`);
    expect(webhookUrl('http://127.0.0.1:4477/', TOKEN)).toBe(`http://127.0.0.1:4477${WEBHOOK}`);
  });

  it('backs off from the minimum, doubling, capped at the maximum', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => backoffDelay(n, 1_000, 60_000))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000,
    ]);
    expect(backoffDelay(500, 1_000, 60_000)).toBe(60_000);
  });

  it("prefers the sender's idempotency key, then its delivery or request id, then a hash of the event", () => {
    const raw = (e: object) => JSON.stringify(e);
    const withKey = { 'idempotency-key': 'abc-1', 'x-github-delivery': 'gh-1', body: {} };
    expect(relayIdempotencyKey(withKey, raw(withKey))).toBe('abc-1');
    const gh = { 'x-github-delivery': 'gh-1', 'x-request-id': 'req-1', body: {} };
    expect(relayIdempotencyKey(gh, raw(gh))).toBe('gh-1');
    const req = { 'X-Request-Id': 'req-1', body: {} };
    expect(relayIdempotencyKey(req, raw(req))).toBe('req-1');

    const plain = { 'content-type': 'application/json', body: { title: 'x' }, timestamp: 1 };
    const key = relayIdempotencyKey(plain, raw(plain));
    expect(key).toMatch(/^relay-[0-9a-f]{40}$/);
    expect(relayIdempotencyKey(plain, raw(plain))).toBe(key);
    const later = { ...plain, timestamp: 2 };
    expect(relayIdempotencyKey(later, raw(later))).not.toBe(key);

    // a key the webhook could not take as it is (too long, spaces) is hashed, not dropped
    const long = { 'idempotency-key': 'k'.repeat(201), body: {} };
    expect(relayIdempotencyKey(long, raw(long))).toMatch(/^relay-[0-9a-f]{40}$/);
    const edge = { 'idempotency-key': 'k'.repeat(200), body: {} };
    expect(relayIdempotencyKey(edge, raw(edge))).toBe('k'.repeat(200));
    const spaced = { 'idempotency-key': 'a b', body: {} };
    expect(relayIdempotencyKey(spaced, raw(spaced))).toMatch(/^relay-/);
  });
});

describe('RelayClient against a local smee relay', () => {
  it('starts disabled and connects to the channel', async () => {
    newClient();
    expect(client.status()).toMatchObject({ configured: false, state: 'disabled', channelUrl: null, source: null });
    client.start(relay.channelUrl(), 'env');
    expect(client.status()).toMatchObject({ configured: true, state: 'connecting', channelUrl: relay.channelUrl(), source: 'env' });
    await connected();
    expect(client.status()).toMatchObject({ connectedAt: '2026-03-10T12:00:00.000Z', reconnectAttempts: 0, lastError: null, deliveredCount: 0 });
    expect(relay.connections()).toBe(1);
    expect(relay.streamRequests[0]).toMatchObject({ path: '/test-channel' });
    expect(relay.streamRequests[0].headers.accept).toBe('text/event-stream');
  });

  it('re-posts a relayed request to the webhook path only, without its hop or credential headers', async () => {
    newClient();
    client.start(relay.channelUrl());
    await connected();
    clock.advance(5_000);

    const signal = { kind: 'alert', priority: 'high', title: 'Deploy failed', detail: 'build 42', url: '/api/v1/workspace', path: '/api/v1/runs' };
    const res = await fetch(`${relay.channelUrl()}?target=/api/v1/runs`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer stolen',
        cookie: 'session=1',
        'x-forwarded-for': '203.0.113.9',
        'x-github-delivery': 'delivery-77',
        'x-http-method-override': 'DELETE',
      },
      body: JSON.stringify(signal),
    });
    expect(res.status).toBe(200);

    await until(() => expect(target.requests).toHaveLength(1));
    const [req] = target.requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe(WEBHOOK);
    expect(JSON.parse(req.body)).toEqual(signal);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['idempotency-key']).toBe('delivery-77');
    for (const h of ['authorization', 'cookie', 'x-forwarded-for', 'x-github-delivery', 'x-http-method-override']) {
      expect(req.headers[h]).toBeUndefined();
    }
    // the Host is the local server's, not the relay's
    expect(req.headers.host).toBe(new URL(target.url).host);
    await until(() => expect(client.status().deliveredCount).toBe(1));
    expect(client.status()).toMatchObject({
      lastEventAt: '2026-03-10T12:00:05.000Z',
      lastDeliveryAt: '2026-03-10T12:00:05.000Z',
      lastDeliveryStatus: 202,
      failedCount: 0,
      lastError: null,
    });
  });

  it('ignores event fields that name another URL, path or host', async () => {
    newClient();
    client.start(relay.channelUrl());
    await connected();
    relay.send({ host: 'evil.example', url: 'http://evil.example/x', path: '/api/v1/workspace', 'x-original-url': '/api/v1', body: { title: 'a' }, query: { path: '/x' }, timestamp: 1 });
    await until(() => expect(target.requests).toHaveLength(1));
    expect(target.requests[0].path).toBe(WEBHOOK);
    expect(target.requests[0].headers.host).toBe(new URL(target.url).host);
    expect(target.requests[0].headers['x-original-url']).toBeUndefined();
  });

  it('sends the same idempotency key when the relay replays an event, and a different one for a new event', async () => {
    newClient();
    client.start(relay.channelUrl());
    await connected();
    const event = { 'content-type': 'application/json', body: { title: 'same' }, query: {}, timestamp: 1_700_000_000_000 };
    relay.send(event);
    relay.send(event);
    relay.send({ ...event, timestamp: 1_700_000_000_001 });
    await until(() => expect(target.requests).toHaveLength(3));
    const keys = target.requests.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^relay-[0-9a-f]{40}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('delivers nothing for ready and ping events, and skips events that are not smee requests', async () => {
    newClient();
    client.start(relay.channelUrl());
    await connected();
    relay.ping();
    relay.send('not json');
    relay.send({ 'content-type': 'application/json', timestamp: 1 }); // no body
    relay.send([1, 2]);
    await until(() => expect(client.status().failedCount).toBe(3));
    expect(target.requests).toHaveLength(0);
    expect(client.status().lastError).toMatch(/not a smee request/);
    expect(client.status().lastEventAt).toBe('2026-03-10T12:00:00.000Z');
    expect(client.status().state).toBe('connected');
  });

  it('reconnects after the relay drops the connection, and keeps delivering', async () => {
    newClient();
    client.start(relay.channelUrl());
    await connected();
    relay.drop();
    await until(() => expect(client.status().reconnectAttempts).toBe(1));
    expect(client.status().lastError).toBeTruthy();
    expect(client.status().lastErrorAt).toBe('2026-03-10T12:00:00.000Z');
    await until(() => expect(relay.connections()).toBe(1));
    await connected();
    expect(relay.streamRequests).toHaveLength(2);

    relay.send({ body: { title: 'after reconnect' }, timestamp: 5 });
    await until(() => expect(target.requests).toHaveLength(1));
    expect(JSON.parse(target.requests[0].body)).toEqual({ title: 'after reconnect' });
    expect(client.status()).toMatchObject({ state: 'connected', reconnectAttempts: 1, deliveredCount: 1 });
  });

  it('backs off while the relay refuses, then resets the backoff once connected', async () => {
    newClient({ minDelayMs: 20, maxDelayMs: 50 });
    relay.refuseNext(503, 3);
    client.start(relay.channelUrl());
    const delays: number[] = [];
    for (let n = 1; n <= 3; n += 1) {
      await until(() => expect(client.status().reconnectAttempts).toBe(n));
      const s = client.status();
      expect(s.state).toBe('error');
      expect(s.lastError).toContain('503');
      delays.push(new Date(s.nextReconnectAt!).getTime() - clock.now().getTime());
    }
    expect(delays).toEqual([20, 40, 50]);
    await connected();
    expect(client.status().nextReconnectAt).toBeNull();
    expect(relay.streamRequests).toHaveLength(4);

    // a successful connect resets the backoff: the next drop waits the minimum again
    relay.drop();
    await until(() => expect(client.status().reconnectAttempts).toBe(4));
    expect(new Date(client.status().nextReconnectAt!).getTime() - clock.now().getTime()).toBe(20);
    await connected();
  });

  it('records an unreachable relay as an error and keeps trying', async () => {
    newClient();
    const deadUrl = relay.channelUrl();
    await relay.close();
    client.start(deadUrl);
    await until(() => expect(client.status().reconnectAttempts).toBeGreaterThanOrEqual(2));
    expect(client.status().state).toMatch(/error|connecting/);
    expect(client.status().lastError).toMatch(/ECONNREFUSED|fetch failed/);
    relay = await startTestRelay(); // for afterEach
  });

  it('sends Last-Event-ID when it reconnects after an event with an id', async () => {
    newClient();
    client.start(relay.channelUrl());
    await connected();
    relay.send({ body: { title: 'one' }, timestamp: 1 }, { id: 'evt-9' });
    await until(() => expect(target.requests).toHaveLength(1));
    relay.drop();
    await until(() => expect(relay.streamRequests).toHaveLength(2));
    expect(relay.streamRequests[0].headers['last-event-id']).toBeUndefined();
    expect(relay.streamRequests[1].headers['last-event-id']).toBe('evt-9');
  });

  it('treats silence after keep-alive pings as a dead connection', async () => {
    newClient({ idleTimeoutMs: 100 });
    client.start(relay.channelUrl());
    await connected();
    relay.ping();
    await until(() => expect(client.status().reconnectAttempts).toBe(1));
    expect(client.status().lastError).toMatch(/no keep-alive/);
    await until(() => expect(relay.streamRequests).toHaveLength(2));
    await connected();
  });

  it('retries a delivery the webhook failed with 5xx, and does not retry one it rejected', async () => {
    newClient();
    client.start(relay.channelUrl());
    await connected();
    target.respondWith(503, { error: 'busy', message: 'try later' });
    relay.send({ body: { title: 'a' }, timestamp: 1 });
    await until(() => expect(client.status().failedCount).toBe(1));
    expect(target.requests).toHaveLength(3);
    expect(new Set(target.requests.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    expect(client.status()).toMatchObject({ lastDeliveryStatus: 503, deliveredCount: 0 });
    expect(client.status().lastError).toBe('relayed request not delivered: the webhook answered HTTP 503: try later');

    target.respondWith(422, { error: 'validation_failed', message: 'title is required' });
    relay.send({ body: {}, timestamp: 2 });
    await until(() => expect(client.status().failedCount).toBe(2));
    expect(target.requests).toHaveLength(4);
    expect(client.status().lastError).toBe('relayed request not delivered: the webhook answered HTTP 422: title is required');

    target.respondWith(201, { ok: true });
    relay.send({ body: { title: 'b' }, timestamp: 3 });
    await until(() => expect(client.status().deliveredCount).toBe(1));
    expect(client.status().lastDeliveryStatus).toBe(201);
  });

  it('waits as long as Retry-After says (capped at the maximum delay) when the webhook rate-limits', async () => {
    const CAP_MS = 4_321;
    newClient({ minDelayMs: 1, maxDelayMs: CAP_MS, deliveryAttempts: 2 });
    client.start(relay.channelUrl());
    await connected();
    // Hold back the one timer of the capped length: the retry can only happen once the test fires it.
    const realSetTimeout = globalThis.setTimeout;
    const held: (() => void)[] = [];
    const delays: number[] = [];
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number, ...rest: unknown[]) => {
      delays.push(ms ?? 0);
      if (ms === CAP_MS) {
        held.push(fn);
        return realSetTimeout(() => undefined, 0);
      }
      return realSetTimeout(fn, ms, ...rest);
    }) as typeof setTimeout);
    target.respondWith(429, { error: 'rate_limited', message: 'slow down' }, { 'retry-after': '3600' });
    relay.send({ body: { title: 'a' }, timestamp: 1 });
    // the client waits the cap, not the 1 ms backoff nor the hour the header asked for
    await until(() => expect(held).toHaveLength(1));
    expect(delays).not.toContain(3_600_000);
    expect(target.requests).toHaveLength(1);
    expect(client.status()).toMatchObject({ lastDeliveryStatus: 429, deliveredCount: 0, failedCount: 0 });
    vi.mocked(globalThis.setTimeout).mockRestore();

    target.respondWith(201, {});
    held[0]();
    await until(() => expect(client.status().deliveredCount).toBe(1));
    expect(target.requests).toHaveLength(2);
    expect(client.status().failedCount).toBe(0);
  });

  it("leaves the key to the body when the relayed body carries its own idempotencyKey", async () => {
    newClient();
    client.start(relay.channelUrl());
    await connected();
    relay.send({ 'idempotency-key': 'header-key', body: { title: 'a', idempotencyKey: 'body-key' }, timestamp: 1 });
    relay.send({ 'idempotency-key': 'header-key', body: { title: 'b' }, timestamp: 1 });
    await until(() => expect(target.requests).toHaveLength(2));
    expect(target.requests[0].headers['idempotency-key']).toBeUndefined();
    expect(JSON.parse(target.requests[0].body)).toEqual({ title: 'a', idempotencyKey: 'body-key' });
    expect(target.requests[1].headers['idempotency-key']).toBe('header-key');
  });

  it('reports a webhook that cannot be reached', async () => {
    const dead = await startFakeTarget();
    await dead.close();
    newClient({ localBaseUrl: dead.url, deliveryAttempts: 2 });
    client.start(relay.channelUrl());
    await connected();
    relay.send({ body: { title: 'a' }, timestamp: 1 });
    await until(() => expect(client.status().failedCount).toBe(1));
    expect(client.status().lastError).toMatch(/^relayed request not delivered: the webhook could not be reached \(ECONNREFUSED\)$/);
    expect(client.status().lastError).not.toContain(TOKEN);
  });

  it('moves to a new channel with a fresh status, and stop() closes the stream', async () => {
    newClient();
    client.start(relay.channelUrl('one'));
    await connected();
    relay.send({ body: { title: 'a' }, timestamp: 1 });
    await until(() => expect(client.status().deliveredCount).toBe(1));

    client.start(relay.channelUrl('two'), 'env');
    await until(() => expect(relay.streamRequests.map((r) => r.path)).toEqual(['/one', '/two']));
    await connected();
    expect(relay.connections()).toBe(1);
    expect(client.status()).toMatchObject({ channelUrl: relay.channelUrl('two'), source: 'env', deliveredCount: 0 });

    await client.stop();
    expect(client.status()).toMatchObject({ configured: false, state: 'disabled', channelUrl: null });
    await until(() => expect(relay.connections()).toBe(0));
    relay.send({ body: { title: 'after stop' }, timestamp: 2 });
    relay.drop();
    expect(relay.streamRequests).toHaveLength(2);
    expect(target.requests).toHaveLength(1);
  });
});
