import { inTransaction } from '../../../db/transactions';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, MINUTE_MS } from '../../core/clock';
import { encodeCursor } from '../../core/lists';
import type { ActivityKind } from '../../domain/catalog/activity-kinds';
import { resolveActor } from '../../domain/members/resolve-actor';
import { insertSignal } from '../../domain/signals/signal-store';
import { stampFreshSignal } from '../../domain/sources/source-store';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { aSignal, createSignal, type NewSignal } from '../../testing/fixtures/signals';
import { insertSourceRow } from '../../testing/fixtures/sources';
import { addMember as addWorkspaceMember } from '../../testing/fixtures/workspace';

let desk: TestDesk;

beforeEach(async () => {
  desk = await startTestDesk();
});

afterEach(async () => {
  await desk.stop();
});

const valid = aSignal();

async function create(body: Partial<NewSignal> = {}) {
  return createSignal(desk, body);
}

/** Everything a rejected request must leave as it was. */
async function snapshot() {
  const db = desk.services.db;
  return {
    signals: await db.selectFrom('signals').selectAll().orderBy('id').execute(),
    reactions: await db.selectFrom('signalReactions').selectAll().orderBy('signalId').orderBy('userId').orderBy('emoji').execute(),
    activity: await db.selectFrom('activity').select(['id']).orderBy('id').execute(),
    events: await db.selectFrom('outboxEvents').select(['id']).orderBy('id').execute(),
  };
}

async function activityOf(kind: ActivityKind) {
  return desk.services.db.selectFrom('activity').selectAll().where('kind', '=', kind).orderBy('id').execute();
}

async function addMember(id: string, name: string) {
  await addWorkspaceMember(desk, id, name);
}

async function addSource(id: string, label: string) {
  await insertSourceRow(desk, { id, label });
}

describe('POST /signals', () => {
  it('answers what a read of the new signal returns, key for key (the answer is built, not read back)', async () => {
    const bare = await desk.api('POST', '/api/v1/signals', { kind: 'note', priority: 'low', title: 'No link', detail: '' });
    expect(bare.status).toBe(201);
    expect(bare.body.sourceUrl).toBeNull();
    expect(JSON.stringify((await desk.api('GET', '/api/v1/signals?limit=1')).body.signals[0])).toBe(JSON.stringify(bare.body));
  });

  it('creates a signal, answers 201 with it and logs signal.created by the owner', async () => {
    const owner = await resolveActor(desk.services.db);
    const signal = await create({ title: '  Competitor launched  ' });
    expect(signal).toEqual({
      id: expect.stringMatching(/^sig_/),
      kind: 'news',
      priority: 'high',
      title: 'Competitor launched',
      detail: 'They shipped a clone.',
      sourceUrl: 'https://example.com/post',
      sourceId: null,
      sourceLabel: null,
      externalId: null,
      pinned: false,
      reactions: [],
      createdAt: '2026-03-10T12:00:00.000Z',
      publishedAt: null,
    });
    // The answer is built from what was written, not read back: it must be what a read returns, key for key.
    const listed = await desk.api('GET', '/api/v1/signals?limit=1');
    expect(JSON.stringify(listed.body.signals[0])).toBe(JSON.stringify(signal));
    const rows = await activityOf('signal.created');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ entityType: 'signal', entityId: signal.id, actorUserId: owner.userId, detail: 'Signal created: Competitor launched' });
    const events = await desk.services.db.selectFrom('outboxEvents').selectAll().execute();
    expect(events.map((e) => [e.event, JSON.parse(e.payload).data])).toEqual([
      ['signal.created', { signalId: signal.id, kind: 'news', priority: 'high', title: 'Competitor launched', sourceId: null, origin: 'manual' }],
    ]);
  });

  it('accepts both ends of every limit', async () => {
    await create({ title: 'x', detail: '', sourceUrl: undefined });
    await create({ title: 't'.repeat(200), detail: 'd'.repeat(5000), sourceUrl: null });
    await create({ sourceUrl: 'http://example.com' });
    const list = await desk.api('GET', '/api/v1/signals');
    expect(list.body.signals).toHaveLength(3);
  });

  it.each([
    ['an unknown kind', { kind: 'gossip' }, 'kind'],
    ['an unknown priority', { priority: 'critical' }, 'priority'],
    ['an empty title', { title: '' }, 'title'],
    ['a blank title', { title: '   ' }, 'title'],
    ['a 201-character title', { title: 't'.repeat(201) }, 'title'],
    ['a 5001-character detail', { detail: 'd'.repeat(5001) }, 'detail'],
    ['a non-http sourceUrl', { sourceUrl: 'ftp://example.com/x' }, 'sourceUrl'],
    ['a broken sourceUrl', { sourceUrl: 'https://' }, 'sourceUrl'],
    ['a missing detail', { detail: undefined }, 'detail'],
    ['an extra field', { colour: 'red' }, undefined],
  ])('rejects %s with 422 naming the field and changes nothing', async (_what, patch, field) => {
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/signals', body: { ...valid, ...patch } }, { field, error: 'validation_failed' });
  });

  it('needs the bearer token', async () => {
    const res = await desk.api('POST', '/api/v1/signals', valid, null);
    expect(res.status).toBe(401);
    expect((await snapshot()).signals).toHaveLength(0);
  });
});

describe('GET /signals', () => {
  it('lists newest first with default limit 50, limit 1-200, and pinned signals do not float', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 205; i++) {
      desk.clock.advance(1000);
      ids.push((await desk.services.signals.create({ kind: 'note', priority: 'low', title: `s${i}`, detail: '' })).id);
    }
    await desk.api('POST', '/api/v1/signals/bulk', { action: 'pin', signalIds: [ids[0]] });

    const dflt = await desk.api('GET', '/api/v1/signals');
    expect(dflt.status).toBe(200);
    expect(dflt.body.signals).toHaveLength(50);
    expect(dflt.body.signals[0].title).toBe('s204');
    expect(dflt.body.signals[49].title).toBe('s155');

    const max = await desk.api('GET', '/api/v1/signals?limit=200');
    expect(max.body.signals).toHaveLength(200);
    expect(max.body.signals.at(-1).title).toBe('s5');
    expect(max.body.signals.some((s: { pinned: boolean }) => s.pinned)).toBe(false);

    const one = await desk.api('GET', '/api/v1/signals?limit=1');
    expect(one.body.signals.map((s: { title: string }) => s.title)).toEqual(['s204']);

    for (const bad of ['0', '201', '-1', '1.5', 'ten']) {
      const res = await desk.api('GET', `/api/v1/signals?limit=${bad}`);
      expect(res.status, `limit=${bad}`).toBe(422);
      expect(res.body.details[0].field).toBe('limit');
    }
  });

  it('breaks ties of the same createdAt newest-inserted first', async () => {
    const a = await create({ title: 'first' });
    const b = await create({ title: 'second' });
    expect(a.createdAt).toBe(b.createdAt);
    const res = await desk.api('GET', '/api/v1/signals');
    expect(res.body.signals.map((s: { title: string }) => s.title)).toEqual(['second', 'first']);
  });

  it('filters by since (inclusive) and rejects an invalid since', async () => {
    await create({ title: 'old' });
    desk.clock.advance(10 * MINUTE_MS);
    const cut = desk.clock.now().toISOString();
    await create({ title: 'at cut' });
    desk.clock.advance(MINUTE_MS);
    await create({ title: 'new' });

    const res = await desk.api('GET', `/api/v1/signals?since=${encodeURIComponent(cut)}`);
    expect(res.body.signals.map((s: { title: string }) => s.title)).toEqual(['new', 'at cut']);
    const offset = await desk.api('GET', `/api/v1/signals?since=${encodeURIComponent('2026-03-10T13:10:00+01:00')}`);
    expect(offset.body.signals.map((s: { title: string }) => s.title)).toEqual(['new', 'at cut']);

    for (const bad of ['yesterday', '2026-13-45T00:00:00Z', '2026-03-10T12:00:00']) {
      const r = await desk.api('GET', `/api/v1/signals?since=${encodeURIComponent(bad)}`);
      expect(r.status, bad).toBe(422);
      expect(r.body.details[0].field).toBe('since');
    }
  });

  it('reads a since date without a time as the start of that day in the workspace timezone', async () => {
    await desk.stop();
    // 2026-03-10T12:00Z is 13:00 in Berlin; the Berlin day 2026-03-10 starts at 2026-03-09T23:00Z
    desk = await startTestDesk({ seed: { timezone: 'Europe/Berlin' }, clock: new ManualClock('2026-03-09T22:59:00.000Z') });
    await create({ title: 'Berlin 9 March' });
    desk.clock.advance(MINUTE_MS);
    await create({ title: 'Berlin 10 March' });
    const res = await desk.api('GET', '/api/v1/signals?since=2026-03-10');
    expect(res.body.signals.map((s: { title: string }) => s.title)).toEqual(['Berlin 10 March']);
  });

  it('filters by sourceId and returns the source label', async () => {
    await addSource('src_a', 'Hacker News');
    await addSource('src_b', 'Reviews');
    const db = desk.services.db;
    await inTransaction(db, async (trx) => {
      await insertSignal(trx, desk.clock, { kind: 'news', priority: 'normal', title: 'from a', detail: '', sourceId: 'src_a', origin: 'feed' }, stampFreshSignal);
      await insertSignal(trx, desk.clock, { kind: 'review', priority: 'normal', title: 'from b', detail: '', sourceId: 'src_b', origin: 'feed' }, stampFreshSignal);
    });
    await create({ title: 'by hand' });

    const all = await desk.api('GET', '/api/v1/signals');
    expect(all.body.signals.map((s: { title: string; sourceId: string | null; sourceLabel: string | null }) => [s.title, s.sourceId, s.sourceLabel])).toEqual([
      ['by hand', null, null],
      ['from b', 'src_b', 'Reviews'],
      ['from a', 'src_a', 'Hacker News'],
    ]);
    const onlyA = await desk.api('GET', '/api/v1/signals?sourceId=src_a');
    expect(onlyA.body.signals.map((s: { title: string }) => s.title)).toEqual(['from a']);
    const unknown = await desk.api('GET', '/api/v1/signals?sourceId=src_nope');
    expect(unknown.status).toBe(200);
    expect(unknown.body.signals).toEqual([]);
  });

  it('shows reactions with counts, user ids and the viewer flag; asUserId must be a member', async () => {
    const owner = await resolveActor(desk.services.db);
    await addMember('usr_ann', 'Ann');
    const s = await create();
    await desk.api('POST', `/api/v1/signals/${s.id}/reaction`, { emoji: '👍' });
    await desk.api('POST', `/api/v1/signals/${s.id}/reaction`, { emoji: '👍', asUserId: 'usr_ann' });
    await desk.api('POST', `/api/v1/signals/${s.id}/reaction`, { emoji: '🚀', asUserId: 'usr_ann' });

    const asOwner = await desk.api('GET', '/api/v1/signals');
    expect(asOwner.body.signals[0].reactions).toEqual([
      { emoji: '👍', count: 2, userIds: [owner.userId, 'usr_ann'], reacted: true },
      { emoji: '🚀', count: 1, userIds: ['usr_ann'], reacted: false },
    ]);
    const asAnn = await desk.api('GET', '/api/v1/signals?asUserId=usr_ann');
    expect(asAnn.body.signals[0].reactions.map((r: { reacted: boolean }) => r.reacted)).toEqual([true, true]);
    const stranger = await desk.api('GET', '/api/v1/signals?asUserId=usr_nobody');
    expect(stranger.status).toBe(422);
    expect(stranger.body.details[0].field).toBe('asUserId');
  });
});

describe('GET /signals/{id}', () => {
  it('answers one signal in the shape the list shows it, with its source and reactions', async () => {
    await addSource('src_a', 'Hacker News');
    await addMember('usr_ann', 'Ann');
    await inTransaction(desk.services.db, async (trx) => {
      await insertSignal(trx, desk.clock, { kind: 'news', priority: 'high', title: 'from a', detail: 'd', sourceId: 'src_a', origin: 'feed' }, stampFreshSignal);
    });
    const listed = (await desk.api('GET', '/api/v1/signals')).body.signals[0];
    await desk.api('POST', `/api/v1/signals/${listed.id}/reaction`, { emoji: '👀', asUserId: 'usr_ann' });
    const one = await desk.api('GET', `/api/v1/signals/${listed.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ ...listed, reactions: [{ emoji: '👀', count: 1, userIds: ['usr_ann'], reacted: false }] });
    expect((await desk.api('GET', `/api/v1/signals/${listed.id}?asUserId=usr_ann`)).body.reactions[0].reacted).toBe(true);
  });

  it('answers 404 for an unknown id and 422 for a non-member viewer', async () => {
    const s = await create();
    const missing = await desk.api('GET', '/api/v1/signals/sig_nope');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('signal_not_found');
    const stranger = await desk.api('GET', `/api/v1/signals/${s.id}?asUserId=usr_nobody`);
    expect(stranger.status).toBe(422);
    expect(stranger.body.details[0].field).toBe('asUserId');
  });
});

describe('GET /signals pages', () => {
  /** Writes `n` signals, `perInstant` of them at each instant (ties cross page boundaries). */
  async function seed(n: number, perInstant: number, sourceOf: (i: number) => string | null = () => null) {
    const ids: string[] = [];
    await inTransaction(desk.services.db, async (trx) => {
      for (let i = 0; i < n; i++) {
        if (i % perInstant === 0) desk.clock.advance(1000);
        const sourceId = sourceOf(i);
        ids.push(await insertSignal(trx, desk.clock, { kind: 'note', priority: 'low', title: `s${i}`, detail: '', sourceId, origin: sourceId ? 'feed' : 'manual' }, stampFreshSignal));
      }
    });
    return ids;
  }

  /** Follows nextCursor from the first page to the last; returns the titles in order and the page sizes. */
  async function readAll(query: string) {
    const titles: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    for (let guard = 0; guard < 100; guard++) {
      const res = await desk.api('GET', `/api/v1/signals?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      titles.push(...res.body.signals.map((x: { title: string }) => x.title));
      sizes.push(res.body.signals.length);
      cursor = res.body.nextCursor;
      if (cursor === null) return { titles, sizes };
    }
    throw new Error('nextCursor never became null');
  }

  it('reads all 450 signals through nextCursor, each once, newest first, ending with null', async () => {
    await seed(450, 7);
    const expected = Array.from({ length: 450 }, (_, i) => `s${449 - i}`);
    const byDefault = await readAll('');
    expect(byDefault.sizes).toEqual(Array(9).fill(50));
    expect(byDefault.titles).toEqual(expected);
    const byMax = await readAll('limit=200');
    expect(byMax.sizes).toEqual([200, 200, 50]);
    expect(byMax.titles).toEqual(expected);
    expect(new Set(byMax.titles).size).toBe(450);
  });

  it('a page that fits everything has nextCursor null; new signals do not shift the next page', async () => {
    await seed(3, 1);
    const all = await desk.api('GET', '/api/v1/signals');
    expect(all.body).toMatchObject({ nextCursor: null });
    const first = await desk.api('GET', '/api/v1/signals?limit=2');
    expect(first.body.signals.map((x: { title: string }) => x.title)).toEqual(['s2', 's1']);
    await create({ title: 'newer' });
    const next = await desk.api('GET', `/api/v1/signals?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(next.body).toMatchObject({ signals: [expect.objectContaining({ title: 's0' })], nextCursor: null });
  });

  it('combines the cursor with sourceId and since', async () => {
    await addSource('src_a', 'A');
    await addSource('src_b', 'B');
    await seed(60, 4, (i) => (i % 3 === 0 ? 'src_a' : i % 3 === 1 ? 'src_b' : null));
    // s0..s3 are at 12:00:01, s4..s7 at 12:00:02, ...; since 12:00:05 keeps s16 and later
    const since = encodeURIComponent('2026-03-10T12:00:05.000Z');
    const fromA = (i: number) => i % 3 === 0;
    const expected = Array.from({ length: 60 }, (_, i) => 59 - i).filter((i) => fromA(i) && i >= 16).map((i) => `s${i}`);
    const paged = await readAll(`sourceId=src_a&since=${since}&limit=3`);
    expect(expected).toHaveLength(14); // s57, s54, ... s18
    expect(paged.titles).toEqual(expected);
    expect(paged.sizes).toEqual([3, 3, 3, 3, 2]);
  });

  it('rejects a cursor it did not serve with 422 naming cursor', async () => {
    await seed(3, 1);
    for (const bad of ['garbage', encodeCursor(['2026-03-10T12:00:00.000Z', 'x']), encodeCursor(['2026-03-10T12:00:00.000Z']), '']) {
      const res = await desk.api('GET', `/api/v1/signals?cursor=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(422);
      expect(res.body.details).toEqual([{ field: 'cursor', message: expect.any(String) }]);
    }
  });
});

describe('POST /signals/bulk', () => {
  it('pins, unpins and deletes, reporting unknown ids and logging one row per call', async () => {
    const a = await create({ title: 'a' });
    const b = await create({ title: 'b' });
    const c = await create({ title: 'c' });

    const pin = await desk.api('POST', '/api/v1/signals/bulk', { action: 'pin', signalIds: [a.id, b.id, a.id, 'sig_missing'] });
    expect(pin.status).toBe(200);
    expect(pin.body).toEqual({ action: 'pin', affected: 2, notFound: ['sig_missing'] });
    let list = (await desk.api('GET', '/api/v1/signals')).body.signals;
    expect(Object.fromEntries(list.map((s: { title: string; pinned: boolean }) => [s.title, s.pinned]))).toEqual({ a: true, b: true, c: false });
    expect((await activityOf('signal.bulk_pinned')).map((r) => r.detail)).toEqual(['Pinned 2 signals']);

    const unpin = await desk.api('POST', '/api/v1/signals/bulk', { action: 'pin', signalIds: [b.id], pinned: false });
    expect(unpin.body).toEqual({ action: 'pin', affected: 1, notFound: [] });
    list = (await desk.api('GET', '/api/v1/signals')).body.signals;
    expect(Object.fromEntries(list.map((s: { title: string; pinned: boolean }) => [s.title, s.pinned]))).toEqual({ a: true, b: false, c: false });
    expect((await activityOf('signal.bulk_unpinned')).map((r) => r.detail)).toEqual(['Unpinned 1 signal']);

    await desk.api('POST', `/api/v1/signals/${c.id}/reaction`, { emoji: '👀' });
    const del = await desk.api('POST', '/api/v1/signals/bulk', { action: 'delete', signalIds: [a.id, c.id] });
    expect(del.body).toEqual({ action: 'delete', affected: 2, notFound: [] });
    list = (await desk.api('GET', '/api/v1/signals')).body.signals;
    expect(list.map((s: { title: string }) => s.title)).toEqual(['b']);
    expect(await desk.services.db.selectFrom('signalReactions').selectAll().execute()).toEqual([]);
    expect((await activityOf('signal.bulk_deleted')).map((r) => r.detail)).toEqual(['Deleted 2 signals']);
  });

  it('only unknown ids: nothing changes, nothing is logged', async () => {
    await create();
    const before = await snapshot();
    const res = await desk.api('POST', '/api/v1/signals/bulk', { action: 'delete', signalIds: ['sig_x', 'sig_y'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ action: 'delete', affected: 0, notFound: ['sig_x', 'sig_y'] });
    expect(await snapshot()).toEqual(before);
  });

  it('takes 50 ids and rejects 51 (and 0) without changing anything', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 51; i++) ids.push((await desk.services.signals.create({ kind: 'note', priority: 'low', title: `s${i}`, detail: '' })).id);

    const before = await snapshot();
    const tooMany = await desk.api('POST', '/api/v1/signals/bulk', { action: 'delete', signalIds: ids });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.details[0].field).toBe('signalIds');
    const none = await desk.api('POST', '/api/v1/signals/bulk', { action: 'pin', signalIds: [] });
    expect(none.status).toBe(422);
    const badAction = await desk.api('POST', '/api/v1/signals/bulk', { action: 'archive', signalIds: [ids[0]] });
    expect(badAction.status).toBe(422);
    expect(badAction.body.details[0].field).toBe('action');
    const badPinned = await desk.api('POST', '/api/v1/signals/bulk', { action: 'pin', signalIds: [ids[0]], pinned: 'yes' });
    expect(badPinned.status).toBe(422);
    expect(await snapshot()).toEqual(before);

    const fifty = await desk.api('POST', '/api/v1/signals/bulk', { action: 'delete', signalIds: ids.slice(0, 50) });
    expect(fifty.body).toEqual({ action: 'delete', affected: 50, notFound: [] });
    expect((await snapshot()).signals.map((s) => s.id)).toEqual([ids[50]]);
  });
});

describe('POST /signals/{id}/reaction', () => {
  it('toggles: the first call adds, the second removes; each is logged', async () => {
    const owner = await resolveActor(desk.services.db);
    const s = await create();
    const on = await desk.api('POST', `/api/v1/signals/${s.id}/reaction`, { emoji: '❤️' });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ signalId: s.id, emoji: '❤️', reacted: true, reactions: [{ emoji: '❤️', count: 1, userIds: [owner.userId], reacted: true }] });
    const off = await desk.api('POST', `/api/v1/signals/${s.id}/reaction`, { emoji: '❤️' });
    expect(off.body).toEqual({ signalId: s.id, emoji: '❤️', reacted: false, reactions: [] });
    expect((await activityOf('signal.reaction_added')).map((r) => [r.actorUserId, r.entityId])).toEqual([[owner.userId, s.id]]);
    expect((await activityOf('signal.reaction_removed'))).toHaveLength(1);
  });

  it('accepts all five emoji, for the owner by default or for a member', async () => {
    await addMember('usr_bo', 'Bo');
    const s = await create();
    for (const emoji of ['👍', '👀', '🎯', '❤️', '🚀']) {
      const res = await desk.api('POST', `/api/v1/signals/${s.id}/reaction`, { emoji, asUserId: 'usr_bo' });
      expect(res.body.reacted, emoji).toBe(true);
    }
    const last = await desk.api('POST', `/api/v1/signals/${s.id}/reaction`, { emoji: '🎯' });
    expect(last.body.reactions.map((r: { emoji: string; count: number }) => `${r.emoji}${r.count}`)).toEqual(['👍1', '👀1', '🎯2', '❤️1', '🚀1']);
    expect((await activityOf('signal.reaction_added')).filter((r) => r.actorLabel === 'Bo')).toHaveLength(5);
  });

  it('rejects another emoji, a non-member and an unknown signal without changing anything', async () => {
    const s = await create();
    const before = await snapshot();
    for (const emoji of ['😀', '\u2764', '', 'thumbsup']) {
      const res = await desk.api('POST', `/api/v1/signals/${s.id}/reaction`, { emoji });
      expect(res.status, emoji).toBe(422);
      expect(res.body.details[0].field).toBe('emoji');
    }
    const stranger = await desk.api('POST', `/api/v1/signals/${s.id}/reaction`, { emoji: '👍', asUserId: 'usr_nobody' });
    expect(stranger.status).toBe(422);
    expect(stranger.body.details[0].field).toBe('asUserId');
    const missing = await desk.api('POST', '/api/v1/signals/sig_missing/reaction', { emoji: '👍' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'signal_not_found', message: 'No signal with id sig_missing.' });
    expect(await snapshot()).toEqual(before);
  });
});
