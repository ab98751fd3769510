import { beforeEach, describe, expect, it } from 'vitest';
import type { TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { chargeCycle, cost, costDataset, insertCostTask } from '../../testing/fixtures/cost';
import { insertSignalRow } from '../../testing/fixtures/loop';
import { insertSourceRow } from '../../testing/fixtures/sources';
import { addMember } from '../../testing/fixtures/workspace';
import { useTestDesk } from '../../testing/use-test-desk';

/**
 * API tests of the cost reads: today against the cap, the breakdowns by assignee, source and tag,
 * trajectories, task cost and the top tasks. Cost is written through the real ledger
 * (fixtures/cost.ts), one cycle at a time, on the clock's workspace day.
 * The dataset is `costDataset` (fixtures/cost.ts).
 */

const shared = useTestDesk();
let desk: TestDesk;
beforeEach(() => {
  desk = shared.desk;
});

const api = (method: string, p: string, body?: unknown) => desk.api(method, `/api/v1${p}`, body);
const get = async (p: string) => {
  const res = await api('GET', p);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const reject = (path: string, field?: string, status = 422) => expectRejectedUnchanged(desk, { method: 'GET', path: `/api/v1${path}` }, { status, field });
const db = () => desk.services.db;

describe('GET /cost/today', () => {
  it('today, yesterday and the 7-day baseline in cents, the sparkline, the cap and today per assignee', async () => {
    await costDataset(desk);
    const body = await get('/cost/today');
    // today 2,400,000 (with triage); yesterday 500,000; the 7 days before today 4,000,000 + 1,000,001 + 500,000 = 5,500,001 / 7.
    expect(body).toMatchObject({ date: '2026-03-10', timezone: 'UTC', todayCents: 240, todayEstimatedCostUsd: 2.4, yesterdayCents: 50, baselineCents: 79 });
    expect(body.sparkline).toEqual([
      { date: '2026-03-04', cents: 400 },
      { date: '2026-03-05', cents: 0 },
      { date: '2026-03-06', cents: 0 },
      { date: '2026-03-07', cents: 0 },
      { date: '2026-03-08', cents: 100 },
      { date: '2026-03-09', cents: 50 },
      { date: '2026-03-10', cents: 240 },
    ]);
    // The free plan's seeded cap is 50 cents: 2.40 USD is 480% of it and the loop is stopped.
    expect(body).toMatchObject({ dailyCostCap: 50, capPercent: 480, capReached: true });
    expect(body.byAssignee).toEqual([
      { assigneeId: 'usr_ann', displayName: 'Ann', unassigned: false, todayCents: 200, todayEstimatedCostUsd: 2 },
      { assigneeId: 'usr_bob', displayName: 'Bob', unassigned: false, todayCents: 25, todayEstimatedCostUsd: 0.25 },
      { assigneeId: '__unassigned__', displayName: 'Unassigned', unassigned: true, todayCents: 12, todayEstimatedCostUsd: 0.12 },
    ]);
    // POST /runs agrees that the cap stops the loop.
    expect((await api('POST', '/runs')).status).toBe(409);

    expect((await api('PATCH', '/workspace/cost-cap', { dailyCostCapUsdCents: 1000 })).status).toBe(200);
    expect(await get('/cost/today')).toMatchObject({ dailyCostCap: 1000, capPercent: 24, capReached: false });
    expect((await api('PATCH', '/workspace/cost-cap', { dailyCostCapUsdCents: null })).status).toBe(200);
    expect(await get('/cost/today')).toMatchObject({ dailyCostCap: null, capPercent: null, capReached: false });
  });

  it('a fresh workspace: zeros everywhere, seven zero days, nobody spent', async () => {
    const body = await get('/cost/today');
    expect(body).toMatchObject({ todayCents: 0, yesterdayCents: 0, baselineCents: 0, capPercent: 0, capReached: false, byAssignee: [] });
    expect(body.sparkline.map((p: { cents: number }) => p.cents)).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });
});

describe('GET /cost/by-assignee', () => {
  it('each task its full cost to its assignee, the unassigned bucket named; includeDone adds done tasks; tasks without cost are not counted', async () => {
    await costDataset(desk);
    await insertCostTask(desk, 'tsk_free', 'queued', 'usr_ann', ['launch'], ['sig_a']);
    const open = await get('/cost/by-assignee');
    expect(open).toMatchObject({ includeDone: false, trajectoryDays: null, totalEstimatedCostUsd: 3.870001 });
    expect(open.assignees).toEqual([
      { assigneeId: 'usr_ann', displayName: 'Ann', unassigned: false, removed: false, taskCount: 1, totalInputTokens: 300, totalOutputTokens: 30, estimatedCostUsd: 3.000001, sessionCount: 2 },
      { assigneeId: 'usr_bob', displayName: 'Bob', unassigned: false, removed: false, taskCount: 1, totalInputTokens: 75, totalOutputTokens: 10, estimatedCostUsd: 0.75, sessionCount: 2 },
      { assigneeId: '__unassigned__', displayName: 'Unassigned', unassigned: true, removed: false, taskCount: 1, totalInputTokens: 12, totalOutputTokens: 3, estimatedCostUsd: 0.12, sessionCount: 1 },
    ]);
    const all = await get('/cost/by-assignee?includeDone=true&limit=1');
    expect(all.totalEstimatedCostUsd).toBe(7.870001);
    expect(all.assignees).toEqual([expect.objectContaining({ assigneeId: 'usr_ann', taskCount: 2, estimatedCostUsd: 7.000001, totalInputTokens: 700, sessionCount: 3 })]);
  });

  it('with trajectoryDays each row has trajectory7d in cents, as the cycles recorded it; a removed member keeps a named row', async () => {
    await costDataset(desk);
    await db().updateTable('users').set({ removedAt: '2026-03-10T10:00:00.000Z' }).where('id', '=', 'usr_bob').execute();
    const body = await get('/cost/by-assignee?trajectoryDays=3');
    expect(body.trajectoryDays).toBe(3);
    expect(body.assignees.map((a: { assigneeId: string; removed: boolean; trajectory7d: number[] }) => [a.assigneeId, a.removed, a.trajectory7d])).toEqual([
      ['usr_ann', false, [100, 0, 200]],
      ['usr_bob', true, [0, 50, 25]],
      ['__unassigned__', false, [0, 0, 12]],
    ]);
  });

  it('limit 1-100 (default 10) and trajectoryDays 1-30; anything else is rejected', async () => {
    for (let i = 0; i < 11; i++) {
      await addMember(desk, `usr_${i}`, `Member ${i}`);
      await insertCostTask(desk, `tsk_m${i}`, 'queued', `usr_${i}`, [], []);
    }
    await chargeCycle(desk, Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`tsk_m${i}`, cost(1000 * (i + 1))])));
    expect((await get('/cost/by-assignee')).assignees).toHaveLength(10);
    expect((await get('/cost/by-assignee?limit=100')).assignees).toHaveLength(11);
    expect((await get('/cost/by-assignee?trajectoryDays=30')).assignees[0].trajectory7d).toHaveLength(30);
    expect((await get('/cost/by-assignee?trajectoryDays=1')).assignees[0]).toMatchObject({ assigneeId: 'usr_10', trajectory7d: [1] });
    await reject('/cost/by-assignee?trajectoryDays=0', 'trajectoryDays');
    await reject('/cost/by-assignee?trajectoryDays=31', 'trajectoryDays');
    await reject('/cost/by-assignee?limit=0', 'limit');
    await reject('/cost/by-assignee?limit=101', 'limit');
    await reject('/cost/by-assignee?includeDone=maybe', 'includeDone');
  });
});

describe('GET /cost/by-assignee/{assigneeId}/trajectory', () => {
  it('zero-filled daily points of a member or of `__unassigned__`; an unknown member is a 404', async () => {
    await costDataset(desk);
    expect(await get('/cost/by-assignee/usr_ann/trajectory?days=3')).toEqual({
      assigneeId: 'usr_ann',
      days: 3,
      points: [
        { date: '2026-03-08', inputTokens: 100, outputTokens: 10, estimatedCostUsd: 1.000001 },
        { date: '2026-03-09', inputTokens: 0, outputTokens: 0, estimatedCostUsd: 0 },
        { date: '2026-03-10', inputTokens: 200, outputTokens: 20, estimatedCostUsd: 2 },
      ],
    });
    const unassigned = await get('/cost/by-assignee/__unassigned__/trajectory');
    expect(unassigned.days).toBe(7);
    expect(unassigned.points.map((p: { estimatedCostUsd: number }) => p.estimatedCostUsd)).toEqual([0, 0, 0, 0, 0, 0, 0.12]);
    await reject('/cost/by-assignee/usr_nobody/trajectory', undefined, 404);
    expect((await api('GET', '/cost/by-assignee/usr_nobody/trajectory')).body.error).toBe('member_not_found');
    await reject('/cost/by-assignee/usr_ann/trajectory?days=0', 'days');
    await reject('/cost/by-assignee/usr_ann/trajectory?days=31', 'days');
  });
});

describe('GET /cost/by-source', () => {
  it("each task's cost split equally across its sources, summing exactly; tasks without a source apart", async () => {
    await costDataset(desk);
    const open = await get('/cost/by-source');
    // tsk_1 3,000,001 over a, b, c: 1,000,001 / 1,000,000 / 1,000,000 (the first by id takes the remainder); tsk_2 all to a.
    expect(open.sources).toEqual([
      { sourceId: 'src_a', label: 'Source a', type: 'rss', status: 'connected', taskCount: 2, totalInputTokens: 175, totalOutputTokens: 20, estimatedCostUsd: 1.750001 },
      { sourceId: 'src_b', label: 'Source b', type: 'rss', status: 'connected', taskCount: 1, totalInputTokens: 100, totalOutputTokens: 10, estimatedCostUsd: 1 },
      { sourceId: 'src_c', label: 'Source c', type: 'rss', status: 'connected', taskCount: 1, totalInputTokens: 100, totalOutputTokens: 10, estimatedCostUsd: 1 },
    ]);
    expect(open).toMatchObject({ includeDone: false, totalEstimatedCostUsd: 3.750001, withoutSourceEstimatedCostUsd: 0.12 });
    const micro = (rows: { estimatedCostUsd: number }[]) => rows.reduce((a, r) => a + Math.round(r.estimatedCostUsd * 1e6), 0);
    expect(micro(open.sources)).toBe(3_000_001 + 750_000);

    const all = await get('/cost/by-source?includeDone=true&limit=2');
    expect(all.sources.map((s: { sourceId: string; estimatedCostUsd: number }) => [s.sourceId, s.estimatedCostUsd])).toEqual([
      ['src_b', 5],
      ['src_a', 1.750001],
    ]);
    expect(all.totalEstimatedCostUsd).toBe(7.750001);
  });

  it('a split that does not divide evenly: 10 micro-USD over 3 sources is 4 + 3 + 3', async () => {
    for (const id of ['src_x', 'src_y', 'src_z']) await insertSourceRow(desk, { id });
    const ctx = { db: db(), clock: desk.clock };
    for (const s of ['x', 'y', 'z']) await insertSignalRow(ctx, { id: `sig_${s}`, sourceId: `src_${s}` });
    await insertCostTask(desk, 'tsk_odd', 'queued', null, [], ['sig_z', 'sig_x', 'sig_y', 'sig_x']);
    await chargeCycle(desk, { tsk_odd: cost(10, 5, 2) });
    const body = await get('/cost/by-source');
    expect(body.sources.map((s: { sourceId: string; estimatedCostUsd: number; totalInputTokens: number; totalOutputTokens: number }) => [s.sourceId, s.estimatedCostUsd, s.totalInputTokens, s.totalOutputTokens])).toEqual([
      ['src_x', 0.000004, 2, 1],
      ['src_y', 0.000003, 2, 1],
      ['src_z', 0.000003, 1, 0],
    ]);
    // The ledger's daily source buckets split the same way.
    expect((await get('/sources/src_x/cost-trajectory?days=1')).points[0]).toMatchObject({ estimatedCostUsd: 0.000004, inputTokens: 2, outputTokens: 1 });
    await reject('/cost/by-source?limit=101', 'limit');
  });
});

describe('GET /cost/by-tag', () => {
  it('each task its full cost to every tag, `untagged` for tasks without tags; includeDone adds done tasks', async () => {
    await costDataset(desk);
    const open = await get('/cost/by-tag');
    expect(open).toMatchObject({ includeDone: false, trajectoryDays: null });
    expect(open.tags).toEqual([
      { tag: 'launch', untagged: false, taskCount: 2, totalInputTokens: 375, totalOutputTokens: 40, estimatedCostUsd: 3.750001, sessionCount: 4 },
      { tag: 'pricing', untagged: false, taskCount: 1, totalInputTokens: 300, totalOutputTokens: 30, estimatedCostUsd: 3.000001, sessionCount: 2 },
      { tag: 'untagged', untagged: true, taskCount: 1, totalInputTokens: 12, totalOutputTokens: 3, estimatedCostUsd: 0.12, sessionCount: 1 },
    ]);
    const all = await get('/cost/by-tag?includeDone=true&trajectoryDays=7');
    expect(all.tags.map((t: { tag: string; estimatedCostUsd: number; trajectory7d: number[] }) => [t.tag, t.estimatedCostUsd, t.trajectory7d])).toEqual([
      ['pricing', 7.000001, [400, 0, 0, 0, 100, 0, 200]],
      ['launch', 3.750001, [0, 0, 0, 0, 100, 50, 225]],
      ['untagged', 0.12, [0, 0, 0, 0, 0, 0, 12]],
    ]);
    await reject('/cost/by-tag?trajectoryDays=0', 'trajectoryDays');
    await reject('/cost/by-tag?trajectoryDays=31', 'trajectoryDays');
    await reject('/cost/by-tag?limit=0', 'limit');
  });
});

describe('GET /cost/by-tag/{tag}/trajectory', () => {
  it('zero-filled, `untagged` for the untagged bucket, a tag never used answers zeros, a malformed tag is a 422', async () => {
    await costDataset(desk);
    expect((await get('/cost/by-tag/launch/trajectory?days=3')).points).toEqual([
      { date: '2026-03-08', inputTokens: 100, outputTokens: 10, estimatedCostUsd: 1.000001 },
      { date: '2026-03-09', inputTokens: 50, outputTokens: 5, estimatedCostUsd: 0.5 },
      { date: '2026-03-10', inputTokens: 225, outputTokens: 25, estimatedCostUsd: 2.25 },
    ]);
    expect(await get('/cost/by-tag/untagged/trajectory?days=2')).toEqual({
      tag: 'untagged',
      days: 2,
      points: [
        { date: '2026-03-09', inputTokens: 0, outputTokens: 0, estimatedCostUsd: 0 },
        { date: '2026-03-10', inputTokens: 12, outputTokens: 3, estimatedCostUsd: 0.12 },
      ],
    });
    expect((await get('/cost/by-tag/never-used/trajectory')).points.every((p: { estimatedCostUsd: number }) => p.estimatedCostUsd === 0)).toBe(true);
    await reject('/cost/by-tag/Not%20A%20Tag/trajectory', 'tag');
    await reject('/cost/by-tag/launch/trajectory?days=31', 'days');
  });
});

describe('zero-filled trajectories follow the workspace day across a non-UTC midnight', () => {
  it('Asia/Tokyo: 23:30 and 00:30 local are two days though both are the same UTC date', async () => {
    expect((await api('PATCH', '/workspace/timezone', { timezone: 'Asia/Tokyo' })).status).toBe(200);
    await addMember(desk, 'usr_ann', 'Ann');
    await insertSourceRow(desk, { id: 'src_t' });
    await insertSignalRow({ db: db(), clock: desk.clock }, { id: 'sig_t', sourceId: 'src_t' });
    await insertCostTask(desk, 'tsk_t', 'queued', 'usr_ann', ['night'], ['sig_t']);
    desk.clock.set('2026-03-10T14:30:00Z'); // 23:30 on 03-10 in Tokyo
    await chargeCycle(desk, { tsk_t: cost(1_000_000, 10, 1) });
    desk.clock.set('2026-03-10T15:30:00Z'); // 00:30 on 03-11 in Tokyo, still 03-10 in UTC
    await chargeCycle(desk, { tsk_t: cost(2_000_000, 20, 2) });

    const expected = [
      { date: '2026-03-09', inputTokens: 0, outputTokens: 0, estimatedCostUsd: 0 },
      { date: '2026-03-10', inputTokens: 10, outputTokens: 1, estimatedCostUsd: 1 },
      { date: '2026-03-11', inputTokens: 20, outputTokens: 2, estimatedCostUsd: 2 },
    ];
    expect((await get('/tasks/tsk_t/cost-trajectory?days=3')).points).toEqual(expected);
    expect((await get('/sources/src_t/cost-trajectory?days=3')).points).toEqual(expected);
    expect((await get('/cost/by-assignee/usr_ann/trajectory?days=3')).points).toEqual(expected);
    expect((await get('/cost/by-tag/night/trajectory?days=3')).points).toEqual(expected);
    expect(await get('/cost/today')).toMatchObject({ date: '2026-03-11', timezone: 'Asia/Tokyo', todayCents: 200, yesterdayCents: 100 });

    desk.clock.set('2026-03-11T15:00:00Z'); // 00:00 on 03-12 in Tokyo: a new day with nothing yet
    expect((await get('/tasks/tsk_t/cost-trajectory?days=2')).points.map((p: { date: string; estimatedCostUsd: number }) => [p.date, p.estimatedCostUsd])).toEqual([
      ['2026-03-11', 2],
      ['2026-03-12', 0],
    ]);
    expect(await get('/cost/today')).toMatchObject({ date: '2026-03-12', todayCents: 0, yesterdayCents: 200 });
  });
});
