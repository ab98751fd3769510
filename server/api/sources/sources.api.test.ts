import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../core/clock';
import { FIXTURES, fixture, startFeedServer, type FeedServer } from '../../testing/fakes/feed-server';
import { FEED_POLL_JOB } from '../../jobs/feed-poller';
import { SOURCE_PAUSE_EXPIRY_JOB, SOURCE_QUIETNESS_JOB } from '../../jobs/source-jobs';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { createFeedSource, createManualSource, insertSourceRow, type NewSource } from '../../testing/fixtures/sources';

/** API tests of the spec's Sources table (without the cost rows), quietness, scheduled pauses and file import. */

let feeds: FeedServer;
let desk: TestDesk;
let tmp: string;
const EMPTY_RSS = '<?xml version="1.0"?><rss version="2.0"><channel><title>Quiet feed</title></channel></rss>';

beforeAll(async () => {
  feeds = await startFeedServer();
  feeds.set('/rss', { body: fixture('rss.xml') });
  feeds.set('/empty', { body: EMPTY_RSS });
  feeds.set('/html', { body: fixture('not-a-feed.html'), contentType: 'text/html' });
  feeds.set('/500', { status: 500 });
});
afterAll(async () => {
  await feeds.close();
});
beforeEach(async () => {
  desk = await startTestDesk();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-sources-'));
});
afterEach(async () => {
  await desk.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const api = (method: string, p: string, body?: unknown) => desk.api(method, `/api/v1${p}`, body);
const db = () => desk.services.db;
const sourceRows = () => db().selectFrom('sources').selectAll().orderBy('id').execute();
const activityRows = () => db().selectFrom('activity').selectAll().orderBy('id').execute();
const events = (name: string) => db().selectFrom('outboxEvents').selectAll().where('event', '=', name).orderBy('id').execute();
const activityOf = async (kind: string) => (await activityRows()).filter((a) => a.kind === kind);

let feedN = 0;
/** A feed source; by default reading its own copy of an empty feed, so quietness tests control signals. */
async function feedSource(label = 'Acme feed', extra: Partial<NewSource> = {}, body = EMPTY_RSS) {
  const p = `/f${++feedN}`;
  feeds.set(p, { body });
  const { id } = await createFeedSource(desk, feeds.url(p), { label, ...extra });
  return { id, path: p };
}

async function manualSource(label = 'Inbox') {
  return (await createManualSource(desk, { label })).id;
}

/** Rejected with `status` (422 by default) naming `field`; every table unchanged. */
async function expectRejected(method: string, p: string, body: unknown, field: string | null, status = 422) {
  return expectRejectedUnchanged(desk, { method, path: `/api/v1${p}`, body }, { status, field: field ?? undefined });
}

describe('POST /sources', () => {
  it('adds feed, manual and file sources with their starting state', async () => {
    const res = await api('POST', '/sources', { type: 'rss', label: '  Acme news  ', url: feeds.url('/rss'), notes: 'press page' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: 'rss',
      label: 'Acme news',
      url: feeds.url('/rss'),
      notes: 'press page',
      status: 'pending',
      paused: false,
      pausedUntilAt: null,
      pollIntervalMinutes: null,
      pollGating: { intervalMinutes: 30, isOverride: false, lastSyncedAt: null, isDueNow: true, minutesUntilDue: 0 },
      includeKeywords: [],
      excludeKeywords: [],
      quietnessAckedAt: null,
      import: null,
    });
    expect(res.body.id).toMatch(/^src_/);
    const manual = await api('POST', '/sources', { type: 'manual', label: 'Inbox' });
    expect(manual.body).toMatchObject({ status: 'connected', url: null, pollGating: null });
    const created = await activityOf('source.created');
    expect(created.map((a) => a.entityId)).toEqual([res.body.id, manual.body.id]);
    expect(created[0].actorLabel).toBe('Owner');
    expect((await events('source.created')).map((e) => JSON.parse(e.payload).data)).toEqual([
      { sourceId: res.body.id, label: 'Acme news', type: 'rss' },
      { sourceId: manual.body.id, label: 'Inbox', type: 'manual' },
    ]);
  });

  it('takes a label of 80 characters and rejects 81 or blank', async () => {
    expect((await api('POST', '/sources', { type: 'manual', label: 'x'.repeat(80) })).status).toBe(201);
    await expectRejected('POST', '/sources', { type: 'manual', label: 'x'.repeat(81) }, 'label');
    await expectRejected('POST', '/sources', { type: 'manual', label: '   ' }, 'label');
    await expectRejected('POST', '/sources', { type: 'manual' }, 'label');
  });

  it('rejects an unknown type, a missing or non-http url for feed types, and unknown fields', async () => {
    await expectRejected('POST', '/sources', { type: 'twitter', label: 'X' }, 'type');
    for (const type of ['rss', 'review_site', 'linkedin']) {
      await expectRejected('POST', '/sources', { type, label: 'Feed' }, 'url');
      await expectRejected('POST', '/sources', { type, label: 'Feed', url: 'ftp://acme.example/feed' }, 'url');
    }
    await expectRejected('POST', '/sources', { type: 'rss', label: 'Feed', url: 'not a url' }, 'url');
    await expectRejected('POST', '/sources', { type: 'rss', label: 'Feed', url: feeds.url('/rss'), colour: 'red' }, 'colour');
  });

  it('checks pollIntervalMinutes 1-1440 and keywords (20 of 1-60) on create', async () => {
    const url = (p: string) => feeds.url(p);
    await expectRejected('POST', '/sources', { type: 'rss', label: 'F', url: url('/a'), pollIntervalMinutes: 0 }, 'pollIntervalMinutes');
    await expectRejected('POST', '/sources', { type: 'rss', label: 'F', url: url('/a'), pollIntervalMinutes: 1441 }, 'pollIntervalMinutes');
    await expectRejected('POST', '/sources', { type: 'manual', label: 'F', pollIntervalMinutes: 60 }, 'pollIntervalMinutes');
    const kw = (k: number) => Array.from({ length: k }, (_, i) => `kw${i}`);
    await expectRejected('POST', '/sources', { type: 'rss', label: 'F', url: url('/a'), includeKeywords: kw(21) }, 'includeKeywords');
    await expectRejected('POST', '/sources', { type: 'rss', label: 'F', url: url('/a'), excludeKeywords: ['x'.repeat(61)] }, 'excludeKeywords[0]');
    expect((await api('POST', '/sources', { type: 'rss', label: 'F', url: url('/b'), pollIntervalMinutes: 1, includeKeywords: kw(20) })).body).toMatchObject({
      pollIntervalMinutes: 1,
      includeKeywords: kw(20),
    });
    expect((await api('POST', '/sources', { type: 'rss', label: 'F', url: url('/c'), pollIntervalMinutes: 1440, excludeKeywords: ['x'.repeat(60)] })).status).toBe(201);
  });

  it('keeps notes of 2000 characters (trimmed; blank is null) and rejects 2001', async () => {
    const res = await api('POST', '/sources', { type: 'manual', label: 'A', notes: 'n'.repeat(2000) });
    expect(res.status).toBe(201);
    expect(res.body.notes).toBe('n'.repeat(2000));
    expect((await api('GET', `/sources/${res.body.id}`)).body.notes).toBe('n'.repeat(2000));
    expect((await api('POST', '/sources', { type: 'manual', label: 'B', notes: '  kept  ' })).body.notes).toBe('kept');
    expect((await api('POST', '/sources', { type: 'manual', label: 'C', notes: '   ' })).body.notes).toBeNull();
    expect((await api('POST', '/sources', { type: 'manual', label: 'D', notes: null })).body.notes).toBeNull();
    await expectRejected('POST', '/sources', { type: 'manual', label: 'E', notes: 'n'.repeat(2001) }, 'notes');
  });

  it('refuses the same type and url twice (409)', async () => {
    await feedSource('A', { url: feeds.url('/rss') });
    const res = await expectRejected('POST', '/sources', { type: 'rss', label: 'B', url: feeds.url('/rss') }, null, 409);
    expect(res.body.error).toBe('source_exists');
  });
});

describe('GET /sources', () => {
  it('lists newest first with pollGating (null for manual) and honours limit 1-200', async () => {
    const a = await feedSource('A', { pollIntervalMinutes: 60 });
    desk.clock.advanceMinutes(1);
    const m = await manualSource();
    const res = await api('GET', '/sources');
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    expect(res.body.sources.map((s: { id: string }) => s.id)).toEqual([m, a.id]);
    expect(res.body.sources[0].pollGating).toBeNull();
    expect(res.body.sources[1]).toMatchObject({ pollIntervalMinutes: 60, pollGating: { intervalMinutes: 60, isOverride: true } });
    expect((await api('GET', '/sources?limit=1')).body.sources).toHaveLength(1);
    expect((await api('GET', '/sources?limit=200')).status).toBe(200);
    await expectRejected('GET', '/sources?limit=0', undefined, 'limit');
    await expectRejected('GET', '/sources?limit=201', undefined, 'limit');
  });

  it('returns 50 sources by default', async () => {
    for (let i = 0; i < 51; i += 1) await manualSource(`M${i}`);
    const res = await api('GET', '/sources');
    expect(res.body.total).toBe(51);
    expect(res.body.sources).toHaveLength(50);
    expect((await api('GET', '/sources?limit=51')).body.sources).toHaveLength(51);
  });

  it('pages through more than 200 sources with nextCursor, each once, newest first', async () => {
    // 3 batches at 3 instants, so the order has ties on createdAt (broken by id) and steps between them
    const now = desk.clock.now().toISOString();
    const rows = Array.from({ length: 205 }, (_, i) => ({
      id: `src_${String(i).padStart(4, '0')}`,
      type: 'manual' as const,
      label: `M${i}`,
      url: null,
      createdAt: new Date(new Date(now).getTime() + (i % 3) * MINUTE_MS).toISOString(),
    }));
    for (const row of rows) await insertSourceRow(desk, row);
    const expected = [...rows].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id)).map((r) => r.id);

    const first = await api('GET', '/sources?limit=200');
    expect(first.body.sources).toHaveLength(200);
    expect(first.body.total).toBe(205);
    expect(typeof first.body.nextCursor).toBe('string');
    const second = await api('GET', `/sources?limit=200&cursor=${first.body.nextCursor}`);
    expect(second.body.sources).toHaveLength(5);
    expect(second.body.nextCursor).toBeNull();
    expect([...first.body.sources, ...second.body.sources].map((s: { id: string }) => s.id)).toEqual(expected);

    // default pages of 50: five pages, the last one short and without a cursor
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { body: { sources: { id: string }[]; nextCursor: string | null } } = await api('GET', `/sources${cursor ? `?cursor=${cursor}` : ''}`);
      seen.push(...res.body.sources.map((s) => s.id));
      cursor = res.body.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(5);
    expect(seen).toEqual(expected);
  });

  it('rejects a cursor it did not serve (422 naming cursor)', async () => {
    await manualSource();
    await expectRejected('GET', '/sources?cursor=bm9wZQ', undefined, 'cursor');
    await expectRejected('GET', `/sources?cursor=${Buffer.from('["a"]').toString('base64url')}`, undefined, 'cursor');
  });

  it('answers 404 for an unknown id and 401 without the token', async () => {
    expect((await api('GET', '/sources/src_missing')).status).toBe(404);
    expect((await desk.api('GET', '/api/v1/sources', undefined, null)).status).toBe(401);
  });
});

describe('PATCH /sources/{id}', () => {
  it('changes exactly one field per request and logs it', async () => {
    const { id } = await feedSource('Acme');
    expect((await api('PATCH', `/sources/${id}`, { label: 'y'.repeat(80) })).body.label).toBe('y'.repeat(80));
    expect((await api('PATCH', `/sources/${id}`, { status: 'error' })).body.status).toBe('error');
    expect((await api('PATCH', `/sources/${id}`, { pollIntervalMinutes: 1 })).body.pollIntervalMinutes).toBe(1);
    expect((await api('PATCH', `/sources/${id}`, { pollIntervalMinutes: 1440 })).body.pollGating).toMatchObject({ intervalMinutes: 1440, isOverride: true });
    const reverted = await api('PATCH', `/sources/${id}`, { pollIntervalMinutes: null });
    expect(reverted.body).toMatchObject({ pollIntervalMinutes: null, pollGating: { intervalMinutes: 30, isOverride: false } });
    expect((await activityOf('source.renamed'))).toHaveLength(1);
    expect((await activityOf('source.status'))).toHaveLength(1);
    expect((await activityOf('source.cadence'))).toHaveLength(3);
    // the same value again changes nothing and logs nothing
    const count = (await activityRows()).length;
    expect((await api('PATCH', `/sources/${id}`, { status: 'error' })).status).toBe(200);
    expect((await activityRows()).length).toBe(count);
  });

  it('rejects zero fields, two fields, bad values and unknown ids, changing nothing', async () => {
    const { id } = await feedSource('Acme');
    await expectRejected('PATCH', `/sources/${id}`, {}, 'body');
    await expectRejected('PATCH', `/sources/${id}`, { label: 'New', status: 'connected' }, 'status');
    await expectRejected('PATCH', `/sources/${id}`, { label: 'New', pollIntervalMinutes: null }, 'pollIntervalMinutes');
    await expectRejected('PATCH', `/sources/${id}`, { label: 'x'.repeat(81) }, 'label');
    await expectRejected('PATCH', `/sources/${id}`, { label: '  ' }, 'label');
    await expectRejected('PATCH', `/sources/${id}`, { pollIntervalMinutes: 0 }, 'pollIntervalMinutes');
    await expectRejected('PATCH', `/sources/${id}`, { pollIntervalMinutes: 1441 }, 'pollIntervalMinutes');
    await expectRejected('PATCH', `/sources/${id}`, { pollIntervalMinutes: 2.5 }, 'pollIntervalMinutes');
    await expectRejected('PATCH', `/sources/${id}`, { status: 'stopped' }, 'status');
    await expectRejected('PATCH', `/sources/${id}`, { status: 'paused', label: 'New' }, 'status');
    await expectRejected('PATCH', `/sources/${id}`, { notes: 'x' }, 'notes');
    await expectRejected('PATCH', '/sources/src_missing', { label: 'x' }, null, 404);
    // an interval on a source that is never polled: the target's kind, not the request, is wrong (409)
    const manual = await manualSource();
    const res = await expectRejected('PATCH', `/sources/${manual}`, { pollIntervalMinutes: 30 }, null, 409);
    expect(res.body.error).toBe('wrong_source_type');
    // still 422 when the value itself is out of bounds
    await expectRejected('PATCH', `/sources/${manual}`, { pollIntervalMinutes: 0 }, 'pollIntervalMinutes');
  });
});

describe('PATCH /sources/{id} {status}: pause and resume', () => {
  it('paused pauses indefinitely (keeping the status), connected resumes (keeping the status); pending and error leave a pause alone', async () => {
    const { id, path: p } = await feedSource('Acme', {}, fixture('rss.xml'));
    await desk.services.scheduler.runNow(FEED_POLL_JOB);
    expect((await api('GET', `/sources/${id}`)).body.status).toBe('connected');

    const paused = await api('PATCH', `/sources/${id}`, { status: 'paused' });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ status: 'connected', paused: true, pausedAt: desk.clock.now().toISOString(), pausedUntilAt: null });
    expect(await activityOf('source.paused')).toHaveLength(1);
    expect((await events('source.paused')).map((e) => JSON.parse(e.payload).data)).toEqual([{ sourceId: id, label: 'Acme', pausedUntilAt: null }]);
    // pausing again changes, logs and emits nothing
    await api('PATCH', `/sources/${id}`, { status: 'paused' });
    expect(await activityOf('source.paused')).toHaveLength(1);
    expect(await events('source.paused')).toHaveLength(1);
    // a paused source is not polled
    const polls = feeds.requests.filter((r) => r.path === p).length;
    desk.clock.advance(DAY_MS);
    await desk.services.scheduler.runNow(FEED_POLL_JOB);
    expect(feeds.requests.filter((r) => r.path === p)).toHaveLength(polls);

    // error and pending set the status and keep the pause
    expect((await api('PATCH', `/sources/${id}`, { status: 'error' })).body).toMatchObject({ status: 'error', paused: true });
    expect((await api('PATCH', `/sources/${id}`, { status: 'pending' })).body).toMatchObject({ status: 'pending', paused: true });

    // connected on a paused source is the resume transition: the pause ends, the status stays
    // what it was (only a poll tells whether the feed works), and the next poll sets it
    const resumed = await api('PATCH', `/sources/${id}`, { status: 'connected' });
    expect(resumed.body).toMatchObject({ status: 'pending', paused: false, pausedAt: null, pausedUntilAt: null, pollGating: { isDueNow: true } });
    const resumedRows = await activityOf('source.resumed');
    expect(resumedRows).toHaveLength(1);
    expect(resumedRows[0]).toMatchObject({ entityId: id, actorLabel: 'Owner', detail: 'Source Acme resumed (by hand)' });
    expect((await events('source.resumed')).map((e) => JSON.parse(e.payload).data)).toEqual([{ sourceId: id, label: 'Acme' }]);
    await desk.services.scheduler.runNow(FEED_POLL_JOB);
    expect(feeds.requests.filter((r) => r.path === p)).toHaveLength(polls + 1);
    expect((await api('GET', `/sources/${id}`)).body.status).toBe('connected');
    // on a running source connected sets the status like any other value
    expect((await api('PATCH', `/sources/${id}`, { status: 'error' })).body.status).toBe('error');
    expect((await api('PATCH', `/sources/${id}`, { status: 'connected' })).body).toMatchObject({ status: 'connected', paused: false });
  });

  it('paused turns a scheduled pause into an indefinite one; connected clears the schedule', async () => {
    const { id } = await feedSource('Acme');
    const until = new Date(desk.clock.now().getTime() + DAY_MS).toISOString();
    await api('PATCH', `/sources/${id}/pause-until`, { pausedUntilAt: until });
    expect((await api('PATCH', `/sources/${id}`, { status: 'paused' })).body).toMatchObject({ paused: true, pausedUntilAt: null });
    expect((await api('GET', '/sources/scheduled-paused')).body.sources).toEqual([]);
    desk.clock.advance(2 * DAY_MS);
    await desk.services.scheduler.runNow(SOURCE_PAUSE_EXPIRY_JOB);
    expect((await api('GET', `/sources/${id}`)).body.paused).toBe(true);

    await api('PATCH', `/sources/${id}/pause-until`, { pausedUntilAt: new Date(desk.clock.now().getTime() + DAY_MS).toISOString() });
    expect((await api('PATCH', `/sources/${id}`, { status: 'connected' })).body).toMatchObject({ status: 'pending', paused: false, pausedUntilAt: null });
    expect((await api('GET', '/sources/scheduled-paused')).body.sources).toEqual([]);
    // indefinite pause, scheduled pause, resume: one event each, with the schedule in the pause event
    expect((await events('source.paused')).map((e) => JSON.parse(e.payload).data.pausedUntilAt)).toEqual([expect.any(String), null, expect.any(String)]);
    expect(await events('source.resumed')).toHaveLength(1);
  });

  it('connected on a running source only sets the status (no resume row)', async () => {
    const { id } = await feedSource('Acme');
    expect((await api('PATCH', `/sources/${id}`, { status: 'connected' })).body).toMatchObject({ status: 'connected', paused: false });
    expect(await activityOf('source.resumed')).toHaveLength(0);
    expect(await activityOf('source.status')).toHaveLength(1);
  });
});

describe('PUT /sources/{id}/keywords', () => {
  it('replaces both lists (trimmed, folded) and rejects more than 20 or over-long keywords', async () => {
    const { id } = await feedSource();
    const res = await api('PUT', `/sources/${id}/keywords`, { includeKeywords: [' Pricing ', 'pricing', 'churn'], excludeKeywords: ['job'] });
    expect(res.body).toMatchObject({ includeKeywords: ['Pricing', 'churn'], excludeKeywords: ['job'] });
    expect((await activityOf('source.keywords'))[0].detail).toBe('Keywords of Acme feed: include Pricing, churn; exclude job');
    await expectRejected('PUT', `/sources/${id}/keywords`, { includeKeywords: Array.from({ length: 21 }, (_, i) => `k${i}`), excludeKeywords: [] }, 'includeKeywords');
    await expectRejected('PUT', `/sources/${id}/keywords`, { includeKeywords: [], excludeKeywords: ['x'.repeat(61)] }, 'excludeKeywords[0]');
    await expectRejected('PUT', `/sources/${id}/keywords`, { includeKeywords: [] }, 'excludeKeywords');
    await expectRejected('PUT', '/sources/src_missing/keywords', { includeKeywords: [], excludeKeywords: [] }, null, 404);
  });
});

describe('POST /sources/preview', () => {
  it('returns the title and a sample of items without saving anything', async () => {
    const before = await activityRows();
    const res = await api('POST', '/sources/preview', { url: feeds.url('/rss') });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'rss', format: 'rss', title: 'Acme Newsroom', itemCount: 3 });
    expect(res.body.sample[0]).toMatchObject({ title: 'Acme launches the Widget 2', link: 'https://acme.example/news/widget-2' });
    expect(await sourceRows()).toEqual([]);
    expect(await activityRows()).toEqual(before);
  });

  it('answers 422 with a clear code for unreachable hosts, non-feeds, HTTP errors and bad urls', async () => {
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((r) => probe.close(() => r()));
    expect((await expectRejected('POST', '/sources/preview', { url: `http://127.0.0.1:${port}/feed` }, 'url')).body.error).toBe('feed_unreachable');
    expect((await expectRejected('POST', '/sources/preview', { url: feeds.url('/html') }, 'url')).body.error).toBe('not_a_feed');
    expect((await expectRejected('POST', '/sources/preview', { url: feeds.url('/500') }, 'url')).body.error).toBe('feed_http_error');
    expect((await expectRejected('POST', '/sources/preview', { url: 'ftp://x.example/a' }, 'url')).body.error).toBe('validation_failed');
    await expectRejected('POST', '/sources/preview', { url: feeds.url('/rss'), type: 'manual' }, 'type');
    await expectRejected('POST', '/sources/preview', { url: feeds.url('/rss'), type: 'nope' }, 'type');
  });

  it('previews a signal file', async () => {
    const res = await api('POST', '/sources/preview', { url: path.join(FIXTURES, 'signals.json'), type: 'file' });
    expect(res.body).toMatchObject({ type: 'file', format: 'json', title: 'signals.json', itemCount: 2 });
  });
});

describe('POST /sources/bulk', () => {
  it('pauses, resumes and deletes; reports unchanged ones; logs each change', async () => {
    const a = await feedSource('A');
    const b = await feedSource('B');
    let res = await api('POST', '/sources/bulk', { action: 'pause', sourceIds: [a.id, b.id, a.id] });
    expect(res.body).toEqual({ action: 'pause', affected: 2, changed: [a.id, b.id], unchanged: [], notFound: [] });
    expect((await api('GET', `/sources/${a.id}`)).body).toMatchObject({ paused: true, pausedAt: desk.clock.now().toISOString() });
    res = await api('POST', '/sources/bulk', { action: 'pause', sourceIds: [a.id] });
    expect(res.body).toEqual({ action: 'pause', affected: 0, changed: [], unchanged: [a.id], notFound: [] });
    res = await api('POST', '/sources/bulk', { action: 'resume', sourceIds: [a.id] });
    expect(res.body.changed).toEqual([a.id]);
    expect((await api('GET', `/sources/${a.id}`)).body.paused).toBe(false);
    expect(await activityOf('source.paused')).toHaveLength(2);
    expect(await activityOf('source.resumed')).toHaveLength(1);
    expect((await events('source.paused')).map((e) => JSON.parse(e.payload).data.sourceId)).toEqual([a.id, b.id]);
    expect((await events('source.resumed')).map((e) => JSON.parse(e.payload).data.sourceId)).toEqual([a.id]);

    // a deleted source's signals stay, without the link
    await api('PATCH', `/sources/${b.id}`, { status: 'connected' });
    await desk.services.db.insertInto('signals').values({ id: 'sig_x', kind: 'news', priority: 'normal', title: 't', detail: '', sourceUrl: null, sourceId: b.id, pinned: 0, createdAt: desk.clock.now().toISOString() }).execute();
    res = await api('POST', '/sources/bulk', { action: 'delete', sourceIds: [b.id] });
    expect(res.body.changed).toEqual([b.id]);
    expect((await api('GET', `/sources/${b.id}`)).status).toBe(404);
    expect((await db().selectFrom('signals').selectAll().where('id', '=', 'sig_x').executeTakeFirstOrThrow()).sourceId).toBeNull();
    expect((await activityOf('source.deleted'))[0].entityId).toBe(b.id);
    expect((await events('source.deleted')).map((e) => JSON.parse(e.payload).data)).toEqual([{ sourceId: b.id, label: 'B' }]);
  });

  it('takes 50 ids and rejects 51, an empty list and a bad action (nothing changed)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 50; i += 1) ids.push(await manualSource(`M${i}`));
    expect((await api('POST', '/sources/bulk', { action: 'pause', sourceIds: ids })).body.changed).toHaveLength(50);
    await expectRejected('POST', '/sources/bulk', { action: 'resume', sourceIds: [...ids, 'src_51'] }, 'sourceIds');
    await expectRejected('POST', '/sources/bulk', { action: 'resume', sourceIds: [] }, 'sourceIds');
    await expectRejected('POST', '/sources/bulk', { action: 'archive', sourceIds: [ids[0]] }, 'action');
  });

  it('applies the action to known ids and lists unknown ones in notFound (the bulk policy)', async () => {
    const a = await manualSource('A');
    const b = await manualSource('B');
    const res = await api('POST', '/sources/bulk', { action: 'delete', sourceIds: ['src_missing', a, b, 'src_gone'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ action: 'delete', affected: 2, changed: [a, b], unchanged: [], notFound: ['src_missing', 'src_gone'] });
    expect(await sourceRows()).toEqual([]);
    expect((await events('source.deleted')).map((e) => JSON.parse(e.payload).data.sourceId)).toEqual([a, b]);
  });

  it('answers 200 with affected 0 when every id is unknown, changing nothing', async () => {
    await manualSource('A');
    const before = [await sourceRows(), await activityRows(), await db().selectFrom('outboxEvents').selectAll().execute()];
    for (const action of ['pause', 'resume', 'delete']) {
      const res = await api('POST', '/sources/bulk', { action, sourceIds: ['src_x', 'src_y'] });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ action, affected: 0, changed: [], unchanged: [], notFound: ['src_x', 'src_y'] });
    }
    expect([await sourceRows(), await activityRows(), await db().selectFrom('outboxEvents').selectAll().execute()]).toEqual(before);
  });
});

describe('50 ids', () => {
  it('every bulk endpoint takes exactly 50 ids (51 is rejected above and in each area)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 50; i += 1) {
      const res = await api('POST', '/sources', { type: 'rss', label: `Feed ${i}`, url: feeds.url(`/fifty/${i}`) });
      ids.push(res.body.id);
    }
    expect((await api('POST', '/sources/bulk-cadence', { pollIntervalMinutes: 60, sourceIds: ids })).body.updated).toHaveLength(50);
    expect((await api('POST', '/sources/bulk-rename', { findText: 'Feed', replaceText: 'News', sourceIds: ids })).body.matches).toHaveLength(50);
    expect((await api('POST', '/sources/quietness-ack/bulk', { sourceIds: ids })).body.changed).toHaveLength(50);
    expect(await events('source.quietness_acked')).toHaveLength(50);
    expect((await api('POST', '/sources/quietness-unack/bulk', { sourceIds: ids })).body.changed).toHaveLength(50);
    expect(await events('source.quietness_unacked')).toHaveLength(50);
    expect((await api('POST', '/sources/bulk', { action: 'delete', sourceIds: ids })).body.changed).toHaveLength(50);
    await expectRejected('POST', '/sources/quietness-ack/bulk', { sourceIds: [...ids, 'src_51'] }, 'sourceIds');
  });
});

describe('POST /sources/bulk-cadence', () => {
  it('sets feeds workspace-wide when no ids, skipping manual and file sources silently', async () => {
    const a = await feedSource('A');
    const b = await feedSource('B', { pollIntervalMinutes: 90 });
    const m = await manualSource();
    let res = await api('POST', '/sources/bulk-cadence', { pollIntervalMinutes: 90 });
    expect(res.body).toEqual({ pollIntervalMinutes: 90, affected: 1, updated: [a.id], unchanged: [b.id], skipped: [], notFound: [] });
    res = await api('POST', '/sources/bulk-cadence', { pollIntervalMinutes: null, sourceIds: [a.id, m] });
    expect(res.body).toEqual({ pollIntervalMinutes: null, affected: 1, updated: [a.id], unchanged: [], skipped: [m], notFound: [] });
    expect((await api('GET', `/sources/${m}`)).body.pollIntervalMinutes).toBeNull();
    expect(await activityOf('source.cadence')).toHaveLength(2);
    expect((await api('POST', '/sources/bulk-cadence', { pollIntervalMinutes: 1 })).status).toBe(200);
    expect((await api('POST', '/sources/bulk-cadence', { pollIntervalMinutes: 1440 })).status).toBe(200);
  });

  it('skips a file source (listed in skipped), also when it is the only one named', async () => {
    const a = await feedSource('A');
    const file = (await api('POST', '/sources', { type: 'file', label: 'CSV', url: path.join(FIXTURES, 'signals.csv') })).body.id as string;
    const m = await manualSource();
    const before = await activityOf('source.cadence');
    expect((await api('POST', '/sources/bulk-cadence', { pollIntervalMinutes: 60, sourceIds: [file, m] })).body).toEqual({
      pollIntervalMinutes: 60,
      affected: 0,
      updated: [],
      unchanged: [],
      skipped: [file, m],
      notFound: [],
    });
    expect(await activityOf('source.cadence')).toEqual(before);
    let res = await api('POST', '/sources/bulk-cadence', { pollIntervalMinutes: 60, sourceIds: [file, a.id] });
    expect(res.body).toEqual({ pollIntervalMinutes: 60, affected: 1, updated: [a.id], unchanged: [], skipped: [file], notFound: [] });
    // workspace-wide: only feeds are targeted, so nothing is listed as skipped
    res = await api('POST', '/sources/bulk-cadence', { pollIntervalMinutes: 90 });
    expect(res.body).toEqual({ pollIntervalMinutes: 90, affected: 1, updated: [a.id], unchanged: [], skipped: [], notFound: [] });
    expect((await api('GET', `/sources/${file}`)).body).toMatchObject({ pollIntervalMinutes: null, pollGating: null });
  });

  it('rejects 0, 1441, a missing value and 51 ids; lists unknown ids in notFound', async () => {
    const a = await feedSource('A');
    await expectRejected('POST', '/sources/bulk-cadence', { pollIntervalMinutes: 0 }, 'pollIntervalMinutes');
    await expectRejected('POST', '/sources/bulk-cadence', { pollIntervalMinutes: 1441 }, 'pollIntervalMinutes');
    await expectRejected('POST', '/sources/bulk-cadence', {}, 'pollIntervalMinutes');
    await expectRejected('POST', '/sources/bulk-cadence', { pollIntervalMinutes: 60, sourceIds: Array.from({ length: 51 }, (_, i) => `s${i}`) }, 'sourceIds');
    const res = await api('POST', '/sources/bulk-cadence', { pollIntervalMinutes: 60, sourceIds: [a.id, 'src_missing'] });
    expect(res.body).toEqual({ pollIntervalMinutes: 60, affected: 1, updated: [a.id], unchanged: [], skipped: [], notFound: ['src_missing'] });
    expect((await api('GET', `/sources/${a.id}`)).body.pollIntervalMinutes).toBe(60);
  });
});

describe('POST /sources/bulk-rename', () => {
  it('previews, then applies a find/replace; case-insensitive unless asked', async () => {
    const a = await feedSource('Acme news');
    const b = await feedSource('ACME reviews');
    const c = await manualSource('Globex');
    let res = await api('POST', '/sources/bulk-rename', { findText: 'acme', replaceText: 'Initech', preview: true });
    expect(res.body).toEqual({
      preview: true,
      affected: 0,
      notFound: [],
      matches: [
        { sourceId: a.id, oldLabel: 'Acme news', newLabel: 'Initech news' },
        { sourceId: b.id, oldLabel: 'ACME reviews', newLabel: 'Initech reviews' },
      ],
      skipped: [],
    });
    expect((await api('GET', `/sources/${a.id}`)).body.label).toBe('Acme news');
    expect(await activityOf('source.renamed')).toHaveLength(0);

    res = await api('POST', '/sources/bulk-rename', { findText: 'acme', replaceText: 'Initech', caseSensitive: true });
    expect(res.body.matches).toEqual([]);
    res = await api('POST', '/sources/bulk-rename', { findText: 'ACME', replaceText: 'Initech', caseSensitive: true, sourceIds: [b.id, c, 'src_missing'] });
    expect(res.body).toEqual({
      preview: false,
      affected: 1,
      matches: [{ sourceId: b.id, oldLabel: 'ACME reviews', newLabel: 'Initech reviews' }],
      skipped: [],
      notFound: ['src_missing'],
    });
    expect((await api('GET', `/sources/${b.id}`)).body.label).toBe('Initech reviews');
    expect(await activityOf('source.renamed')).toHaveLength(1);
  });

  it('skips and reports renames that would leave a label empty or longer than 80', async () => {
    const a = await manualSource('Acme');
    const b = await manualSource(`Acme ${'x'.repeat(70)}`);
    const c = await manualSource('Acme news');
    const res = await api('POST', '/sources/bulk-rename', { findText: 'Acme', replaceText: '' });
    expect(res.body.skipped).toEqual([{ sourceId: a, oldLabel: 'Acme', newLabel: '', reason: 'the label would be empty' }]);
    expect(res.body.matches.map((m: { sourceId: string }) => m.sourceId)).toEqual([b, c]);
    expect((await api('GET', `/sources/${c}`)).body.label).toBe('news');
    const long = await api('POST', '/sources/bulk-rename', { findText: 'x', replaceText: 'yy', sourceIds: [b] });
    expect(long.body).toMatchObject({ matches: [], skipped: [{ sourceId: b, reason: 'the label would be longer than 80 characters' }] });
    expect((await api('GET', `/sources/${b}`)).body.label).toBe('x'.repeat(70).padStart(71, ' ').trim());
  });

  it('rejects an empty findText, over-long texts and 51 ids', async () => {
    await manualSource('Acme');
    await expectRejected('POST', '/sources/bulk-rename', { findText: '', replaceText: 'x' }, 'findText');
    await expectRejected('POST', '/sources/bulk-rename', { findText: 'x'.repeat(81), replaceText: 'x' }, 'findText');
    await expectRejected('POST', '/sources/bulk-rename', { findText: 'Acme', replaceText: 'x'.repeat(81) }, 'replaceText');
    await expectRejected('POST', '/sources/bulk-rename', { findText: 'Acme' }, 'replaceText');
    await expectRejected('POST', '/sources/bulk-rename', { findText: 'Acme', replaceText: 'B', sourceIds: Array.from({ length: 51 }, (_, i) => `s${i}`) }, 'sourceIds');
  });
});

describe('GET /sources/cadence-overview', () => {
  it('shows the workspace cadence, the plan floor and feeds soonest due first', async () => {
    const hourly = await feedSource('Hourly', { pollIntervalMinutes: 60 });
    const quarter = await feedSource('Quarter', { pollIntervalMinutes: 15 });
    const std = await feedSource('Standard');
    const paused = await feedSource('Paused');
    await manualSource();
    await api('POST', '/sources/bulk', { action: 'pause', sourceIds: [paused.id] });
    await desk.services.scheduler.runNow(FEED_POLL_JOB);
    desk.clock.advanceMinutes(5);
    const res = await api('GET', '/sources/cadence-overview');
    expect(res.body).toMatchObject({ workspaceCadenceMinutes: 30, planFloorMinutes: 15, plan: 'free' });
    expect(res.body.perSource.map((r: { sourceId: string }) => r.sourceId)).toEqual([quarter.id, std.id, hourly.id, paused.id]);
    expect(res.body.perSource[0]).toMatchObject({ label: 'Quarter', intervalMinutes: 15, isOverride: true, isDueNow: false, minutesUntilDue: 10, paused: false });
    expect(res.body.perSource[1]).toMatchObject({ intervalMinutes: 30, isOverride: false, minutesUntilDue: 25 });
    expect(res.body.perSource[3]).toMatchObject({ paused: true, nextPollAt: null, isDueNow: false });
    await desk.services.workspace.setPlan('team');
    expect((await api('GET', '/sources/cadence-overview')).body.planFloorMinutes).toBe(1);
  });
});

describe('quietness', () => {
  const poll = () => desk.services.scheduler.runNow(FEED_POLL_JOB);
  const sweep = () => desk.services.scheduler.runNow(SOURCE_QUIETNESS_JOB);
  const quiet = async () => (await api('GET', '/sources/quietness')).body;

  it('lists feeds that polled but stayed quiet beyond 14 days; not before, not unpolled, paused or manual ones', async () => {
    const polled = await feedSource('Polled');
    const created = desk.clock.now().toISOString();
    await poll();
    await feedSource('Never polled', { url: feeds.url('/500') }); // polls fail: no lastSyncedAt
    await poll();
    const paused = await feedSource('Paused');
    await poll();
    await api('POST', '/sources/bulk', { action: 'pause', sourceIds: [paused.id] });
    await manualSource();

    desk.clock.set(new Date(new Date(created).getTime() + 14 * DAY_MS).toISOString());
    let report = await quiet();
    expect(report).toEqual({ workspaceCadenceMinutes: 30, planFloorMinutes: 15, cadenceFloorDays: 14, maxFloorDays: 90, ackDays: 7, sources: [] });
    desk.clock.advanceMinutes(1);
    report = await quiet();
    expect(report.sources).toEqual([
      {
        sourceId: polled.id,
        label: 'Polled',
        type: 'rss',
        intervalMinutes: 30,
        lastSyncedAt: created,
        lastSignalAt: null,
        quietSince: created,
        quietForDays: 14,
        floorDays: 14,
        acked: false,
        quietnessAckedAt: null,
        quietnessAckExpiresAt: null,
      },
    ]);
  });

  it('leaves out a feed whose polls now fail (it is broken, not quiet) until a poll succeeds again', async () => {
    const src = await feedSource('Flaky');
    await poll();
    desk.clock.advanceMinutes(15 * 24 * 60);
    expect((await quiet()).sources.map((s: { sourceId: string }) => s.sourceId)).toEqual([src.id]);
    feeds.set(src.path, { status: 500 });
    await poll();
    expect((await api('GET', `/sources/${src.id}`)).body.status).toBe('error');
    expect((await quiet()).sources).toEqual([]);
    await sweep();
    expect(await events('source.quietness_warning')).toHaveLength(0);
    feeds.set(src.path, { body: EMPTY_RSS });
    desk.clock.advance(DAY_MS);
    await poll();
    expect((await quiet()).sources.map((s: { sourceId: string }) => s.sourceId)).toEqual([src.id]);
  });

  it('counts from the last signal, and a fresh signal ends the quiet period', async () => {
    const src = await feedSource('Acme', {}, fixture('rss.xml'));
    await poll();
    const signalAt = desk.clock.now().getTime();
    desk.clock.set(new Date(signalAt + 20 * DAY_MS).toISOString());
    expect((await quiet()).sources[0]).toMatchObject({ sourceId: src.id, quietForDays: 20, lastSignalAt: new Date(signalAt).toISOString() });
    feeds.set(src.path, { body: fixture('rss.xml').replace('<item>', '<item><title>New</title><guid>new</guid></item><item>') });
    await poll();
    expect((await quiet()).sources).toEqual([]);
  });

  it('ack mutes for 7 days with one event; acked rows stay listed after the unacked ones; unack revokes once', async () => {
    const a = await feedSource('A');
    const b = await feedSource('B');
    await poll();
    desk.clock.advanceMinutes(15 * 24 * 60);
    const res = await api('POST', `/sources/${a.id}/quietness-ack`);
    expect(res.status).toBe(200);
    const ackedAt = desk.clock.now().toISOString();
    expect(res.body).toMatchObject({ id: a.id, quietnessAckedAt: ackedAt, quietnessAckExpiresAt: new Date(desk.clock.now().getTime() + 7 * DAY_MS).toISOString() });
    expect(await events('source.quietness_acked')).toHaveLength(1);
    expect(JSON.parse((await events('source.quietness_acked'))[0].payload).data).toMatchObject({ sourceId: a.id, quietnessAckedAt: ackedAt });
    expect(await activityOf('source.quietness_acked')).toHaveLength(1);
    let report = await quiet();
    expect(report.sources.map((s: { sourceId: string; acked: boolean }) => [s.sourceId, s.acked])).toEqual([
      [b.id, false],
      [a.id, true],
    ]);

    desk.clock.advance(7 * DAY_MS - 1);
    expect((await quiet()).sources[1]).toMatchObject({ sourceId: a.id, acked: true });
    desk.clock.advance(1);
    report = await quiet();
    expect(report.sources.every((s: { acked: boolean }) => !s.acked)).toBe(true);
    expect((await api('GET', `/sources/${a.id}`)).body.quietnessAckedAt).toBeNull();

    // unack: a no-op without a holding ack, one event with one
    expect((await api('POST', `/sources/${a.id}/quietness-unack`)).status).toBe(200);
    expect(await events('source.quietness_unacked')).toHaveLength(0);
    await api('POST', `/sources/${a.id}/quietness-ack`);
    const unack = await api('POST', `/sources/${a.id}/quietness-unack`);
    expect(unack.body.quietnessAckedAt).toBeNull();
    expect(await events('source.quietness_unacked')).toHaveLength(1);
    expect(await activityOf('source.quietness_unacked')).toHaveLength(1);
  });

  it('a fresh signal ends an ack', async () => {
    const src = await feedSource('Acme', {}, EMPTY_RSS);
    await poll();
    await api('POST', `/sources/${src.id}/quietness-ack`);
    desk.clock.advanceMinutes(60);
    feeds.set(src.path, { body: fixture('rss.xml') });
    await poll();
    expect((await api('GET', `/sources/${src.id}`)).body.quietnessAckedAt).toBeNull();
  });

  it('bulk ack and unack: one event per acked source, one per actually revoked source', async () => {
    const a = await feedSource('A');
    const b = await feedSource('B');
    const c = await feedSource('C');
    let res = await api('POST', '/sources/quietness-ack/bulk', { sourceIds: [a.id, b.id] });
    expect(res.body.changed).toEqual([a.id, b.id]);
    expect(res.body.sources.map((s: { quietnessAckedAt: string | null }) => s.quietnessAckedAt)).toEqual([desk.clock.now().toISOString(), desk.clock.now().toISOString()]);
    expect(await events('source.quietness_acked')).toHaveLength(2);
    res = await api('POST', '/sources/quietness-unack/bulk', { sourceIds: [a.id, c.id] });
    expect(res.body.changed).toEqual([a.id]);
    expect(await events('source.quietness_unacked')).toHaveLength(1);
    expect(JSON.parse((await events('source.quietness_unacked'))[0].payload).data.sourceId).toBe(a.id);
  });

  it('rejects 51 ids, a single unknown id (404) and a single non-feed source (409), changing nothing', async () => {
    const m = await manualSource();
    const many = Array.from({ length: 51 }, (_, i) => `s${i}`);
    await expectRejected('POST', '/sources/quietness-ack/bulk', { sourceIds: many }, 'sourceIds');
    await expectRejected('POST', '/sources/quietness-unack/bulk', { sourceIds: many }, 'sourceIds');
    expect((await expectRejected('POST', `/sources/${m}/quietness-ack`, undefined, null, 409)).body.error).toBe('wrong_source_type');
    expect((await expectRejected('POST', `/sources/${m}/quietness-unack`, undefined, null, 409)).body.error).toBe('wrong_source_type');
    await expectRejected('POST', '/sources/src_missing/quietness-ack', undefined, null, 404);
    await expectRejected('POST', '/sources/src_missing/quietness-unack', undefined, null, 404);
  });

  it('bulk ack and unack list non-feed sources in skipped and unknown ids in notFound, and act on the feeds', async () => {
    const a = await feedSource('A');
    const m = await manualSource();
    let res = await api('POST', '/sources/quietness-ack/bulk', { sourceIds: [m, a.id, 'src_missing'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ affected: 1, changed: [a.id], skipped: [m], notFound: ['src_missing'] });
    expect(res.body.sources.map((s: { id: string; quietnessAckedAt: string | null }) => [s.id, s.quietnessAckedAt])).toEqual([[a.id, desk.clock.now().toISOString()]]);
    expect((await events('source.quietness_acked')).map((e) => JSON.parse(e.payload).data.sourceId)).toEqual([a.id]);
    expect((await api('GET', `/sources/${m}`)).body.quietnessAckedAt).toBeNull();
    res = await api('POST', '/sources/quietness-unack/bulk', { sourceIds: [m, a.id, 'src_missing'] });
    expect(res.body).toMatchObject({ affected: 1, changed: [a.id], skipped: [m], notFound: ['src_missing'] });
    // every id unknown or skipped: 200, nothing changed
    const before = [await sourceRows(), await activityRows()];
    res = await api('POST', '/sources/quietness-ack/bulk', { sourceIds: [m, 'src_x'] });
    expect(res.body).toEqual({ sources: [], affected: 0, changed: [], skipped: [m], notFound: ['src_x'] });
    expect([await sourceRows(), await activityRows()]).toEqual(before);
  });

  it('the sweep warns once per quiet period, not while acked, again after the ack runs out', async () => {
    const a = await feedSource('A');
    await poll();
    desk.clock.advanceMinutes(14 * 24 * 60);
    await sweep();
    expect(await events('source.quietness_warning')).toHaveLength(0);
    desk.clock.advanceMinutes(1);
    await sweep();
    await sweep();
    let warnings = await events('source.quietness_warning');
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0].payload).data).toMatchObject({ sourceId: a.id, quietForDays: 14, floorDays: 14 });
    expect((await activityOf('source.quietness_warning'))[0].actorLabel).toBe('system');

    await api('POST', `/sources/${a.id}/quietness-ack`);
    desk.clock.advance(7 * DAY_MS - MINUTE_MS);
    await sweep();
    expect(await events('source.quietness_warning')).toHaveLength(1);
    desk.clock.advanceMinutes(1);
    await sweep();
    await sweep();
    expect(await events('source.quietness_warning')).toHaveLength(2);

    // a fresh signal starts a new period: quiet again 14 days later warns again
    feeds.set(a.path, { body: fixture('rss.xml') });
    await poll();
    desk.clock.advanceMinutes(14 * 24 * 60 + 1);
    await sweep();
    warnings = await events('source.quietness_warning');
    expect(warnings).toHaveLength(3);
  });
});

describe('scheduled source pauses', () => {
  it('pauses until a time 13 days or exactly 14 days ahead; rejects 15 days, the past and bad text', async () => {
    const { id } = await feedSource('Acme');
    const now = desk.clock.now().getTime();
    const at13 = new Date(now + 13 * DAY_MS).toISOString();
    const res = await api('PATCH', `/sources/${id}/pause-until`, { pausedUntilAt: at13 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ paused: true, pausedUntilAt: at13, pollGating: { isDueNow: false, nextPollAt: at13 } });
    expect((await activityOf('source.pause_scheduled'))[0].detail).toContain(at13);
    expect((await api('PATCH', `/sources/${id}/pause-until`, { pausedUntilAt: new Date(now + 14 * DAY_MS).toISOString() })).status).toBe(200);
    await expectRejected('PATCH', `/sources/${id}/pause-until`, { pausedUntilAt: new Date(now + 15 * DAY_MS).toISOString() }, 'pausedUntilAt');
    await expectRejected('PATCH', `/sources/${id}/pause-until`, { pausedUntilAt: new Date(now + 14 * DAY_MS + 1000).toISOString() }, 'pausedUntilAt');
    await expectRejected('PATCH', `/sources/${id}/pause-until`, { pausedUntilAt: new Date(now - MINUTE_MS).toISOString() }, 'pausedUntilAt');
    await expectRejected('PATCH', `/sources/${id}/pause-until`, { pausedUntilAt: new Date(now).toISOString() }, 'pausedUntilAt');
    await expectRejected('PATCH', `/sources/${id}/pause-until`, { pausedUntilAt: 'next tuesday' }, 'pausedUntilAt');
    await expectRejected('PATCH', `/sources/${id}/pause-until`, {}, 'pausedUntilAt');
    await expectRejected('PATCH', '/sources/src_missing/pause-until', { pausedUntilAt: at13 }, null, 404);
  });

  it('reads a date without a time as the start of that day in the workspace timezone', async () => {
    await desk.stop();
    desk = await startTestDesk({ seed: { timezone: 'Europe/Berlin' } });
    const { id } = await feedSource('Acme');
    // Berlin is UTC+1 in March: the Berlin day 2026-03-12 starts at 2026-03-11T23:00Z
    const res = await api('PATCH', `/sources/${id}/pause-until`, { pausedUntilAt: '2026-03-12' });
    expect(res.status).toBe(200);
    expect(res.body.pausedUntilAt).toBe('2026-03-11T23:00:00.000Z');
    await expectRejected('PATCH', `/sources/${id}/pause-until`, { pausedUntilAt: '2026-03-10' }, 'pausedUntilAt');
  });

  it('null clears the schedule and resumes; null without a pause is a no-op', async () => {
    const { id } = await feedSource('Acme');
    expect((await api('PATCH', `/sources/${id}/pause-until`, { pausedUntilAt: null })).body.paused).toBe(false);
    expect(await activityOf('source.resumed')).toHaveLength(0);
    await api('PATCH', `/sources/${id}/pause-until`, { pausedUntilAt: new Date(desk.clock.now().getTime() + DAY_MS).toISOString() });
    const res = await api('PATCH', `/sources/${id}/pause-until`, { pausedUntilAt: null });
    expect(res.body).toMatchObject({ paused: false, pausedAt: null, pausedUntilAt: null });
    expect(await activityOf('source.resumed')).toHaveLength(1);
    expect((await api('GET', '/sources/scheduled-paused')).body.sources).toEqual([]);
  });

  it('lists scheduled pauses soonest resume first, and the sweep resumes expired ones', async () => {
    const a = await feedSource('A');
    const b = await feedSource('B');
    await api('PATCH', `/sources/${b.id}/pause-until`, { pausedUntilAt: new Date(desk.clock.now().getTime() + 90 * MINUTE_MS).toISOString() });
    await api('PATCH', `/sources/${a.id}/pause-until`, { pausedUntilAt: new Date(desk.clock.now().getTime() + 3 * DAY_MS).toISOString() });
    let list = (await api('GET', '/sources/scheduled-paused')).body.sources;
    expect(list).toEqual([
      { sourceId: b.id, label: 'B', type: 'rss', pausedUntilAt: new Date(desk.clock.now().getTime() + 90 * MINUTE_MS).toISOString(), hoursUntilResume: 1.5 },
      { sourceId: a.id, label: 'A', type: 'rss', pausedUntilAt: new Date(desk.clock.now().getTime() + 3 * DAY_MS).toISOString(), hoursUntilResume: 72 },
    ]);

    desk.clock.advanceMinutes(89);
    await desk.services.scheduler.runNow(SOURCE_PAUSE_EXPIRY_JOB);
    expect((await api('GET', `/sources/${b.id}`)).body.paused).toBe(true);
    expect(feeds.requests.filter((r) => r.path === b.path)).toHaveLength(0);
    desk.clock.advanceMinutes(1);
    await desk.services.scheduler.runNow(SOURCE_PAUSE_EXPIRY_JOB);
    // never polled yet: it stays pending until its first poll
    expect((await api('GET', `/sources/${b.id}`)).body).toMatchObject({ paused: false, pausedUntilAt: null, status: 'pending' });
    const resumed = await activityOf('source.resumed');
    expect(resumed).toHaveLength(1);
    expect(resumed[0]).toMatchObject({ entityId: b.id, actorLabel: 'system' });
    expect((await events('source.resumed')).map((e) => JSON.parse(e.payload).data)).toEqual([{ sourceId: b.id, label: 'B' }]);
    list = (await api('GET', '/sources/scheduled-paused')).body.sources;
    expect(list.map((r: { sourceId: string }) => r.sourceId)).toEqual([a.id]);
    expect(list[0].hoursUntilResume).toBe(Math.round(((3 * DAY_MS - 90 * MINUTE_MS) / HOUR_MS) * 10) / 10);

    // once resumed the poller picks it up again
    await desk.services.scheduler.runNow(FEED_POLL_JOB);
    expect(feeds.requests.filter((r) => r.path === b.path)).toHaveLength(1);
    expect(feeds.requests.filter((r) => r.path === a.path)).toHaveLength(0);
  });

  it('a failing feed whose scheduled pause runs out stays in error with its retry schedule', async () => {
    const src = await feedSource('Flaky', { url: feeds.url('/500') });
    await desk.services.scheduler.runNow(FEED_POLL_JOB);
    const failing = (await api('GET', `/sources/${src.id}`)).body;
    expect(failing).toMatchObject({ status: 'error', consecutiveFailures: 1 });
    const retryAt = failing.pollGating.nextPollAt;
    await api('PATCH', `/sources/${src.id}/pause-until`, { pausedUntilAt: new Date(desk.clock.now().getTime() + 10 * MINUTE_MS).toISOString() });
    desk.clock.advanceMinutes(10);
    await desk.services.scheduler.runNow(SOURCE_PAUSE_EXPIRY_JOB);
    const after = (await api('GET', `/sources/${src.id}`)).body;
    expect(after).toMatchObject({ paused: false, status: 'error', consecutiveFailures: 1, lastErrorMessage: failing.lastErrorMessage });
    expect(after.pollGating.nextPollAt).toBe(retryAt);
    expect(await events('source.resumed')).toHaveLength(1);
    // the same through bulk resume and pause-until null
    for (const resume of [
      () => api('POST', '/sources/bulk', { action: 'resume', sourceIds: [src.id] }),
      () => api('PATCH', `/sources/${src.id}/pause-until`, { pausedUntilAt: null }),
      () => api('PATCH', `/sources/${src.id}`, { status: 'connected' }),
    ]) {
      await api('POST', '/sources/bulk', { action: 'pause', sourceIds: [src.id] });
      await resume();
      expect((await api('GET', `/sources/${src.id}`)).body).toMatchObject({ paused: false, status: 'error', consecutiveFailures: 1 });
    }
    expect(await events('source.resumed')).toHaveLength(4);
  });

  it('a bulk pause replaces a scheduled pause with an indefinite one', async () => {
    const { id } = await feedSource('A');
    await api('PATCH', `/sources/${id}/pause-until`, { pausedUntilAt: new Date(desk.clock.now().getTime() + DAY_MS).toISOString() });
    await api('POST', '/sources/bulk', { action: 'pause', sourceIds: [id] });
    expect((await api('GET', `/sources/${id}`)).body).toMatchObject({ paused: true, pausedUntilAt: null });
    desk.clock.advance(2 * DAY_MS);
    await desk.services.scheduler.runNow(SOURCE_PAUSE_EXPIRY_JOB);
    expect((await api('GET', `/sources/${id}`)).body.paused).toBe(true);
  });
});

describe('file sources', () => {
  const signalsOf = (id: string) => db().selectFrom('signals').selectAll().where('sourceId', '=', id).orderBy('id').execute();

  it('imports a CSV on create, reports invalid records, and re-imports only new records', async () => {
    const file = path.join(tmp, 'crm.csv');
    fs.copyFileSync(path.join(FIXTURES, 'signals.csv'), file);
    const res = await api('POST', '/sources', { type: 'file', label: 'CRM export', url: file });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'connected', pollGating: null, lastSyncedAt: desk.clock.now().toISOString() });
    expect(res.body.import).toEqual({
      sourceId: res.body.id,
      format: 'csv',
      records: 5,
      imported: 3,
      duplicates: 0,
      filtered: 0,
      invalid: [
        { row: 6, message: 'title is required' },
        { row: 7, message: 'kind must be one of news, mention, review, message, alert, metric, note, other' },
      ],
      invalidCount: 2,
    });
    const rows = await signalsOf(res.body.id);
    expect(rows.map((s) => [s.title, s.kind, s.priority, s.sourceUrl])).toEqual([
      ['Churn risk at Globex', 'alert', 'high', 'https://crm.example/globex'],
      ['Renewal: Initech, 3 seats', 'message', 'normal', 'https://crm.example/initech'],
      ['No id row', 'other', 'normal', 'https://crm.example/none'],
    ]);
    expect((await activityOf('signal.received')).map((a) => a.entityId)).toEqual(rows.map((s) => s.id));
    expect((await activityOf('source.imported'))[0].detail).toContain('3 new signals from 5 records');

    // same externalId with a new title is the same record; same title+url without id too
    fs.appendFileSync(file, 'Churn risk at Globex (edited),x,alert,high,https://crm.example/globex,crm-1,\nFresh row,,,,,crm-9,\n');
    const again = await api('POST', `/sources/${res.body.id}/import`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ records: 7, imported: 1, duplicates: 4, invalidCount: 2 });
    expect((await signalsOf(res.body.id)).at(-1)!.title).toBe('Fresh row');
  });

  it('takes file records with the limits of POST /signals: title 200, detail 5000', async () => {
    const file = path.join(tmp, 'limits.csv');
    const rows = [
      `${'t'.repeat(200)},${'d'.repeat(5000)}`,
      `${'u'.repeat(201)},short`,
      `Too long detail,${'d'.repeat(5001)}`,
    ];
    fs.writeFileSync(file, `title,detail\n${rows.join('\n')}\n`);
    const res = await api('POST', '/sources', { type: 'file', label: 'Limits', url: file });
    expect(res.status).toBe(201);
    expect(res.body.import).toMatchObject({
      records: 3,
      imported: 1,
      invalid: [
        { row: 3, message: 'title must be at most 200 characters' },
        { row: 4, message: 'detail must be at most 5000 characters' },
      ],
    });
    expect((await signalsOf(res.body.id)).map((s) => [s.title.length, s.detail.length])).toEqual([[200, 5000]]);
  });

  it('imports JSON through a file:// URL and applies keyword filters', async () => {
    const url = `file://${path.join(FIXTURES, 'signals.json')}`;
    const res = await api('POST', '/sources', { type: 'file', label: 'Survey', url, excludeKeywords: ['webinar'] });
    expect(res.body.import).toMatchObject({ format: 'json', records: 4, imported: 1, filtered: 1, invalidCount: 2 });
    expect((await signalsOf(res.body.id)).map((s) => [s.title, s.kind, s.priority])).toEqual([['NPS dropped to 31', 'metric', 'urgent']]);
  });

  it('rejects a missing or unparseable file on create (nothing created) and import of other types', async () => {
    expect((await expectRejected('POST', '/sources', { type: 'file', label: 'F', url: path.join(tmp, 'none.csv') }, 'url')).body.error).toBe('file_unreadable');
    fs.writeFileSync(path.join(tmp, 'bad.json'), '{oops');
    expect((await expectRejected('POST', '/sources', { type: 'file', label: 'F', url: path.join(tmp, 'bad.json') }, 'url')).body.error).toBe('file_invalid');
    await expectRejected('POST', '/sources', { type: 'file', label: 'F', url: path.join(tmp, 'a.txt') }, 'url');
    await expectRejected('POST', '/sources', { type: 'file', label: 'F', url: 'data/a.csv' }, 'url');
    await expectRejected('POST', '/sources', { type: 'file', label: 'F', url: path.join(FIXTURES, 'signals.csv'), pollIntervalMinutes: 30 }, 'pollIntervalMinutes');
    const m = await manualSource();
    expect((await expectRejected('POST', `/sources/${m}/import`, undefined, null, 409)).body.error).toBe('wrong_source_type');
    await expectRejected('POST', '/sources/src_missing/import', undefined, null, 404);

    // a file that disappears after create: import answers 422 and changes nothing
    const file = path.join(tmp, 'gone.csv');
    fs.writeFileSync(file, 'title\nOne\n');
    const src = (await api('POST', '/sources', { type: 'file', label: 'Gone', url: file })).body;
    fs.rmSync(file);
    expect((await expectRejected('POST', `/sources/${src.id}/import`, undefined, 'url')).body.error).toBe('file_unreadable');
  });
});

describe('file sources: one per file', () => {
  it('20 concurrent creates for one file, spelled four ways: one 201, 19 × 409 source_exists, signals imported once', async () => {
    const dir = path.join(tmp, 'exports');
    fs.mkdirSync(dir);
    const file = path.join(dir, 'race.csv');
    fs.writeFileSync(file, 'title,externalId\nOne,a\nTwo,b\n');
    const spellings = [file, `file://${file}`, path.join(dir, '.', 'race.csv').replace('race.csv', './race.csv'), `${dir}//../exports/race.csv`];
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => api('POST', '/sources', { type: 'file', label: `Race ${i}`, url: spellings[i % 4] })));
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body.error])).toEqual(Array.from({ length: 19 }, () => [409, 'source_exists']));
    expect(refused[0].body.message).toContain(created[0].body.id);
    expect((await sourceRows()).map((r) => [r.id, r.filePath])).toEqual([[created[0].body.id, file]]);
    expect((await db().selectFrom('signals').select('title').orderBy('title').execute()).map((s) => s.title)).toEqual(['One', 'Two']);
    expect(await activityOf('source.created')).toHaveLength(1);
    expect(await events('source.created')).toHaveLength(1);
  });

  it('refuses a second file source for the file in the database too (unique index over file sources)', async () => {
    const file = path.join(tmp, 'one.csv');
    fs.writeFileSync(file, 'title\nOne\n');
    expect((await api('POST', '/sources', { type: 'file', label: 'One', url: file })).status).toBe(201);
    const row = { type: 'file' as const, url: `file://${file}`, filePath: file };
    await expect(insertSourceRow(desk, { id: 'src_twin', ...row })).rejects.toThrow(/UNIQUE constraint failed: sources.file_path/);
    // other types carry no file path: any number of them
    await insertSourceRow(desk, { id: 'src_feed_1' });
    await insertSourceRow(desk, { id: 'src_feed_2' });
    expect((await sourceRows()).map((r) => r.filePath)).toEqual([file, null, null]);
  });

  it('lets two different files in one folder have a source each', async () => {
    for (const name of ['a.csv', 'b.csv']) fs.writeFileSync(path.join(tmp, name), 'title\nOne\n');
    expect((await api('POST', '/sources', { type: 'file', label: 'A', url: path.join(tmp, 'a.csv') })).status).toBe(201);
    expect((await api('POST', '/sources', { type: 'file', label: 'B', url: path.join(tmp, 'b.csv') })).status).toBe(201);
  });
});
