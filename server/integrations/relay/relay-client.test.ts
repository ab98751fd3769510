import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../core/clock';
import { backoffDelay, RelayClient, relayIdempotencyKey, type RelayClientOptions, type RelayDeliveryOutcome, type RelayedRequest } from './relay-client';
import { startTestRelay, type TestRelay } from '../../testing/fakes/relay-server';

const until = (check: () => unknown, timeout = 5_000) => vi.waitFor(check, { timeout, interval: 10 });

let relay: TestRelay;
let clock: ManualClock;
let client: RelayClient;
/** What the client handed to the desk (the deliver callback), in order, one entry per try. */
let delivered: RelayedRequest[];
/** How the fake desk answers a delivery (or throws). */
let answer: (request: RelayedRequest) => RelayDeliveryOutcome | Promise<RelayDeliveryOutcome>;

function newClient(options: Partial<RelayClientOptions> = {}): RelayClient {
  const deliver = async (request: RelayedRequest) => {
    delivered.push(request);
    return answer(request);
  };
  client = new RelayClient({ clock, deliver, minDelayMs: 20, maxDelayMs: 200, ...options });
  return client;
}

async function connected(c: RelayClient = client) {
  await until(() => expect(c.status().state).toBe('connected'));
}

beforeEach(async () => {
  relay = await startTestRelay();
  delivered = [];
  answer = () => ({ status: 201 });
  clock = new ManualClock('2026-03-10T12:00:00.000Z');
});

afterEach(async () => {
  vi.restoreAllMocks();
  await client?.stop();
  await relay.close();
});

describe('pure rules', () => {
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

  it('hands the desk a relayed request\'s body and key only, in-process: none of its headers, URL or method', async () => {
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

    await until(() => expect(delivered).toHaveLength(1));
    // exactly the body and the key: nothing else of the relayed request reaches the desk
    expect(delivered[0]).toEqual({ body: signal, idempotencyKey: 'delivery-77' });
    await until(() => expect(client.status().deliveredCount).toBe(1));
    expect(client.status()).toMatchObject({
      lastEventAt: '2026-03-10T12:00:05.000Z',
      lastDeliveryAt: '2026-03-10T12:00:05.000Z',
      lastDeliveryStatus: 201,
      failedCount: 0,
      lastError: null,
    });
  });

  it('ignores event fields that name another URL, path or host', async () => {
    newClient();
    client.start(relay.channelUrl());
    await connected();
    relay.send({ host: 'evil.example', url: 'http://evil.example/x', path: '/api/v1/workspace', 'x-original-url': '/api/v1', body: { title: 'a' }, query: { path: '/x' }, timestamp: 1 });
    await until(() => expect(delivered).toHaveLength(1));
    expect(delivered[0]).toEqual({ body: { title: 'a' }, idempotencyKey: expect.stringMatching(/^relay-[0-9a-f]{40}$/) });
  });

  it('sends the same idempotency key when the relay replays an event, and a different one for a new event', async () => {
    newClient();
    client.start(relay.channelUrl());
    await connected();
    const event = { 'content-type': 'application/json', body: { title: 'same' }, query: {}, timestamp: 1_700_000_000_000 };
    relay.send(event);
    relay.send(event);
    relay.send({ ...event, timestamp: 1_700_000_000_001 });
    await until(() => expect(delivered).toHaveLength(3));
    const keys = delivered.map((r) => r.idempotencyKey);
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
    expect(delivered).toHaveLength(0);
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
    await until(() => expect(delivered).toHaveLength(1));
    expect(delivered[0].body).toEqual({ title: 'after reconnect' });
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
    await until(() => expect(delivered).toHaveLength(1));
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

  it('retries a delivery the desk failed (5xx or a throw), and does not retry one it refused (4xx)', async () => {
    newClient();
    client.start(relay.channelUrl());
    await connected();
    answer = () => ({ status: 503, message: 'database is busy' });
    relay.send({ body: { title: 'a' }, timestamp: 1 });
    await until(() => expect(client.status().failedCount).toBe(1));
    expect(delivered).toHaveLength(3);
    expect(new Set(delivered.map((r) => r.idempotencyKey)).size).toBe(1);
    expect(client.status()).toMatchObject({ lastDeliveryStatus: 503, deliveredCount: 0 });
    expect(client.status().lastError).toBe('relayed request not delivered: the desk could not store it (HTTP 503): database is busy');

    answer = () => ({ status: 422, message: 'title is required' });
    relay.send({ body: {}, timestamp: 2 });
    await until(() => expect(client.status().failedCount).toBe(2));
    expect(delivered).toHaveLength(4);
    expect(client.status().lastError).toBe('relayed request not delivered: the desk refused it (HTTP 422): title is required');

    // a throw counts as a failure and is retried; the second try stores it
    let tries = 0;
    answer = () => {
      tries += 1;
      if (tries === 1) throw new Error('SQLITE_BUSY');
      return { status: 201 };
    };
    relay.send({ body: { title: 'b' }, timestamp: 3 });
    await until(() => expect(client.status().deliveredCount).toBe(1));
    expect(tries).toBe(2);
    expect(client.status()).toMatchObject({ lastDeliveryStatus: 201, failedCount: 2 });

    answer = () => {
      throw new Error('disk I/O error');
    };
    relay.send({ body: { title: 'c' }, timestamp: 4 });
    await until(() => expect(client.status().failedCount).toBe(3));
    expect(client.status().lastError).toBe('relayed request not delivered: the desk could not store it (HTTP 500): disk I/O error');
    expect(client.status().state).toBe('connected');
  });

  it("leaves the key to the body when the relayed body carries its own idempotencyKey", async () => {
    newClient();
    client.start(relay.channelUrl());
    await connected();
    relay.send({ 'idempotency-key': 'header-key', body: { title: 'a', idempotencyKey: 'body-key' }, timestamp: 1 });
    relay.send({ 'idempotency-key': 'header-key', body: { title: 'b' }, timestamp: 1 });
    await until(() => expect(delivered).toHaveLength(2));
    expect(delivered[0]).toEqual({ body: { title: 'a', idempotencyKey: 'body-key' } });
    expect(delivered[1]).toEqual({ body: { title: 'b' }, idempotencyKey: 'header-key' });
  });

  it('takes a burst of thousands of events without dropping one, in arrival order', async () => {
    newClient();
    client.start(relay.channelUrl());
    await connected();
    const N = 3_000;
    for (let i = 0; i < N; i += 1) relay.send({ body: { title: `e${i}` }, timestamp: i });
    await until(() => expect(client.status().deliveredCount).toBe(N), 20_000);
    expect(delivered.map((r) => (r.body as { title: string }).title)).toEqual(Array.from({ length: N }, (_, i) => `e${i}`));
    expect(client.status()).toMatchObject({ failedCount: 0, lastError: null });
  });

  it('drops (and counts) what is beyond maxQueued waiting deliveries', async () => {
    newClient({ maxQueued: 2 });
    client.start(relay.channelUrl());
    await connected();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // the first delivery waits until released, so the next ones queue up behind it
    answer = async () => {
      await held;
      return { status: 201 };
    };
    for (let i = 0; i < 4; i += 1) relay.send({ body: { title: `q${i}` }, timestamp: i });
    await until(() => expect(client.status().failedCount).toBe(2));
    expect(client.status().lastError).toMatch(/more than 2 relayed requests waiting/);
    release();
    await until(() => expect(client.status().deliveredCount).toBe(2));
  });

  it('drops (and counts) what is beyond maxQueuedBytes of waiting events', async () => {
    newClient({ maxQueuedBytes: 3_000 });
    client.start(relay.channelUrl());
    await connected();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    answer = async () => {
      await held;
      return { status: 201 };
    };
    for (let i = 0; i < 3; i += 1) relay.send({ body: { title: `big ${i}`, detail: 'x'.repeat(1_200) }, timestamp: i });
    await until(() => expect(client.status().failedCount).toBe(1));
    expect(client.status().lastError).toMatch(/KiB of relayed requests waiting; one was dropped/);
    release();
    await until(() => expect(client.status().deliveredCount).toBe(2));
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
    expect(delivered).toHaveLength(1);
  });
});
