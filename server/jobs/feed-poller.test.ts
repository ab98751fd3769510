import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MINUTE_MS } from '../core/clock';
import { fixture, gate, startFeedServer, type FeedServer } from '../testing/fakes/feed-server';
import { startTestDesk, type TestDesk } from '../testing/desk';
import { createFeedSource, type NewSource } from '../testing/fixtures/sources';
import { FEED_POLL_JOB } from './feed-poller';

/** The feed poller job against a feed server started here on 127.0.0.1. */

let feeds: FeedServer;
let desk: TestDesk;
let n = 0;

beforeAll(async () => {
  feeds = await startFeedServer();
});
afterAll(async () => {
  await feeds.close();
});
beforeEach(async () => {
  desk = await startTestDesk();
});
afterEach(async () => {
  await desk.stop();
});

/** A fresh path per test so servers' routes never leak between tests. */
function route(body: string, extra: Parameters<FeedServer['set']>[1] = {}) {
  const path = `/feed-${++n}`;
  feeds.set(path, { body, ...extra });
  return path;
}

async function addSource(body: Partial<NewSource> & { url: string }) {
  return createFeedSource(desk, body.url, { label: 'Acme news', ...body });
}

const poll = () => desk.services.scheduler.runNow(FEED_POLL_JOB);
const source = async (id: string) => (await desk.api('GET', `/api/v1/sources/${id}`)).body;
const signals = (sourceId: string) =>
  desk.services.db.selectFrom('signals').selectAll().where('sourceId', '=', sourceId).orderBy('id').execute();
const activity = (kind: import('../domain/catalog/activity-kinds').ActivityKind) => desk.services.db.selectFrom('activity').selectAll().where('kind', '=', kind).orderBy('id').execute();
const hits = (path: string) => feeds.requests.filter((r) => r.path === path);

describe('feed poller', () => {
  it('imports the current items of a new RSS feed on its first poll, with sourceUrl, and traces every signal', async () => {
    const path = route(fixture('rss.xml'), { etag: '"rss-1"' });
    const src = await addSource({ url: feeds.url(path) });
    expect(src.status).toBe('pending');
    await poll();

    const rows = await signals(src.id);
    expect(rows.map((s) => s.title)).toEqual(['Acme launches the Widget 2', 'Pricing update for Acme Cloud', 'Weekly roundup: competitor hiring']);
    expect(rows[0]).toMatchObject({ kind: 'news', priority: 'normal', sourceUrl: 'https://acme.example/news/widget-2', detail: 'The Widget 2 ships today & costs less.' });
    const after = await source(src.id);
    expect(after).toMatchObject({ status: 'connected', lastSyncedAt: desk.clock.now().toISOString(), lastErrorMessage: null, lastSignalAt: desk.clock.now().toISOString() });
    const received = await activity('signal.received');
    expect(received.map((a) => a.entityId).sort()).toEqual(rows.map((s) => s.id).sort());
    expect((await activity('source.polled'))[0].detail).toContain('3 new items');
    expect(await activity('source.connected')).toHaveLength(1);
  });

  it('polls again only when due on the workspace cadence, sending If-None-Match; 304 is a success without items', async () => {
    const path = route(fixture('rss.xml'), { etag: '"rss-1"' });
    const src = await addSource({ url: feeds.url(path) });
    await poll();
    expect(hits(path)).toHaveLength(1);

    desk.clock.advanceMinutes(29); // workspace cadence: 30 minutes (free plan, default interval)
    await poll();
    expect(hits(path)).toHaveLength(1);
    expect((await source(src.id)).pollGating).toMatchObject({ isDueNow: false, minutesUntilDue: 1, intervalMinutes: 30, isOverride: false });

    desk.clock.advanceMinutes(1);
    await poll();
    expect(hits(path)).toHaveLength(2);
    expect(hits(path)[1]).toMatchObject({ ifNoneMatch: '"rss-1"', status: 304 });
    expect(await signals(src.id)).toHaveLength(3);
    expect((await source(src.id)).lastSyncedAt).toBe(desk.clock.now().toISOString());
  });

  it('sends If-Modified-Since when the feed gave Last-Modified', async () => {
    const path = route(fixture('rss.xml'), { lastModified: 'Mon, 09 Mar 2026 10:00:00 GMT' });
    await addSource({ url: feeds.url(path) });
    await poll();
    desk.clock.advanceMinutes(30);
    await poll();
    expect(hits(path)[1]).toMatchObject({ ifModifiedSince: 'Mon, 09 Mar 2026 10:00:00 GMT', status: 304 });
  });

  it('dedupes items across polls: only new items become signals', async () => {
    const path = route(fixture('rss.xml'), { etag: '"v1"' });
    const src = await addSource({ url: feeds.url(path) });
    await poll();
    const extra = '<item><title>Acme opens a Berlin office</title><link>https://acme.example/news/berlin</link><guid>acme-news-3</guid></item>';
    feeds.set(path, { body: fixture('rss.xml').replace('<item>', `${extra}<item>`), etag: '"v2"' });
    desk.clock.advanceMinutes(30);
    await poll();
    const rows = await signals(src.id);
    expect(rows).toHaveLength(4);
    expect(rows[3].title).toBe('Acme opens a Berlin office');
    expect((await activity('source.polled')).at(-1)!.detail).toContain('1 new items (3 already seen');
    // the same body again (a server without validators): nothing new
    feeds.set(path, { body: fixture('rss.xml').replace('<item>', `${extra}<item>`) });
    desk.clock.advanceMinutes(30);
    await poll();
    expect(await signals(src.id)).toHaveLength(4);
  });

  it('reads Atom (review_site) and JSON Feed (linkedin) with their own signal kinds', async () => {
    const atom = await addSource({ type: 'review_site', label: 'Reviews', url: feeds.url(route(fixture('atom.xml'))) });
    const json = await addSource({ type: 'linkedin', label: 'LinkedIn', url: feeds.url(route(fixture('feed.json'), { contentType: 'application/feed+json' })) });
    await poll();
    const reviews = await signals(atom.id);
    expect(reviews.map((s) => [s.title, s.kind, s.sourceUrl])).toEqual([
      ['Five stars: fast support', 'review', 'https://reviews.example/acme/101'],
      ['One star: billing trouble', 'review', 'https://reviews.example/acme/102'],
    ]);
    const posts = await signals(json.id);
    expect(posts.map((s) => [s.title, s.kind])).toEqual([
      ['We are hiring account executives', 'mention'],
      ['Thanks to everyone at SaaSConf!', 'mention'],
    ]);
  });

  it('applies include and exclude keywords (exclude wins) to arriving items', async () => {
    const path = route(fixture('rss.xml'));
    const src = await addSource({ url: feeds.url(path), includeKeywords: ['PRICING', 'hiring'], excludeKeywords: ['roundup'] });
    await poll();
    expect((await signals(src.id)).map((s) => s.title)).toEqual(['Pricing update for Acme Cloud']);
    expect((await activity('source.polled'))[0].detail).toContain('2 filtered out');

    // Filters apply to items as they arrive: items filtered earlier are not brought back.
    expect((await desk.api('PUT', `/api/v1/sources/${src.id}/keywords`, { includeKeywords: [], excludeKeywords: [] })).status).toBe(200);
    feeds.set(path, { body: fixture('rss.xml').replace('<item>', '<item><title>Later news</title><guid>later</guid></item><item>') });
    desk.clock.advanceMinutes(30);
    await poll();
    expect((await signals(src.id)).map((s) => s.title)).toEqual(['Pricing update for Acme Cloud', 'Later news']);
  });

  it('on a 500 sets status error with lastErrorMessage and backs off interval x 2^failures; recovers later', async () => {
    const path = route('', { status: 500 });
    const src = await addSource({ url: feeds.url(path) });
    await poll();
    let s = await source(src.id);
    expect(s).toMatchObject({ status: 'error', consecutiveFailures: 1, lastSyncedAt: null });
    expect(s.lastErrorMessage).toContain('HTTP 500');
    const failedAt = desk.clock.now().getTime();
    expect(s.pollGating.nextPollAt).toBe(new Date(failedAt + 60 * MINUTE_MS).toISOString());
    expect((await activity('source.poll_failed'))[0].detail).toContain('HTTP 500');

    desk.clock.advanceMinutes(59);
    await poll();
    expect(hits(path)).toHaveLength(1);
    desk.clock.advanceMinutes(1);
    await poll();
    expect(hits(path)).toHaveLength(2);
    s = await source(src.id);
    expect(s.consecutiveFailures).toBe(2);
    expect(s.pollGating.nextPollAt).toBe(new Date(desk.clock.now().getTime() + 120 * MINUTE_MS).toISOString());

    feeds.set(path, { body: fixture('rss.xml') });
    desk.clock.advanceMinutes(120);
    await poll();
    s = await source(src.id);
    expect(s).toMatchObject({ status: 'connected', consecutiveFailures: 0, lastErrorMessage: null, lastSyncedAt: desk.clock.now().toISOString() });
    expect(await signals(src.id)).toHaveLength(3);
    expect(await activity('source.recovered')).toHaveLength(1);
  });

  it('caps the backoff at 24 hours', async () => {
    const path = route('', { status: 503 });
    const src = await addSource({ url: feeds.url(path), pollIntervalMinutes: 1440 });
    await poll();
    expect((await source(src.id)).pollGating.minutesUntilDue).toBe(24 * 60);
  });

  it('marks a malformed feed and an oversize answer as errors', async () => {
    const bad = await addSource({ url: feeds.url(route(fixture('malformed.xml'))) });
    const html = await addSource({ label: 'Homepage', url: feeds.url(route(fixture('not-a-feed.html'), { contentType: 'text/html' })) });
    const big = await addSource({ label: 'Huge', url: feeds.url(`/huge-${++n}`) });
    feeds.set(`/huge-${n}`, { streamBytes: 6 * 1024 * 1024 });
    await poll();
    for (const id of [bad.id, html.id]) {
      expect(await source(id)).toMatchObject({ status: 'error', lastErrorMessage: 'The answer is not an RSS, Atom or JSON feed' });
    }
    expect((await source(big.id)).lastErrorMessage).toContain('larger than 5 MB');
    expect(await signals(bad.id)).toHaveLength(0);
  });

  it('skips paused sources and polls them again after resume', async () => {
    const path = route(fixture('rss.xml'));
    const src = await addSource({ url: feeds.url(path) });
    expect((await desk.api('POST', '/api/v1/sources/bulk', { action: 'pause', sourceIds: [src.id] })).status).toBe(200);
    await poll();
    desk.clock.advanceMinutes(600);
    await poll();
    expect(hits(path)).toHaveLength(0);
    expect((await source(src.id)).pollGating).toMatchObject({ isDueNow: false, nextPollAt: null });

    expect((await desk.api('POST', '/api/v1/sources/bulk', { action: 'resume', sourceIds: [src.id] })).status).toBe(200);
    await poll();
    expect(hits(path)).toHaveLength(1);
    expect(await signals(src.id)).toHaveLength(3);
  });

  it('honours a source interval override, and the plan floor under it', async () => {
    const slow = route(fixture('rss.xml'));
    const fast = route(fixture('atom.xml'));
    await addSource({ url: feeds.url(slow), pollIntervalMinutes: 60 });
    await addSource({ label: 'Fast', url: feeds.url(fast), pollIntervalMinutes: 1 });
    await poll();
    desk.clock.advanceMinutes(14);
    await poll();
    expect([hits(slow).length, hits(fast).length]).toEqual([1, 1]); // 1 minute is raised to the free plan's 15
    desk.clock.advanceMinutes(1);
    await poll();
    expect([hits(slow).length, hits(fast).length]).toEqual([1, 2]);
    desk.clock.advanceMinutes(45);
    await poll();
    expect([hits(slow).length, hits(fast).length]).toEqual([2, 3]);
  });

  it('never polls manual or file sources', async () => {
    await desk.api('POST', '/api/v1/sources', { type: 'manual', label: 'Inbox' });
    const before = feeds.requests.length;
    await poll();
    expect(feeds.requests.length).toBe(before);
  });

  it('POST /sources/{id}/poll polls now, due or not; refuses paused and non-feed sources', async () => {
    const path = route(fixture('rss.xml'));
    const src = await addSource({ url: feeds.url(path) });
    await poll();
    const res = await desk.api('POST', `/api/v1/sources/${src.id}/poll`);
    expect(res.status).toBe(200);
    expect(res.body.outcome).toMatchObject({ result: 'ok', created: 0, duplicates: 3 });
    expect(hits(path)).toHaveLength(2);

    await desk.api('POST', '/api/v1/sources/bulk', { action: 'pause', sourceIds: [src.id] });
    expect((await desk.api('POST', `/api/v1/sources/${src.id}/poll`)).body.error).toBe('source_paused');
    const manual = (await desk.api('POST', '/api/v1/sources', { type: 'manual', label: 'Inbox' })).body;
    expect((await desk.api('POST', `/api/v1/sources/${manual.id}/poll`)).status).toBe(409);
    expect((await desk.api('POST', '/api/v1/sources/src_nope/poll')).status).toBe(404);
  });
});

describe('one poll at a time per source', () => {
  const arrivals = (path: string) => feeds.arrivals.filter((p) => p === path).length;
  const pollNow = (id: string) => desk.api('POST', `/api/v1/sources/${id}/poll`);
  /** Resolves once `n` calls have reached the source sync's pollNow (each has joined or started by then). */
  const pollNowCalls = (n: number) => {
    const spy = vi.spyOn(desk.services.sourceSync, 'pollNow');
    return vi.waitFor(() => expect(spy).toHaveBeenCalledTimes(n));
  };

  it('two concurrent "poll now" on a slow failing feed: one fetch, both answer its outcome, one failure counted', async () => {
    const slow = gate();
    const path = route('', { status: 500, gate: slow.promise });
    const src = await addSource({ url: feeds.url(path) });
    const called = pollNowCalls(2);
    const both = Promise.all([pollNow(src.id), pollNow(src.id)]);
    await called;
    await vi.waitFor(() => expect(arrivals(path)).toBe(1));
    slow.open();
    const [a, b] = await both;
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.outcome).toMatchObject({ result: 'failed', error: expect.stringContaining('500') });
    expect(b.body.outcome).toEqual(a.body.outcome);
    expect(hits(path)).toHaveLength(1);
    expect(await source(src.id)).toMatchObject({ status: 'error', consecutiveFailures: 1 });
    expect(await activity('source.poll_failed')).toHaveLength(1);

    // once it is over, "poll now" polls again
    expect((await pollNow(src.id)).body.outcome).toMatchObject({ result: 'failed' });
    expect(hits(path)).toHaveLength(2);
    expect((await source(src.id)).consecutiveFailures).toBe(2);
  });

  it('"poll now" while the first poll of a new feed runs joins it: one fetch, its items once', async () => {
    const slow = gate();
    const path = route(fixture('rss.xml'), { gate: slow.promise });
    const src = await addSource({ url: feeds.url(path) });
    const round = poll(); // the round a new feed nudges
    await vi.waitFor(() => expect(arrivals(path)).toBe(1));
    const called = pollNowCalls(1);
    const now = pollNow(src.id);
    await called;
    slow.open();
    const [res] = await Promise.all([now, round]);
    expect(res.status).toBe(200);
    expect(res.body.outcome).toMatchObject({ result: 'ok', created: 3, duplicates: 0 });
    expect(hits(path)).toHaveLength(1);
    expect(await signals(src.id)).toHaveLength(3);
  });

  it('a scheduled round skips a source whose "poll now" is under way', async () => {
    const slow = gate();
    const path = route('', { status: 500, gate: slow.promise });
    const src = await addSource({ url: feeds.url(path) });
    const now = pollNow(src.id);
    await vi.waitFor(() => expect(arrivals(path)).toBe(1));
    await poll(); // returns without waiting on the slow feed
    expect(arrivals(path)).toBe(1);
    slow.open();
    expect((await now).body.outcome).toMatchObject({ result: 'failed' });
    expect(hits(path)).toHaveLength(1);
    expect((await source(src.id)).consecutiveFailures).toBe(1);
  });

  it('a round does not poll again a source whose "poll now" ended while the round polled others', async () => {
    // 6 slow feeds fill the round's first batch; the 7th, created last, is polled now meanwhile
    const slow = gate();
    const slowPaths = Array.from({ length: 6 }, () => route(fixture('rss.xml'), { gate: slow.promise }));
    for (const p of slowPaths) {
      await addSource({ url: feeds.url(p) });
      desk.clock.advance(1000);
    }
    const failing = route('', { status: 500 });
    const last = await addSource({ url: feeds.url(failing) });
    desk.clock.advance(1000);
    const round = poll();
    await vi.waitFor(() => expect(slowPaths.map(arrivals)).toEqual([1, 1, 1, 1, 1, 1]));
    expect((await pollNow(last.id)).body.outcome).toMatchObject({ result: 'failed' });
    slow.open();
    await round;
    expect(hits(failing)).toHaveLength(1);
    expect(await source(last.id)).toMatchObject({ status: 'error', consecutiveFailures: 1 });
  });

  it('"poll now" that joins a round which then finds the source not due polls it after all', async () => {
    const path = route(fixture('rss.xml'));
    await addSource({ url: feeds.url(path) });
    const sync = desk.services.sourceSync as unknown as { pollIfStillDue(id: string, p: unknown): Promise<unknown> };
    const check = sync.pollIfStillDue.bind(sync);
    let joined: ReturnType<typeof pollNow> | null = null;
    // While the round checks the source it read as due, another poll has just ended (the source is
    // no longer due) and a "poll now" arrives.
    vi.spyOn(sync, 'pollIfStillDue').mockImplementationOnce(async (id: string, profile: unknown) => {
      await desk.services.db.updateTable('sources').set({ lastPolledAt: desk.clock.now().toISOString() }).where('id', '=', id).execute();
      const called = pollNowCalls(1);
      joined = pollNow(id);
      await called; // it joined the round's entry
      return check(id, profile);
    });
    await poll();
    expect(hits(path)).toHaveLength(0);
    const res = await joined!;
    expect(res.body.outcome).toMatchObject({ result: 'ok', created: 3 });
    expect(hits(path)).toHaveLength(1);
  });
});
