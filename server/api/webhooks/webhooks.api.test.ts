import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { DEFAULT_WEBHOOK_FAILED_AUTH_PER_MINUTE, DEFAULT_WEBHOOK_RATE_LIMIT_PER_MINUTE } from './inbound-mount';

let desk: TestDesk | null = null;

afterEach(async () => {
  await desk?.stop();
  desk = null;
});

async function start(overrides: Parameters<typeof startTestDesk>[0] = {}): Promise<TestDesk> {
  desk = await startTestDesk(overrides);
  return desk;
}

/** Posts to the inbound webhook the way a sender does: no bearer header, raw headers allowed. */
async function push(d: TestDesk, body: unknown, opts: { token?: string; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${d.url}/api/webhooks/signals/${opts.token ?? d.token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...opts.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* keep text */
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked field by field
  return { status: res.status, body: parsed as any, headers: res.headers };
}

async function snapshot(d: TestDesk) {
  const db = d.services.db;
  return {
    signals: await db.selectFrom('signals').selectAll().orderBy('id').execute(),
    activity: await db.selectFrom('activity').select('id').orderBy('id').execute(),
    keys: await db.selectFrom('idempotencyKeys').selectAll().orderBy('key').execute(),
    events: await db.selectFrom('outboxEvents').select(['id']).orderBy('id').execute(),
  };
}

async function received(d: TestDesk) {
  return d.services.db.selectFrom('activity').selectAll().where('kind', '=', 'signal.received').orderBy('id').execute();
}

describe('POST /api/webhooks/signals/{token}', () => {
  it('accepts a single signal with defaults kind other / priority normal, and logs signal.received by webhook', async () => {
    const d = await start();
    const res = await push(d, { title: 'Disk almost full' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ accepted: 1, duplicates: 0, signalIds: [expect.stringMatching(/^sig_/)] });
    expect(res.headers.get('idempotent-replayed')).toBeNull();

    const list = await d.api('GET', '/api/v1/signals');
    expect(list.body.signals).toEqual([
      expect.objectContaining({ id: res.body.signalIds[0], kind: 'other', priority: 'normal', title: 'Disk almost full', detail: '', sourceUrl: null, pinned: false }),
    ]);
    const rows = await received(d);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorLabel: 'webhook', actorUserId: null, entityType: 'signal', entityId: res.body.signalIds[0] });
    const events = await d.services.db.selectFrom('outboxEvents').selectAll().execute();
    expect(events.map((e) => [e.event, JSON.parse(e.payload).data])).toEqual([
      ['signal.created', { signalId: res.body.signalIds[0], kind: 'other', priority: 'normal', title: 'Disk almost full', sourceId: null, origin: 'webhook' }],
    ]);
  });

  it('accepts a batch (all fields), one activity row per signal, ids in order', async () => {
    const d = await start();
    const res = await push(d, {
      signals: [
        { kind: 'alert', priority: 'urgent', title: 'API down', detail: '5xx everywhere', sourceUrl: 'https://status.example.com', externalId: 'inc-1' },
        { title: 'Second' },
        { kind: 'metric', title: 'Signups +40%' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.accepted).toBe(3);
    expect(res.body.signalIds).toHaveLength(3);
    const list = (await d.api('GET', '/api/v1/signals')).body.signals;
    const byId = Object.fromEntries(list.map((s: { id: string }) => [s.id, s]));
    expect(byId[res.body.signalIds[0]]).toMatchObject({ kind: 'alert', priority: 'urgent', title: 'API down', detail: '5xx everywhere', sourceUrl: 'https://status.example.com', externalId: 'inc-1' });
    expect(byId[res.body.signalIds[1]]).toMatchObject({ kind: 'other', priority: 'normal', title: 'Second' });
    expect(byId[res.body.signalIds[2]]).toMatchObject({ kind: 'metric', priority: 'normal' });
    expect((await received(d)).map((r) => r.entityId)).toEqual(res.body.signalIds);
  });

  it('takes 100 signals in a batch and rejects 101 (and 0) as a whole', async () => {
    const d = await start();
    const many = (n: number) => ({ signals: Array.from({ length: n }, (_, i) => ({ title: `s${i}` })) });
    const before = await snapshot(d);
    for (const body of [many(101), many(0)]) {
      const res = await push(d, body);
      expect(res.status).toBe(422);
      expect(res.body.details[0].field).toBe('signals');
    }
    expect(await snapshot(d)).toEqual(before);
    const ok = await push(d, many(100));
    expect(ok.status).toBe(201);
    expect(ok.body.accepted).toBe(100);
    expect(await received(d)).toHaveLength(100);
  });

  it.each([
    ['an unknown kind', { title: 'x', kind: 'gossip' }, 'kind'],
    ['an unknown priority', { title: 'x', priority: 'p0' }, 'priority'],
    ['no title', { detail: 'x' }, 'title'],
    ['a numeric title', { title: 42 }, 'title'],
    ['a blank title', { title: '   ' }, 'title'],
    ['a 201-character title', { title: 't'.repeat(201) }, 'title'],
    ['a 5001-character detail', { title: 'x', detail: 'd'.repeat(5001) }, 'detail'],
    ['a null detail', { title: 'x', detail: null }, 'detail'],
    ['a non-http sourceUrl', { title: 'x', sourceUrl: 'mailto:a@b.c' }, 'sourceUrl'],
    ['an empty externalId', { title: 'x', externalId: '' }, 'externalId'],
    ['a 201-character externalId', { title: 'x', externalId: 'e'.repeat(201) }, 'externalId'],
    ['a 201-character idempotencyKey', { title: 'x', idempotencyKey: 'k'.repeat(201) }, 'idempotencyKey'],
    ['an extra field', { title: 'x', colour: 'red' }, 'colour'],
    ['an empty sourceId', { title: 'x', sourceId: '' }, 'sourceId'],
    ['a 101-character sourceId', { title: 'x', sourceId: 's'.repeat(101) }, 'sourceId'],
    ['a numeric sourceId', { title: 'x', sourceId: 7 }, 'sourceId'],
    ['a sourceId that names no source', { title: 'x', sourceId: 'src_missing' }, 'sourceId'],
    ['a batch item whose sourceId names no source', { signals: [{ title: 'fine' }, { title: 'x', sourceId: 'src_missing' }] }, 'signals[1].sourceId'],
    ['a batch with one bad signal', { signals: [{ title: 'fine' }, { title: '' }] }, 'signals[1].title'],
    ['a batch item with a bad kind', { signals: [{ title: 'fine', kind: 'nope' }] }, 'signals[0].kind'],
    ['a batch item that is not an object', { signals: [{ title: 'fine' }, 'text'] }, 'signals[1]'],
    ['a batch item with idempotencyKey', { signals: [{ title: 'fine', idempotencyKey: 'k' }] }, 'signals[0].idempotencyKey'],
    ['a batch with an extra field', { signals: [{ title: 'fine' }], title: 'stray' }, 'title'],
    ['signals that is not an array', { signals: { title: 'x' } }, 'signals'],
    ['an array body', [{ title: 'x' }], 'body'],
    ['a string body', '"just text"', 'body'],
  ])('rejects %s with 422 naming the field, and creates nothing', async (_what, body, field) => {
    const d = await start();
    const res = await expectRejectedUnchanged(d, () => push(d, body), { field, error: 'validation_failed' });
    expect(res.body.details).toEqual([{ field, message: expect.any(String) }]);
  });

  it('accepts both ends of the field limits', async () => {
    const d = await start();
    const res = await push(d, {
      title: 't'.repeat(200),
      detail: 'd'.repeat(5000),
      externalId: 'e'.repeat(200),
      idempotencyKey: 'k'.repeat(200),
      sourceUrl: 'http://example.com',
    });
    expect(res.status).toBe(201);
    expect((await push(d, { title: 'x', externalId: 'e', idempotencyKey: 'k' })).status).toBe(201);
  });

  it('idempotency via the header: a repeat returns the same ids, flagged, and creates nothing', async () => {
    const d = await start();
    const headers = { 'Idempotency-Key': 'delivery-42' };
    const first = await push(d, { signals: [{ title: 'a' }, { title: 'b' }] }, { headers });
    expect(first.status).toBe(201);
    const after = await snapshot(d);
    // a retried delivery (even with a different body) is answered from the stored response
    const again = await push(d, { signals: [{ title: 'a' }, { title: 'b' }, { title: 'c' }] }, { headers });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await snapshot(d)).toEqual(after);
    expect((await snapshot(d)).signals).toHaveLength(2);
    // another key is another delivery
    const other = await push(d, { title: 'a' }, { headers: { 'Idempotency-Key': 'delivery-43' } });
    expect(other.body.signalIds[0]).not.toBe(first.body.signalIds[0]);
  });

  it('idempotency via the body field, for a single signal and for a batch; header and field share one key space', async () => {
    const d = await start();
    const first = await push(d, { title: 'relayed', idempotencyKey: 'relay-1' });
    const after = await snapshot(d);
    const again = await push(d, { title: 'relayed', idempotencyKey: 'relay-1' });
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const viaHeader = await push(d, { title: 'relayed' }, { headers: { 'Idempotency-Key': 'relay-1' } });
    expect(viaHeader.body).toEqual(first.body);
    expect(await snapshot(d)).toEqual(after);

    const batch = await push(d, { signals: [{ title: 'x' }], idempotencyKey: 'relay-2' });
    const batchAgain = await push(d, { signals: [{ title: 'x' }], idempotencyKey: 'relay-2' });
    expect(batchAgain.body).toEqual(batch.body);
    expect((await snapshot(d)).signals).toHaveLength(2);
  });

  it('a header key and a different body key both count: a later delivery with either one is a repeat', async () => {
    const d = await start();
    const first = await push(d, { title: 'x', idempotencyKey: 'sender-1' }, { headers: { 'Idempotency-Key': 'relay-abc' } });
    expect(first.status).toBe(201);
    const after = await snapshot(d);
    expect(after.keys.map((k) => k.key)).toEqual(['signals-webhook:relay-abc', 'signals-webhook:sender-1']);
    const byField = await push(d, { title: 'x', idempotencyKey: 'sender-1' }, { headers: { 'Idempotency-Key': 'relay-def' } });
    const byHeader = await push(d, { title: 'x' }, { headers: { 'Idempotency-Key': 'relay-abc' } });
    for (const res of [byField, byHeader]) {
      expect(res.body).toEqual(first.body);
      expect(res.headers.get('idempotent-replayed')).toBe('true');
    }
    expect(await snapshot(d)).toEqual(after);
  });

  it('an idempotency key is 1-200 characters in the header and in the field', async () => {
    const d = await start();
    const before = await snapshot(d);
    const long = await push(d, { title: 'x' }, { headers: { 'Idempotency-Key': 'k'.repeat(201) } });
    expect(long.status).toBe(422);
    expect(long.body.details[0].field).toBe('Idempotency-Key');
    const empty = await push(d, { title: 'x', idempotencyKey: '' });
    expect(empty.status).toBe(422);
    expect(empty.body.details[0].field).toBe('idempotencyKey');
    expect(await snapshot(d)).toEqual(before);
    expect((await push(d, { title: 'x' }, { headers: { 'Idempotency-Key': 'k'.repeat(200) } })).status).toBe(201);
    expect((await push(d, { title: 'x', idempotencyKey: 'k' })).status).toBe(201);
  });

  it('a wrong token gets exactly the answer of an unknown route, whatever the body, and changes nothing', async () => {
    const d = await start();
    const unknown = await d.api('POST', '/api/no-such-route', { title: 'x' }, null);
    expect(unknown.status).toBe(404);
    const before = await snapshot(d);
    for (const body of [{ title: 'x' }, { nonsense: true }, '{not json', { title: 'x'.repeat(500) }]) {
      const res = await push(d, body, { token: 'wrong-token' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(unknown.body);
      expect(res.body).toEqual({ error: 'not_found', message: 'No such API route.' });
    }
    const near = await push(d, { title: 'x' }, { token: `${d.token}x` });
    expect(near.status).toBe(404);
    const getIt = await fetch(`${d.url}/api/webhooks/signals/wrong`);
    expect(getIt.status).toBe(404);
    expect(await getIt.json()).toEqual(unknown.body);
    expect(await snapshot(d)).toEqual(before);
  });

  it('the route alone (without the mount that checks the token) answers as an unknown route, even to the right token', async () => {
    const d = await start();
    const bare = http.createServer(buildApp(d.services)).listen(0, '127.0.0.1');
    await new Promise((resolve) => bare.once('listening', resolve));
    try {
      const before = await snapshot(d);
      // A valid body and one tsoa's validation would refuse: neither is read.
      for (const body of [{ title: 'x' }, { signals: [] }]) {
        const res = await fetch(`http://127.0.0.1:${(bare.address() as AddressInfo).port}/api/webhooks/signals/${d.token}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ error: 'not_found', message: 'No such API route.' });
      }
      expect(await snapshot(d)).toEqual(before);
    } finally {
      await new Promise((resolve) => bare.close(resolve));
    }
  });

  it('needs no bearer header and ignores one', async () => {
    const d = await start();
    const res = await push(d, { title: 'x' }, { headers: { authorization: 'Bearer nonsense' } });
    expect(res.status).toBe(201);
  });

  it('reads the body as JSON whatever its Content-Type (plain curl -d, text/plain, none)', async () => {
    const d = await start();
    // node:http, so that no Content-Type at all is really sent (fetch would add text/plain)
    const send = (body: string, contentType?: string) =>
      new Promise<{ status: number; body: { error?: string } }>((resolve, reject) => {
        const headers: Record<string, string | number> = { 'content-length': Buffer.byteLength(body) };
        if (contentType) headers['content-type'] = contentType;
        const req = http.request(`${d.url}/api/webhooks/signals/${d.token}`, { method: 'POST', headers }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        });
        req.on('error', reject);
        req.end(body);
      });
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'application/vnd.acme+json', undefined]) {
      const res = await send(JSON.stringify({ title: `sent as ${type ?? 'nothing'}` }), type);
      expect(res.status, String(type)).toBe(201);
    }
    expect((await received(d)).map((r) => r.detail)).toEqual([
      'Signal received through the inbound webhook: sent as application/x-www-form-urlencoded',
      'Signal received through the inbound webhook: sent as text/plain',
      'Signal received through the inbound webhook: sent as application/vnd.acme+json',
      'Signal received through the inbound webhook: sent as nothing',
    ]);
    // a form body that is not JSON is malformed, not a missing title
    const before = await snapshot(d);
    const form = await send('title=Hello', 'application/x-www-form-urlencoded');
    expect(form.status).toBe(400);
    expect(form.body.error).toBe('malformed_body');
    expect(await snapshot(d)).toEqual(before);
  });

  it('a signal may name its source: listed under it, fresh signal from it (ends a quietness ack)', async () => {
    const d = await start();
    const manual = (await d.api('POST', '/api/v1/sources', { type: 'manual', label: 'Zapier' })).body.id as string;
    const feed = (await d.api('POST', '/api/v1/sources', { type: 'rss', label: 'Acme feed', url: 'http://127.0.0.1:9/feed' })).body.id as string;
    const acked = await d.api('POST', `/api/v1/sources/${feed}/quietness-ack`);
    expect(acked.body.quietnessAckedAt).toBe(d.clock.now().toISOString());
    d.clock.advanceMinutes(5);

    const res = await push(d, { signals: [{ title: 'From Zapier', sourceId: manual }, { title: 'About Acme', sourceId: feed }, { title: 'No source' }] });
    expect(res.status).toBe(201);
    const [fromZapier, aboutAcme, loose] = res.body.signalIds as string[];
    const bySource = (await d.api('GET', `/api/v1/signals?sourceId=${manual}`)).body.signals;
    expect(bySource).toEqual([expect.objectContaining({ id: fromZapier, sourceId: manual, sourceLabel: 'Zapier' })]);
    const list = (await d.api('GET', '/api/v1/signals')).body.signals;
    expect(list.find((s: { id: string }) => s.id === loose)).toMatchObject({ sourceId: null, sourceLabel: null });
    expect(list.find((s: { id: string }) => s.id === aboutAcme)).toMatchObject({ sourceId: feed, sourceLabel: 'Acme feed' });

    const now = d.clock.now().toISOString();
    expect((await d.api('GET', `/api/v1/sources/${feed}`)).body).toMatchObject({ lastSignalAt: now, quietnessAckedAt: null, quietnessAckExpiresAt: null });
    expect((await d.api('GET', `/api/v1/sources/${manual}`)).body.lastSignalAt).toBe(now);
    expect((await received(d)).map((r) => r.detail)).toEqual([
      'Signal received through the inbound webhook for Zapier: From Zapier',
      'Signal received through the inbound webhook for Acme feed: About Acme',
      'Signal received through the inbound webhook: No source',
    ]);
  });

  it('a signal naming an unknown source rejects the whole batch: no signal, no activity, no source touched', async () => {
    const d = await start();
    const manual = (await d.api('POST', '/api/v1/sources', { type: 'manual', label: 'Zapier' })).body.id as string;
    const sourcesBefore = await d.services.db.selectFrom('sources').selectAll().execute();
    const before = await snapshot(d);
    const res = await push(d, { signals: [{ title: 'ok', sourceId: manual }, { title: 'bad', sourceId: 'src_gone' }], idempotencyKey: 'd-1' });
    expect(res.status).toBe(422);
    expect(res.body.details).toEqual([{ field: 'signals[1].sourceId', message: 'Is not a source of this desk.' }]);
    expect(await snapshot(d)).toEqual(before);
    expect(await d.services.db.selectFrom('sources').selectAll().execute()).toEqual(sourcesBefore);
    // the key was not used up: the corrected delivery goes through
    const fixed = await push(d, { signals: [{ title: 'ok', sourceId: manual }, { title: 'bad' }], idempotencyKey: 'd-1' });
    expect(fixed.status).toBe(201);
    expect(fixed.body.accepted).toBe(2);
  });

  it('answers 400 to malformed JSON and 413 to a body over 256kb, creating nothing', async () => {
    const d = await start();
    const before = await snapshot(d);
    const bad = await push(d, '{"title": ');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('malformed_body');
    // ~300kb of valid JSON: the inbound limit is below the 1mb of /api/v1
    const big = await push(d, { signals: Array.from({ length: 60 }, () => ({ title: 'x', detail: 'd'.repeat(5000) })) });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ error: 'body_too_large', message: 'The request body is larger than 256kb.' });
    expect(await snapshot(d)).toEqual(before);
    // just under the limit passes
    const under = await push(d, { signals: Array.from({ length: 50 }, () => ({ title: 'x', detail: 'd'.repeat(5000) })) });
    expect(under.status).toBe(201);
  });

  it('limits an authenticated sender per token: the request over the limit gets 429 in the one error shape', async () => {
    const d = await start({ webhookRateLimitPerMinute: 3 });
    for (let i = 0; i < 3; i++) {
      const ok = await push(d, { title: `s${i}` });
      expect(ok.status).toBe(201);
      expect(ok.headers.get('ratelimit-policy')).toMatch(/q=3/);
    }
    const before = await snapshot(d);
    const limited = await push(d, { title: 'one too many' });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: 'rate_limited', message: expect.stringContaining('at most 3 per minute per token') });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await snapshot(d)).toEqual(before);
    // the limit is the webhook's only: the bearer API is not affected
    expect((await d.api('GET', '/api/v1/signals')).status).toBe(200);
  });

  it('defaults to 6000 authenticated requests per minute', async () => {
    const d = await start();
    const res = await push(d, { title: 'x' });
    expect(res.headers.get('ratelimit-policy')).toMatch(/q=6000/);
  });

  it('120 wrong-token posts do not make the next correct post 429; past 20 failures a minute the address\'s wrong tokens get 429', async () => {
    const d = await start();
    const before = await snapshot(d);
    const statuses: number[] = [];
    for (let i = 0; i < 120; i++) statuses.push((await push(d, { title: 'guess' }, { token: `guess-${i}-${'x'.repeat(20)}` })).status);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(404));
    expect(new Set(statuses.slice(20))).toEqual(new Set([429]));
    const refused = await push(d, { title: 'guess' }, { token: 'guess-again-xxxxxxxxxxxxxxxx' });
    expect(refused.body).toEqual({ error: 'rate_limited', message: expect.stringContaining('failed webhook token attempts') });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // a wrong token's 404 carries no rate-limit headers: it stays the answer of an unknown route
    const fresh = await start();
    const wrong = await push(fresh, { title: 'x' }, { token: 'wrong-token-xxxxxxxxxxxx' });
    expect(wrong.status).toBe(404);
    expect(wrong.headers.get('ratelimit-policy')).toBeNull();
    await fresh.stop();
    desk = d;
    expect(await snapshot(d)).toEqual(before);

    const ok = await push(d, { title: 'the real sender' });
    expect(ok.status).toBe(201);
    expect(ok.body.accepted).toBe(1);
  });

  it('counts every loopback address as one client for failed attempts (no dodging the limit via 127.0.0.2)', async () => {
    const d = await start({ webhookFailedAuthPerMinute: 2 });
    const from = (localAddress: string, token: string) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify({ title: 'x' });
        const req = http.request(
          `${d.url}/api/webhooks/signals/${token}`,
          { method: 'POST', localAddress, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    expect(await from('127.0.0.1', 'wrong-1-xxxxxxxxxxxxxxxx')).toBe(404);
    expect(await from('127.0.0.2', 'wrong-2-xxxxxxxxxxxxxxxx')).toBe(404);
    expect(await from('127.0.0.3', 'wrong-3-xxxxxxxxxxxxxxxx')).toBe(429);
    expect(await from('127.0.0.4', 'wrong-4-xxxxxxxxxxxxxxxx')).toBe(429);
    expect(await from('127.0.0.5', d.token)).toBe(201);
  });

  it('is described in the OpenAPI document: both payload shapes, the key header and every response', async () => {
    const d = await start();
    const doc = (await d.api('GET', '/api/v1/openapi.json', undefined, null)).body;
    const op = doc.paths['/api/webhooks/signals/{token}'].post;
    expect(op.security).toEqual([]);
    expect(op.requestBody.content['application/json'].schema.anyOf).toEqual([
      { $ref: '#/components/schemas/InboundSignal' },
      { $ref: '#/components/schemas/InboundSignalBatch' },
    ]);
    expect(op.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(['path:token', 'header:Idempotency-Key']);
    expect(Object.keys(op.responses).sort()).toEqual(['201', '400', '404', '413', '422', '429']);
    // the limits the description states are the mount's own
    const text = (op.description as string).replace(/\s+/g, ' ');
    expect(text).toContain(`may make ${DEFAULT_WEBHOOK_RATE_LIMIT_PER_MINUTE} requests per minute per token (DESK_WEBHOOK_RATE_LIMIT_PER_MINUTE changes it`);
    expect(text).toContain(`after ${DEFAULT_WEBHOOK_FAILED_AUTH_PER_MINUTE} wrong-token attempts in a minute from one client address`);
    expect(text).toContain('dski_');
    expect(op.responses['201'].headers['Idempotent-Replayed']).toBeDefined();
    expect(doc.components.schemas.InboundSignalBatch.properties.signals.maxItems).toBe(100);
    expect(doc.components.schemas.SignalKind.enum).toEqual(['news', 'mention', 'review', 'message', 'alert', 'metric', 'note', 'other']);
    expect(doc.components.schemas.SignalPriority.enum).toEqual(['low', 'normal', 'high', 'urgent']);
  });
});
