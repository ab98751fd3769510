import { beforeEach, describe, expect, it } from 'vitest';
import { searchMemory } from '../../domain/memory/retrieval';
import { MEMORY_STALE_SWEEP_JOB } from '../../jobs/memory-jobs';
import type { TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { insertMemoryRow, recordMemoryCost, recordRetrieval } from '../../testing/fixtures/memory';
import { useTestDesk } from '../../testing/use-test-desk';

/**
 * API tests of memory usage: the stale list, retrieval and cost trajectories (workspace days
 * across a timezone midnight and DST changes), top retrieved, top cost, and the stale-memory
 * auto-archive sweep. The counters are written as the loop writes them (fixtures/memory.ts).
 */

const shared = useTestDesk();
let desk: TestDesk;
beforeEach(() => {
  desk = shared.desk;
});

const api = (method: string, p: string, body?: unknown) => desk.api(method, `/api/v1${p}`, body);
const db = () => desk.services.db;
const reject = (path: string, field?: string, status = 422) => expectRejectedUnchanged(desk, { method: 'GET', path: `/api/v1${path}` }, { status, field });
const ids = (body: { memory: { id: string }[] }) => body.memory.map((m) => m.id);
const setTimezone = async (timezone: string) => expect((await api('PATCH', '/workspace/timezone', { timezone })).status).toBe(200);

describe('GET /memory/stale', () => {
  // The clock starts at 2026-03-10T12:00Z, workspace timezone UTC.
  it('lists entries not retrieved within thresholdDays (default 30), stalest first, with day counts; pinned and importance >= 9 excluded', async () => {
    const day30 = await insertMemoryRow(desk, { id: 'mem_d30', createdAt: '2025-12-01T00:00:00.000Z' });
    await recordRetrieval(desk, day30, '2026-02-08T23:59:00.000Z', '2026-02-08'); // 30 days before 2026-03-10: stale
    const day29 = await insertMemoryRow(desk, { id: 'mem_d29', createdAt: '2025-12-01T00:00:00.000Z' });
    await recordRetrieval(desk, day29, '2026-02-09T00:00:00.000Z', '2026-02-09'); // 29 days: within the window
    const old = await insertMemoryRow(desk, { id: 'mem_old', createdAt: '2025-11-01T00:00:00.000Z', tags: ['ops'] });
    await recordRetrieval(desk, old, '2026-01-01T10:00:00.000Z', '2026-01-01', 3);
    const pinned = await insertMemoryRow(desk, { id: 'mem_pin', pinned: 1, createdAt: '2025-11-01T00:00:00.000Z' });
    await recordRetrieval(desk, pinned, '2026-01-01T10:00:00.000Z', '2026-01-01');
    const vital = await insertMemoryRow(desk, { id: 'mem_imp9', importance: 9, createdAt: '2025-11-01T00:00:00.000Z' });
    await recordRetrieval(desk, vital, '2026-01-01T10:00:00.000Z', '2026-01-01');
    const nearlyVital = await insertMemoryRow(desk, { id: 'mem_imp89', importance: 8.9, createdAt: '2025-11-01T00:00:00.000Z' });
    await recordRetrieval(desk, nearlyVital, '2026-01-02T10:00:00.000Z', '2026-01-02');
    await insertMemoryRow(desk, { id: 'mem_never_old', createdAt: '2026-01-15T00:00:00.000Z' });
    await insertMemoryRow(desk, { id: 'mem_never_new', createdAt: '2026-03-01T00:00:00.000Z' });
    await insertMemoryRow(desk, { id: 'mem_archived', createdAt: '2025-01-01T00:00:00.000Z', archivedAt: '2026-03-01T00:00:00.000Z' });

    const res = await api('GET', '/memory/stale');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ thresholdDays: 30, includeNeverRetrieved: true, nextCursor: null });
    expect(ids(res.body)).toEqual(['mem_old', 'mem_imp89', 'mem_never_old', 'mem_d30']);
    const byId = new Map(res.body.memory.map((m: { id: string }) => [m.id, m]));
    expect(byId.get('mem_old')).toMatchObject({ lastRetrievedAt: '2026-01-01T10:00:00.000Z', retrievalCount: 3, daysSinceRetrieved: 68, daysSinceCreated: 129, tags: ['ops'] });
    expect(byId.get('mem_d30')).toMatchObject({ daysSinceRetrieved: 30 });
    expect(byId.get('mem_never_old')).toMatchObject({ lastRetrievedAt: null, retrievalCount: 0, daysSinceRetrieved: null, daysSinceCreated: 54 });

    expect(ids((await api('GET', '/memory/stale?includeNeverRetrieved=false')).body)).toEqual(['mem_old', 'mem_imp89', 'mem_d30']);
    expect(ids((await api('GET', '/memory/stale?tag=ops')).body)).toEqual(['mem_old']);
    expect(ids((await api('GET', '/memory/stale?thresholdDays=60')).body)).toEqual(['mem_old', 'mem_imp89']);
    expect(ids((await api('GET', '/memory/stale?thresholdDays=7')).body)).toEqual(['mem_old', 'mem_imp89', 'mem_never_old', 'mem_d30', 'mem_d29', 'mem_never_new']);
    expect(ids((await api('GET', '/memory/stale?thresholdDays=365')).body)).toEqual([]);
    const p1 = await api('GET', '/memory/stale?limit=2');
    expect(ids(p1.body)).toEqual(['mem_old', 'mem_imp89']);
    expect(ids((await api('GET', `/memory/stale?limit=2&cursor=${p1.body.nextCursor}`)).body)).toEqual(['mem_never_old', 'mem_d30']);
  });

  it('limit 1-100 (default 12), thresholdDays 7-365; anything else is rejected', async () => {
    for (let i = 0; i < 13; i++) await insertMemoryRow(desk, { createdAt: '2025-06-01T00:00:00.000Z' });
    expect((await api('GET', '/memory/stale')).body.memory).toHaveLength(12);
    expect((await api('GET', '/memory/stale?limit=100')).body.memory).toHaveLength(13);
    await reject('/memory/stale?thresholdDays=6', 'thresholdDays');
    await reject('/memory/stale?thresholdDays=366', 'thresholdDays');
    await reject('/memory/stale?limit=101', 'limit');
    await reject('/memory/stale?limit=0', 'limit');
    await reject('/memory/stale?tag=No%20Tag', 'tag');
    await reject('/memory/stale?includeNeverRetrieved=maybe', 'includeNeverRetrieved');
  });
});

describe('GET /memory/{id}/retrieval-trajectory and /cost-trajectory', () => {
  it('zero-fills workspace days oldest first and follows the workspace midnight across the March DST change (America/New_York)', async () => {
    await setTimezone('America/New_York');
    // 2026-03-09T03:30Z is 23:30 on 2026-03-08 in New York (DST began at 02:00 that day).
    desk.clock.set('2026-03-09T03:30:00.000Z');
    const m = await insertMemoryRow(desk, { createdAt: '2026-02-01T00:00:00.000Z' });
    await recordRetrieval(desk, m, '2026-03-09T03:00:00.000Z', '2026-03-08', 2);
    await recordRetrieval(desk, m, '2026-03-03T15:00:00.000Z', '2026-03-03', 1);
    await recordRetrieval(desk, m, '2026-03-01T15:00:00.000Z', '2026-03-01', 9); // outside 7 days
    const res = await api('GET', `/memory/${m}/retrieval-trajectory`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      memoryId: m,
      days: 7,
      points: [
        { date: '2026-03-02', count: 0 },
        { date: '2026-03-03', count: 1 },
        { date: '2026-03-04', count: 0 },
        { date: '2026-03-05', count: 0 },
        { date: '2026-03-06', count: 0 },
        { date: '2026-03-07', count: 0 },
        { date: '2026-03-08', count: 2 },
      ],
    });
    expect((await api('GET', '/memory')).body.memory[0].retrievals7d).toBe(3);
    // One hour later it is 00:30 on 2026-03-09 in New York: a new workspace day, still 2026-03-09 in UTC.
    desk.clock.advance(60 * 60_000);
    const next = await api('GET', `/memory/${m}/retrieval-trajectory?days=2`);
    expect(next.body.points).toEqual([
      { date: '2026-03-08', count: 2 },
      { date: '2026-03-09', count: 0 },
    ]);
    expect((await api('GET', `/memory/${m}/retrieval-trajectory?days=30`)).body.points).toHaveLength(30);
    expect((await api('GET', `/memory/${m}/retrieval-trajectory?days=1`)).body.points).toEqual([{ date: '2026-03-09', count: 0 }]);
    await reject(`/memory/${m}/retrieval-trajectory?days=0`, 'days');
    await reject(`/memory/${m}/retrieval-trajectory?days=31`, 'days');
    await reject('/memory/mem_nope/retrieval-trajectory', undefined, 404);
  });

  it('cost trajectory: tokens and USD per workspace day from cost_daily, zero-filled across the November DST change', async () => {
    await setTimezone('America/New_York');
    // 2026-11-02T04:30Z is 23:30 on 2026-11-01 in New York (EST since 02:00 that day, a 25-hour day).
    desk.clock.set('2026-11-02T04:30:00.000Z');
    const m = await insertMemoryRow(desk, { createdAt: '2026-10-01T00:00:00.000Z' });
    await recordMemoryCost(desk, m, '2026-11-01', 1000, 200, 1_250_000);
    await recordMemoryCost(desk, m, '2026-10-30', 10, 0, 5);
    await db().insertInto('costDaily').values({ dimension: 'task', key: m, day: '2026-10-31', inputTokens: 99, outputTokens: 99, costMicroUsd: 99 }).execute();
    const res = await api('GET', `/memory/${m}/cost-trajectory?days=4`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      memoryId: m,
      days: 4,
      points: [
        { date: '2026-10-29', inputTokens: 0, outputTokens: 0, estimatedCostUsd: 0 },
        { date: '2026-10-30', inputTokens: 10, outputTokens: 0, estimatedCostUsd: 0.000005 },
        { date: '2026-10-31', inputTokens: 0, outputTokens: 0, estimatedCostUsd: 0 },
        { date: '2026-11-01', inputTokens: 1000, outputTokens: 200, estimatedCostUsd: 1.25 },
      ],
    });
    desk.clock.advance(60 * 60_000); // 00:30 on 2026-11-02 in New York
    expect((await api('GET', `/memory/${m}/cost-trajectory`)).body.points.map((p: { date: string }) => p.date)).toEqual([
      '2026-10-27',
      '2026-10-28',
      '2026-10-29',
      '2026-10-30',
      '2026-10-31',
      '2026-11-01',
      '2026-11-02',
    ]);
    await reject(`/memory/${m}/cost-trajectory?days=31`, 'days');
    await reject(`/memory/${m}/cost-trajectory?days=0`, 'days');
    await reject('/memory/mem_nope/cost-trajectory', undefined, 404);
  });
});

describe('GET /memory/top-retrieved and /memory/top-cost', () => {
  it('ranks live entries by retrievals in the window, with retrievals7d and a zero-filled trajectory7d', async () => {
    const a = await insertMemoryRow(desk, { id: 'mem_a', tags: ['pricing'], pinned: 1 });
    const b = await insertMemoryRow(desk, { id: 'mem_b' });
    const c = await insertMemoryRow(desk, { id: 'mem_c' });
    const gone = await insertMemoryRow(desk, { id: 'mem_gone', archivedAt: '2026-03-09T00:00:00.000Z' });
    await recordRetrieval(desk, a, '2026-03-10T08:00:00.000Z', '2026-03-10', 4);
    await recordRetrieval(desk, b, '2026-03-09T08:00:00.000Z', '2026-03-09', 2);
    await recordRetrieval(desk, b, '2026-02-20T08:00:00.000Z', '2026-02-20', 10);
    await recordRetrieval(desk, c, '2026-02-25T08:00:00.000Z', '2026-02-25', 1);
    await recordRetrieval(desk, gone, '2026-03-10T08:00:00.000Z', '2026-03-10', 50);
    const res = await api('GET', '/memory/top-retrieved');
    expect(res.status).toBe(200);
    expect(res.body.days).toBe(7);
    expect(res.body.memory.map((m: { id: string; retrievalsInWindow: number; retrievals7d: number; retrievalCount: number }) => [m.id, m.retrievalsInWindow, m.retrievals7d, m.retrievalCount])).toEqual([
      ['mem_a', 4, 4, 4],
      ['mem_b', 2, 2, 12],
    ]);
    expect(res.body.memory[0]).toMatchObject({ pinned: true, tags: ['pricing'] });
    expect(res.body.memory[1].trajectory7d).toEqual(['03-04', '03-05', '03-06', '03-07', '03-08', '03-09', '03-10'].map((d) => ({ date: `2026-${d}`, count: d === '03-09' ? 2 : 0 })));
    const month = await api('GET', '/memory/top-retrieved?days=30&limit=2');
    expect(ids(month.body)).toEqual(['mem_b', 'mem_a']);
    expect(ids((await api('GET', '/memory/top-retrieved?days=30&limit=50')).body)).toEqual(['mem_b', 'mem_a', 'mem_c']);
    expect(ids((await api('GET', '/memory/top-retrieved?limit=1')).body)).toEqual(['mem_a']);
    for (const bad of ['limit=0', 'limit=51', 'days=0', 'days=31']) await reject(`/memory/top-retrieved?${bad}`, bad.split('=')[0]);
  });

  it('ranks live entries by attributed cost; entries without cost and archived ones are left out', async () => {
    const a = await insertMemoryRow(desk, { id: 'mem_a' });
    const b = await insertMemoryRow(desk, { id: 'mem_b', tags: ['ops'] });
    await insertMemoryRow(desk, { id: 'mem_free' });
    const gone = await insertMemoryRow(desk, { id: 'mem_gone', archivedAt: '2026-03-09T00:00:00.000Z' });
    await recordMemoryCost(desk, a, '2026-03-10', 100, 10, 2_000);
    await recordMemoryCost(desk, b, '2026-03-09', 5000, 700, 90_000);
    await recordRetrieval(desk, b, '2026-03-09T08:00:00.000Z', '2026-03-09', 3);
    await recordMemoryCost(desk, gone, '2026-03-09', 1, 1, 9_999_999);
    const res = await api('GET', '/memory/top-cost');
    expect(res.status).toBe(200);
    expect(res.body.memory.map((m: { id: string; estimatedCostUsd: number }) => [m.id, m.estimatedCostUsd])).toEqual([
      ['mem_b', 0.09],
      ['mem_a', 0.002],
    ]);
    expect(res.body.memory[0]).toMatchObject({ totalAttributedInputTokens: 5000, totalAttributedOutputTokens: 700, retrievalCount: 3, lastRetrievedAt: '2026-03-09T08:00:00.000Z', pinned: false, tags: ['ops'] });
    expect(ids((await api('GET', '/memory/top-cost?limit=1')).body)).toEqual(['mem_b']);
    expect(ids((await api('GET', '/memory/top-cost?limit=50')).body)).toEqual(['mem_b', 'mem_a']);
    await reject('/memory/top-cost?limit=0', 'limit');
    await reject('/memory/top-cost?limit=51', 'limit');
  });
});

describe('the stale-memory auto-archive sweep', () => {
  const sweep = () => desk.services.scheduler.runNow(MEMORY_STALE_SWEEP_JOB);

  it('does nothing while staleMemoryAutoArchiveDays is null', async () => {
    await insertMemoryRow(desk, { createdAt: '2025-01-01T00:00:00.000Z' });
    await sweep();
    expect(await db().selectFrom('memory').select('archivedAt').where('archivedAt', 'is not', null).execute()).toEqual([]);
    expect(await desk.services.memory.sweepStale()).toEqual({ thresholdDays: null, archived: [] });
  });

  it('archives entries not retrieved (or, never retrieved, not created) within the threshold; pinned and importance >= 9 stay; archived entries leave the list and retrieval', async () => {
    expect((await api('PUT', '/workspace/memory-archive-config', { staleMemoryAutoArchiveDays: 30 })).status).toBe(200);
    const stale = await insertMemoryRow(desk, { id: 'mem_stale', title: 'Stale pricing note', content: 'pricing tiers', createdAt: '2025-12-01T00:00:00.000Z' });
    await recordRetrieval(desk, stale, '2026-02-08T12:00:00.000Z', '2026-02-08');
    const recent = await insertMemoryRow(desk, { id: 'mem_recent', createdAt: '2025-12-01T00:00:00.000Z' });
    await recordRetrieval(desk, recent, '2026-02-09T00:00:00.000Z', '2026-02-09');
    await insertMemoryRow(desk, { id: 'mem_never_old', createdAt: '2026-02-08T23:00:00.000Z' });
    await insertMemoryRow(desk, { id: 'mem_never_new', createdAt: '2026-02-09T00:00:00.000Z' });
    await insertMemoryRow(desk, { id: 'mem_pinned', pinned: 1, createdAt: '2025-01-01T00:00:00.000Z' });
    await insertMemoryRow(desk, { id: 'mem_vital', importance: 9, createdAt: '2025-01-01T00:00:00.000Z' });
    expect((await searchMemory(db(), 'pricing', 5)).map((m) => m.id)).toEqual(['mem_stale']);

    expect(await sweep()).toBe(true);
    const archived = await db().selectFrom('memory').select(['id', 'archivedAt']).where('archivedAt', 'is not', null).orderBy('id').execute();
    expect(archived).toEqual([
      { id: 'mem_never_old', archivedAt: '2026-03-10T12:00:00.000Z' },
      { id: 'mem_stale', archivedAt: '2026-03-10T12:00:00.000Z' },
    ]);
    const evts = (await db().selectFrom('outboxEvents').select('payload').where('event', '=', 'memory.archived').orderBy('id').execute()).map((e) => JSON.parse(e.payload).data);
    expect(evts).toEqual([
      { memoryId: 'mem_stale', title: 'Stale pricing note', lastRetrievedAt: '2026-02-08T12:00:00.000Z', thresholdDays: 30 },
      { memoryId: 'mem_never_old', title: 'Memory mem_never_old', lastRetrievedAt: null, thresholdDays: 30 },
    ]);
    const activity = await db().selectFrom('activity').select(['kind', 'actorLabel', 'entityId']).where('kind', '=', 'memory.archived').orderBy('id').execute();
    expect(activity).toEqual([
      { kind: 'memory.archived', actorLabel: 'system', entityId: 'mem_stale' },
      { kind: 'memory.archived', actorLabel: 'system', entityId: 'mem_never_old' },
    ]);
    expect(ids((await api('GET', '/memory')).body).sort()).toEqual(['mem_never_new', 'mem_pinned', 'mem_recent', 'mem_vital']);
    expect(await searchMemory(db(), 'pricing', 5)).toEqual([]);
    expect((await api('GET', '/memory/stale')).body.memory).toEqual([]);

    // A second run archives nothing more until another day passes.
    await sweep();
    expect(await db().selectFrom('outboxEvents').select('id').where('event', '=', 'memory.archived').execute()).toHaveLength(2);
    desk.clock.set('2026-03-11T00:00:00.000Z');
    expect((await desk.services.memory.sweepStale()).archived).toEqual(['mem_recent', 'mem_never_new']);
  });
});
