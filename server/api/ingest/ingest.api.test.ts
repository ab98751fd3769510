import { afterEach, describe, expect, it } from 'vitest';
import { hashIngestToken, MAX_INGEST_TOKENS_PER_SOURCE } from '../../domain/ingest/rules';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { createFeedSource, createManualSource } from '../../testing/fixtures/sources';

let desk: TestDesk | null = null;
afterEach(async () => {
  await desk?.stop();
  desk = null;
});

async function start(overrides: Parameters<typeof startTestDesk>[0] = {}): Promise<TestDesk> {
  desk = await startTestDesk(overrides);
  return desk;
}

/** Posts to the inbound webhook with `token` in the path, as a sender does (no bearer header). */
async function push(d: TestDesk, token: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${d.url}/api/webhooks/signals/${token}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked field by field
  return { status: res.status, body: (text ? JSON.parse(text) : null) as any, headers: res.headers };
}

async function createToken(d: TestDesk, sourceId: string, body: unknown = {}) {
  const res = await d.api('POST', `/api/v1/sources/${sourceId}/ingest-tokens`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; token: string; webhookUrl: string; label: string; tokenHint: string; sourceId: string };
}

describe('scoped ingest URLs', () => {
  it('creates one for a source: the token and URL shown once, only a SHA-256 hash stored, logged and emitted without the token', async () => {
    const d = await start();
    const source = await createManualSource(d, { label: 'Zapier' });
    const res = await d.api('POST', `/api/v1/sources/${source.id}/ingest-tokens`, { label: '  Zap: reviews  ' });
    expect(res.status).toBe(201);
    const created = res.body;
    expect(created).toEqual({
      id: expect.stringMatching(/^ing_/),
      sourceId: source.id,
      label: 'Zap: reviews',
      tokenHint: `dski_…${created.token.slice(-4)}`,
      createdAt: d.clock.now().toISOString(),
      lastUsedAt: null,
      token: expect.stringMatching(/^dski_[A-Za-z0-9_-]{43}$/),
      webhookUrl: `${d.url}/api/webhooks/signals/${created.token}`,
    });
    const rows = await d.services.db.selectFrom('ingestTokens').selectAll().execute();
    expect(rows).toEqual([expect.objectContaining({ id: created.id, tokenHash: hashIngestToken(created.token), revokedAt: null })]);
    // the token is nowhere in the database: not in the row, the log or the outbox
    const dump = JSON.stringify([rows, await d.services.db.selectFrom('activity').selectAll().execute(), await d.services.db.selectFrom('outboxEvents').selectAll().execute()]);
    expect(dump).not.toContain(created.token);
    const activity = (await d.api('GET', '/api/v1/activity?kind=ingest_token.created')).body.activities;
    expect(activity.map((a: { detail: string }) => a.detail)).toEqual([`Ingest URL created for Zapier: Zap: reviews (${created.tokenHint})`]);
    const events = await d.services.db.selectFrom('outboxEvents').selectAll().where('event', '=', 'ingest_token.created').execute();
    expect(events.map((e) => JSON.parse(e.payload).data)).toEqual([{ sourceId: source.id, label: 'Zapier', tokenId: created.id, tokenLabel: 'Zap: reviews' }]);

    // listed without secrets; the label defaults to the source's
    const second = await createToken(d, source.id);
    expect(second.label).toBe('Zapier');
    const list = await d.api('GET', `/api/v1/sources/${source.id}/ingest-tokens`);
    expect(list.status).toBe(200);
    expect(list.body.ingestTokens.map((t: { id: string }) => t.id)).toEqual([second.id, created.id]);
    expect(JSON.stringify(list.body)).not.toContain(created.token.slice(5, 30));
    for (const t of list.body.ingestTokens) expect(Object.keys(t).sort()).toEqual(['createdAt', 'id', 'label', 'lastUsedAt', 'sourceId', 'tokenHint']);
  });

  it('pushes signals attributed to its source, with the same body and idempotency rules', async () => {
    const d = await start();
    const source = await createManualSource(d, { label: 'Zapier' });
    const other = await createManualSource(d, { label: 'Other' });
    const { token, id } = await createToken(d, source.id);
    d.clock.advanceMinutes(3);
    const one = await push(d, token, { title: 'New 2-star review', kind: 'review' }, { 'Idempotency-Key': 'zap-1' });
    expect(one.status).toBe(201);
    expect(one.body.accepted).toBe(1);
    const batch = await push(d, token, { signals: [{ title: 'a', sourceId: source.id }, { title: 'b' }] });
    expect(batch.status).toBe(201);
    const signals = (await d.api('GET', `/api/v1/signals?sourceId=${source.id}`)).body.signals;
    expect(signals.map((s: { title: string }) => s.title).sort()).toEqual(['New 2-star review', 'a', 'b']);
    expect(signals.every((s: { sourceId: string; sourceLabel: string }) => s.sourceId === source.id && s.sourceLabel === 'Zapier')).toBe(true);
    const received = (await d.api('GET', '/api/v1/activity?kind=signal.received')).body.activities.map((a: { detail: string }) => a.detail);
    expect(received).toContain('Signal received through an ingest URL for Zapier: New 2-star review');
    // fresh signal from the source, and the token shows when it was last used
    expect((await d.api('GET', `/api/v1/sources/${source.id}`)).body.lastSignalAt).toBe(d.clock.now().toISOString());
    expect((await d.api('GET', `/api/v1/sources/${source.id}/ingest-tokens`)).body.ingestTokens[0]).toMatchObject({ id, lastUsedAt: d.clock.now().toISOString() });

    // a repeat with the same key replays and creates nothing
    const again = await push(d, token, { title: 'New 2-star review', kind: 'review' }, { 'Idempotency-Key': 'zap-1' });
    expect(again.body).toEqual(one.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    // the scoped URL's keys are its own: the same key through the workspace URL is another delivery
    const viaWorkspace = await push(d, d.token, { title: 'elsewhere' }, { 'Idempotency-Key': 'zap-1' });
    expect(viaWorkspace.status).toBe(201);
    expect(viaWorkspace.body.signalIds).not.toEqual(one.body.signalIds);
    expect((await d.api('GET', `/api/v1/signals?sourceId=${other.id}`)).body.signals).toEqual([]);
  });

  it('refuses a body naming another source with 422, and creates nothing', async () => {
    const d = await start();
    const source = await createManualSource(d, { label: 'Zapier' });
    const other = await createManualSource(d, { label: 'Other' });
    const { token } = await createToken(d, source.id);
    await expectRejectedUnchanged(d, () => push(d, token, { title: 'x', sourceId: other.id }), { field: 'sourceId' });
    await expectRejectedUnchanged(d, () => push(d, token, { signals: [{ title: 'ok' }, { title: 'x', sourceId: 'src_nope' }] }), { field: 'signals[1].sourceId' });
    // the body rules are the webhook's
    await expectRejectedUnchanged(d, () => push(d, token, { title: '' }), { field: 'title' });
  });

  it('a revoked token, a wrong one and one whose source was deleted all get the 404 of an unknown route, changing nothing', async () => {
    const d = await start();
    const source = await createManualSource(d, { label: 'Zapier' });
    const feed = await createFeedSource(d, 'http://127.0.0.1:9/feed');
    const revoked = await createToken(d, source.id, { label: 'old' });
    const kept = await createToken(d, source.id, { label: 'kept' });
    const orphan = await createToken(d, feed.id);
    expect((await push(d, revoked.token, { title: 'before revoke' })).status).toBe(201);

    const res = await d.api('DELETE', `/api/v1/ingest-tokens/${revoked.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: revoked.id, sourceId: source.id, label: 'old' });
    expect(res.body.token).toBeUndefined();
    expect((await d.api('GET', '/api/v1/activity?kind=ingest_token.revoked')).body.activities[0].detail).toBe(`Ingest URL revoked for Zapier: old (${revoked.tokenHint})`);
    expect((await d.api('GET', `/api/v1/sources/${source.id}/ingest-tokens`)).body.ingestTokens.map((t: { id: string }) => t.id)).toEqual([kept.id]);
    await d.api('POST', '/api/v1/sources/bulk', { action: 'delete', sourceIds: [feed.id] });

    const unknown = await d.api('POST', '/api/no-such-route', { title: 'x' }, null);
    for (const token of [revoked.token, orphan.token, `${kept.token}x`, 'dski_guess', kept.token.slice(0, -1)]) {
      const refused = await expectRejectedUnchanged(d, () => push(d, token, { title: 'after' }), { status: 404 });
      expect(refused.body).toEqual(unknown.body);
    }
    expect((await push(d, kept.token, { title: 'kept works' })).status).toBe(201);
    // revoking twice, or an unknown id: 404
    await expectRejectedUnchanged(d, { method: 'DELETE', path: `/api/v1/ingest-tokens/${revoked.id}` }, { status: 404, error: 'ingest_token_not_found' });
    await expectRejectedUnchanged(d, { method: 'DELETE', path: '/api/v1/ingest-tokens/ing_nope' }, { status: 404, error: 'ingest_token_not_found' });
  });

  it('never opens the bearer API, and has its own webhook rate-limit budget', async () => {
    const d = await start({ webhookRateLimitPerMinute: 2 });
    const source = await createManualSource(d);
    const { token } = await createToken(d, source.id);
    for (const [method, path, body] of [
      ['GET', '/api/v1/workspace'],
      ['GET', '/api/v1/signals'],
      ['POST', '/api/v1/signals', { kind: 'note', priority: 'normal', title: 'x', detail: '' }],
      ['POST', '/api/v1/sources', { type: 'file', label: 'x', url: '/etc/passwd' }],
      ['POST', `/api/v1/sources/${source.id}/ingest-tokens`, {}],
      ['POST', '/api/v1/workspace/token/rotate'],
      ['GET', '/api/v1/integrations/inbound'],
    ] as const) {
      await expectRejectedUnchanged(d, { method, path, body, token }, { status: 401, error: 'unauthorized' });
    }
    // the workspace token's budget and the scoped token's are apart
    expect((await push(d, d.token, { title: 'w1' })).status).toBe(201);
    expect((await push(d, d.token, { title: 'w2' })).status).toBe(201);
    expect((await push(d, d.token, { title: 'w3' })).status).toBe(429);
    expect((await push(d, token, { title: 's1' })).status).toBe(201);
    expect((await push(d, token, { title: 's2' })).status).toBe(201);
    expect((await push(d, token, { title: 's3' })).status).toBe(429);
  });

  it('checks the source, the label and the cap of 10 active URLs per source; rejections change nothing', async () => {
    const d = await start();
    const source = await createManualSource(d);
    await expectRejectedUnchanged(d, { method: 'POST', path: '/api/v1/sources/src_nope/ingest-tokens', body: {} }, { status: 404, error: 'source_not_found' });
    await expectRejectedUnchanged(d, { method: 'GET', path: '/api/v1/sources/src_nope/ingest-tokens' }, { status: 404, error: 'source_not_found' });
    for (const label of ['', '   ', 'x'.repeat(101), 42]) {
      await expectRejectedUnchanged(d, { method: 'POST', path: `/api/v1/sources/${source.id}/ingest-tokens`, body: { label } }, { field: 'label' });
    }
    await expectRejectedUnchanged(d, { method: 'POST', path: `/api/v1/sources/${source.id}/ingest-tokens`, body: { label: 'x', extra: 1 } }, { field: 'extra' });
    expect((await d.api('POST', `/api/v1/sources/${source.id}/ingest-tokens`, { label: 'x'.repeat(100) })).status).toBe(201);
    const made = [];
    for (let i = 1; i < 10; i++) made.push(await createToken(d, source.id, { label: `t${i}` }));
    await expectRejectedUnchanged(d, { method: 'POST', path: `/api/v1/sources/${source.id}/ingest-tokens`, body: {} }, { status: 409, error: 'limit_reached' });
    // a revoked one frees its place
    expect((await d.api('DELETE', `/api/v1/ingest-tokens/${made[0].id}`)).status).toBe(200);
    expect((await d.api('POST', `/api/v1/sources/${source.id}/ingest-tokens`, {})).status).toBe(201);    // the cap the API document states is the domain's
    const doc = (await d.api('GET', '/api/v1/openapi.json', undefined, null)).body;
    expect(doc.paths['/api/v1/sources/{id}/ingest-tokens'].post.description).toContain(`At most ${MAX_INGEST_TOKENS_PER_SOURCE} active URLs per source`);
    expect(doc.paths['/api/v1/sources/{id}/ingest-tokens'].post.responses['409'].description).toContain(`${MAX_INGEST_TOKENS_PER_SOURCE} active ingest URLs`);
  });

  it('is bearer-only', async () => {
    const d = await start();
    const source = await createManualSource(d);
    for (const [method, path] of [
      ['GET', `/api/v1/sources/${source.id}/ingest-tokens`],
      ['POST', `/api/v1/sources/${source.id}/ingest-tokens`],
      ['DELETE', '/api/v1/ingest-tokens/ing_x'],
    ]) {
      await expectRejectedUnchanged(d, { method, path, body: method === 'POST' ? {} : undefined, token: null }, { status: 401 });
    }
  });
});
