import { beforeEach, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../core/clock';
import type { TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { addMember } from '../../testing/fixtures/workspace';
import { aMemory, createMemory, insertMemoryRow, recordMemoryCost, recordRetrieval } from '../../testing/fixtures/memory';
import { useTestDesk } from '../../testing/use-test-desk';

/** API tests of memory entries: create, list, read, edit, delete, bulk-update and reactions. */

const shared = useTestDesk();
let desk: TestDesk;
beforeEach(() => {
  desk = shared.desk;
});

const api = (method: string, p: string, body?: unknown) => desk.api(method, `/api/v1${p}`, body);
const db = () => desk.services.db;
const later = () => desk.clock.advance(MINUTE_MS);
const events = async (name: string) =>
  (await db().selectFrom('outboxEvents').selectAll().where('event', '=', name).orderBy('id').execute()).map((e) => JSON.parse(e.payload).data);
const activityKinds = async () => (await db().selectFrom('activity').select('kind').where('entityType', '=', 'memory').orderBy('id').execute()).map((a) => a.kind);
const reject = (method: string, path: string, body: unknown, field?: string, status = 422) => expectRejectedUnchanged(desk, { method, path: `/api/v1${path}`, body }, { status, field });

describe('POST /memory and GET /memory', () => {
  it('adds an entry with its fields, an activity row and memory.created; lists it with its counters', async () => {
    const res = await api('POST', '/memory', { ...aMemory({ importance: 7.5, pinned: true }), tags: ['pricing', ' founders ', 'pricing'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'decision',
      title: 'Pricing changes need approval',
      importance: 7.5,
      pinned: true,
      tags: ['founders', 'pricing'],
      reactions: [],
      retrievals7d: 0,
      retrievalCount: 0,
      lastRetrievedAt: null,
      totalAttributedInputTokens: 0,
      totalAttributedOutputTokens: 0,
      estimatedCostUsd: 0,
      costSpikeAckedAt: null,
      chronicAckedAt: null,
      consecutiveSpikeDays: 0,
      createdByRunId: null,
      archivedAt: null,
      createdAt: '2026-03-10T12:00:00.000Z',
    });
    expect(res.body.id).toMatch(/^mem_/);
    expect(await events('memory.created')).toEqual([
      { memoryId: res.body.id, kind: 'decision', title: 'Pricing changes need approval', importance: 7.5, pinned: true, tags: ['pricing', 'founders'], createdByRunId: null },
    ]);
    expect(await activityKinds()).toEqual(['memory.created']);

    // Counters written by cycles show on the list: retrievals7d counts the last 7 workspace days only.
    await recordRetrieval(desk, res.body.id, '2026-03-10T09:00:00.000Z', '2026-03-10', 2);
    await recordRetrieval(desk, res.body.id, '2026-03-04T09:00:00.000Z', '2026-03-04', 1);
    await recordRetrieval(desk, res.body.id, '2026-03-03T09:00:00.000Z', '2026-03-03', 5);
    await recordMemoryCost(desk, res.body.id, '2026-03-10', 1200, 300, 4567);
    const list = await api('GET', '/memory');
    expect(list.status).toBe(200);
    expect(list.body.memory).toHaveLength(1);
    expect(list.body.memory[0]).toMatchObject({
      retrievals7d: 3,
      retrievalCount: 8,
      lastRetrievedAt: '2026-03-10T09:00:00.000Z',
      totalAttributedInputTokens: 1200,
      totalAttributedOutputTokens: 300,
      estimatedCostUsd: 0.004567,
    });
    expect(list.body.nextCursor).toBeNull();
    expect((await api('GET', `/memory/${res.body.id}`)).body).toEqual(list.body.memory[0]);
  });

  it('bounds: title 1-200, content 1-4000, importance 0-10, at most 10 tags, a known kind; a rejected request changes nothing', async () => {
    for (const ok of [{ title: 'x'.repeat(200) }, { content: 'y'.repeat(4000) }, { importance: 0 }, { importance: 10 }, { importance: null }, { tags: Array.from({ length: 10 }, (_, i) => `t${i}`) }]) {
      expect((await api('POST', '/memory', aMemory(ok))).status, JSON.stringify(ok).slice(0, 60)).toBe(201);
    }
    for (const kind of ['fact', 'decision', 'preference', 'lesson']) expect((await api('POST', '/memory', aMemory({ kind: kind as 'fact' }))).status).toBe(201);
    await reject('POST', '/memory', aMemory({ title: 'x'.repeat(201) }), 'title');
    await reject('POST', '/memory', aMemory({ title: '   ' }), 'title');
    await reject('POST', '/memory', aMemory({ content: 'y'.repeat(4001) }), 'content');
    await reject('POST', '/memory', aMemory({ content: '' }), 'content');
    await reject('POST', '/memory', aMemory({ importance: -0.5 }), 'importance');
    await reject('POST', '/memory', aMemory({ importance: 10.5 }), 'importance');
    await reject('POST', '/memory', aMemory({ tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }), 'tags');
    await reject('POST', '/memory', aMemory({ tags: ['Not A Tag'] }), 'tags[0]');
    await reject('POST', '/memory', { ...aMemory(), kind: 'rumour' }, 'kind');
    await reject('POST', '/memory', { ...aMemory(), asUserId: 'usr_nobody' }, 'asUserId');
    await reject('POST', '/memory', { title: 'No kind', content: 'c' });
  });

  it('lists live entries newest first; limit 1-200 (default 50) with a cursor; archived entries are not listed', async () => {
    for (let i = 0; i < 52; i++) {
      await insertMemoryRow(desk, { id: `mem_${String(i).padStart(3, '0')}`, createdAt: new Date(Date.parse('2026-03-01T00:00:00Z') + i * MINUTE_MS).toISOString() });
    }
    await insertMemoryRow(desk, { id: 'mem_archived', createdAt: '2026-03-09T00:00:00.000Z', archivedAt: '2026-03-09T01:00:00.000Z' });
    const first = await api('GET', '/memory');
    expect(first.body.memory).toHaveLength(50);
    expect(first.body.memory[0].id).toBe('mem_051');
    const second = await api('GET', `/memory?cursor=${first.body.nextCursor}`);
    expect(second.body.memory.map((m: { id: string }) => m.id)).toEqual(['mem_001', 'mem_000']);
    expect(second.body.nextCursor).toBeNull();
    expect((await api('GET', '/memory?limit=200')).body.memory).toHaveLength(52);
    expect((await api('GET', '/memory?limit=1')).body.memory).toHaveLength(1);
    expect((await api('GET', '/memory/mem_archived')).body.archivedAt).toBe('2026-03-09T01:00:00.000Z');
    await reject('GET', '/memory?limit=201', undefined, 'limit');
    await reject('GET', '/memory?limit=0', undefined, 'limit');
    await reject('GET', '/memory?cursor=nonsense', undefined, 'cursor');
  });

  it('filters by kind, tag and keywords (every word, as a word prefix); q at most 200 characters', async () => {
    const a = await createMemory(desk, { kind: 'fact', title: 'Pricing is per seat', content: 'Seats are billed monthly.', tags: ['pricing'] });
    later();
    const b = await createMemory(desk, { kind: 'lesson', title: 'Launch posts', content: 'Short launch posts get more replies.', tags: ['marketing'] });
    const ids = async (query: string) => (await api('GET', `/memory?${query}`)).body.memory.map((m: { id: string }) => m.id);
    expect(await ids('kind=fact')).toEqual([a.id]);
    expect(await ids('tag=marketing')).toEqual([b.id]);
    expect(await ids('q=launch%20repl')).toEqual([b.id]);
    expect(await ids('q=seat')).toEqual([a.id]);
    expect(await ids('q=market')).toEqual([b.id]);
    expect(await ids('q=seat%20launch')).toEqual([]);
    expect(await ids(`q=${'a'.repeat(200)}`)).toEqual([]);
    await reject('GET', `/memory?q=${'a'.repeat(201)}`, undefined, 'q');
    await reject('GET', '/memory?q=%21%21', undefined, 'q');
    await reject('GET', '/memory?kind=rumour', undefined, 'kind');
    await reject('GET', '/memory?tag=Bad%20Tag', undefined, 'tag');
  });
});

describe('PATCH, DELETE and GET /memory/{id}', () => {
  it('edits the given fields with memory.updated naming them; the same values change nothing', async () => {
    const m = await createMemory(desk, { tags: ['pricing'] });
    later();
    const res = await api('PATCH', `/memory/${m.id}`, { title: 'Pricing needs two approvals', importance: 9, tags: ['pricing', 'approvals'], kind: 'decision' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Pricing needs two approvals', importance: 9, tags: ['approvals', 'pricing'], kind: 'decision', updatedAt: '2026-03-10T12:01:00.000Z' });
    expect(await events('memory.updated')).toEqual([{ memoryId: m.id, title: 'Pricing needs two approvals', changed: ['title', 'importance', 'tags'] }]);
    const again = await api('PATCH', `/memory/${m.id}`, { title: 'Pricing needs two approvals', tags: ['approvals', 'pricing'] });
    expect(again.status).toBe(200);
    expect(await events('memory.updated')).toHaveLength(1);
    expect((await api('PATCH', `/memory/${m.id}`, { importance: null, pinned: true })).body).toMatchObject({ importance: null, pinned: true });
    expect(await activityKinds()).toEqual(['memory.created', 'memory.updated', 'memory.updated']);
    await reject('PATCH', `/memory/${m.id}`, {}, 'body');
    await reject('PATCH', `/memory/${m.id}`, { title: 'x'.repeat(201) }, 'title');
    await reject('PATCH', `/memory/${m.id}`, { importance: 11 }, 'importance');
    await reject('PATCH', `/memory/${m.id}`, { kind: 'rumour' }, 'kind');
    await reject('PATCH', '/memory/mem_nope', { title: 'x' }, undefined, 404);
  });

  it('deletes an entry with its tags, reactions, retrieval days and daily cost; then 404', async () => {
    const m = await createMemory(desk, { tags: ['pricing'] });
    await api('POST', `/memory/${m.id}/reaction`, { emoji: '👍' });
    await recordRetrieval(desk, m.id, '2026-03-10T09:00:00.000Z', '2026-03-10');
    await recordMemoryCost(desk, m.id, '2026-03-10', 10, 5, 100);
    const res = await api('DELETE', `/memory/${m.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ memoryId: m.id, title: m.title, deleted: true });
    for (const table of ['memoryTags', 'memoryReactions', 'memoryRetrievalDaily'] as const) {
      expect(await db().selectFrom(table).selectAll().where('memoryId', '=', m.id).execute(), table).toEqual([]);
    }
    expect(await db().selectFrom('costDaily').selectAll().where('key', '=', m.id).execute()).toEqual([]);
    expect(await events('memory.deleted')).toEqual([{ memoryId: m.id, title: m.title }]);
    // The area's own code, like every other area's (`<entity>_not_found`).
    await expectRejectedUnchanged(desk, { method: 'GET', path: `/api/v1/memory/${m.id}` }, { status: 404, error: 'memory_not_found' });
    await reject('DELETE', `/memory/${m.id}`, undefined, undefined, 404);
  });
});

describe('POST /memory/bulk-update', () => {
  it('pins and unpins under the bulk policy: unknown ids in notFound, already-pinned unchanged', async () => {
    const a = await insertMemoryRow(desk);
    const b = await insertMemoryRow(desk, { pinned: 1 });
    const res = await api('POST', '/memory/bulk-update', { action: 'pin', memoryIds: [a, b, 'mem_nope'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ action: 'pin', affected: 1, changed: [a], unchanged: [b], skipped: [], notFound: ['mem_nope'] });
    const un = await api('POST', '/memory/bulk-update', { action: 'pin', pinned: false, memoryIds: [a, b] });
    expect(un.body).toMatchObject({ affected: 2, changed: [a, b] });
    expect((await db().selectFrom('memory').select('pinned').where('id', 'in', [a, b]).execute()).map((r) => r.pinned)).toEqual([0, 0]);
    expect(await activityKinds()).toEqual(['memory.pinned', 'memory.unpinned', 'memory.unpinned']);
    expect((await events('memory.updated')).map((e) => e.changed)).toEqual([['pinned'], ['pinned'], ['pinned']]);
    const allMiss = await api('POST', '/memory/bulk-update', { action: 'delete', memoryIds: ['mem_x'] });
    expect(allMiss.body).toMatchObject({ affected: 0, notFound: ['mem_x'] });
  });

  it('tags and untags; an entry with 10 tags is skipped; tag is required', async () => {
    const a = await insertMemoryRow(desk, { tags: ['pricing'] });
    const full = await insertMemoryRow(desk, { tags: Array.from({ length: 10 }, (_, i) => `t${i}`) });
    const c = await insertMemoryRow(desk);
    const res = await api('POST', '/memory/bulk-update', { action: 'tag', tag: 'pricing', memoryIds: [a, full, c] });
    expect(res.body).toEqual({ action: 'tag', affected: 1, changed: [c], unchanged: [a], skipped: [full], notFound: [] });
    const un = await api('POST', '/memory/bulk-update', { action: 'untag', tag: 'pricing', memoryIds: [a, c, full] });
    expect(un.body).toEqual({ action: 'untag', affected: 2, changed: [a, c], unchanged: [full], skipped: [], notFound: [] });
    expect((await api('GET', `/memory/${a}`)).body.tags).toEqual([]);
    await reject('POST', '/memory/bulk-update', { action: 'tag', memoryIds: [a] }, 'tag');
    await reject('POST', '/memory/bulk-update', { action: 'tag', tag: 'No Good', memoryIds: [a] }, 'tag');
  });

  it('deletes 1-50 ids; 0 or 51 ids and unknown actions are rejected and change nothing', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) ids.push(await insertMemoryRow(desk));
    await reject('POST', '/memory/bulk-update', { action: 'delete', memoryIds: [...ids, 'mem_51'] }, 'memoryIds');
    await reject('POST', '/memory/bulk-update', { action: 'delete', memoryIds: [] }, 'memoryIds');
    await reject('POST', '/memory/bulk-update', { action: 'archive', memoryIds: [ids[0]] }, 'action');
    await reject('POST', '/memory/bulk-update', { action: 'pin', pinned: 'yes', memoryIds: [ids[0]] }, 'pinned');
    const res = await api('POST', '/memory/bulk-update', { action: 'delete', memoryIds: ids });
    expect(res.body).toMatchObject({ action: 'delete', affected: 50, notFound: [] });
    expect(await db().selectFrom('memory').selectAll().execute()).toEqual([]);
    expect(await events('memory.deleted')).toHaveLength(50);
  });
});

describe('POST /memory/{id}/reaction', () => {
  it('toggles a member reaction; the list shows the summary; bad emoji, non-member and unknown entry are rejected', async () => {
    await addMember(desk, 'usr_ann', 'Ann');
    const m = await createMemory(desk);
    const first = await api('POST', `/memory/${m.id}/reaction`, { emoji: '🎯' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ memoryId: m.id, emoji: '🎯', reacted: true });
    await api('POST', `/memory/${m.id}/reaction`, { emoji: '🎯', asUserId: 'usr_ann' });
    const listed = (await api('GET', '/memory')).body.memory[0].reactions;
    expect(listed).toEqual([{ emoji: '🎯', count: 2, userIds: [expect.stringMatching(/^usr_/), 'usr_ann'], reacted: true }]);
    const off = await api('POST', `/memory/${m.id}/reaction`, { emoji: '🎯' });
    expect(off.body).toMatchObject({ reacted: false, reactions: [{ emoji: '🎯', count: 1, userIds: ['usr_ann'], reacted: false }] });
    expect((await activityKinds()).slice(1)).toEqual(['memory.reaction_added', 'memory.reaction_added', 'memory.reaction_removed']);
    await reject('POST', `/memory/${m.id}/reaction`, { emoji: '💩' }, 'emoji');
    await reject('POST', `/memory/${m.id}/reaction`, { emoji: '👍', asUserId: 'usr_nobody' }, 'asUserId');
    await reject('POST', '/memory/mem_nope/reaction', { emoji: '👍' }, undefined, 404);
  });
});
