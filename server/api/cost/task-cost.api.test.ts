import { beforeEach, describe, expect, it } from 'vitest';
import type { TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { chargeCycle, cost } from '../../testing/fixtures/cost';
import { insertSourceRow } from '../../testing/fixtures/sources';
import { insertTaskRow } from '../../testing/fixtures/tasks';
import { useTestDesk } from '../../testing/use-test-desk';

/**
 * API tests of a task's cost (GET /tasks/{id}/cost, /cost-trajectory), the top tasks by cost and a
 * source's trajectory: cost written through the real ledger on the clock's workspace day.
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

describe('GET /tasks/{id}/cost and /tasks/{id}/cost-trajectory', () => {
  it('the running totals with the cost per session; the daily buckets oldest first, zero-filled', async () => {
    await insertTaskRow(desk, { id: 'tsk_a' });
    desk.clock.set('2026-03-08T10:00:00Z');
    await chargeCycle(desk, { tsk_a: cost(1_000_000, 1000, 100) });
    desk.clock.set('2026-03-10T10:00:00Z');
    await chargeCycle(desk, { tsk_a: cost(500_001, 400, 50) });
    await chargeCycle(desk, { tsk_a: cost(500_000, 100, 10) });

    expect(await get('/tasks/tsk_a/cost')).toEqual({ totalInputTokens: 1500, totalOutputTokens: 160, estimatedCostUsd: 2.000001, sessionCount: 3, costPerSessionUsd: 0.666667 });
    // The task's own answer carries the same figures, and its daily buckets (days with cost only).
    const detail = await get('/tasks/tsk_a');
    expect(detail.cost).toEqual(await get('/tasks/tsk_a/cost'));
    expect(detail.dailyCostHistory).toEqual([
      { date: '2026-03-08', inputTokens: 1000, outputTokens: 100, estimatedCostUsd: 1 },
      { date: '2026-03-10', inputTokens: 500, outputTokens: 60, estimatedCostUsd: 1.000001 },
    ]);

    const week = await get('/tasks/tsk_a/cost-trajectory');
    expect(week).toMatchObject({ taskId: 'tsk_a', days: 7 });
    expect(week.points.map((p: { date: string }) => p.date)).toEqual(['2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10']);
    expect(week.points.slice(-3)).toEqual([
      { date: '2026-03-08', inputTokens: 1000, outputTokens: 100, estimatedCostUsd: 1 },
      { date: '2026-03-09', inputTokens: 0, outputTokens: 0, estimatedCostUsd: 0 },
      { date: '2026-03-10', inputTokens: 500, outputTokens: 60, estimatedCostUsd: 1.000001 },
    ]);
    expect((await get('/tasks/tsk_a/cost-trajectory?days=30')).points).toHaveLength(30);
    expect((await get('/tasks/tsk_a/cost-trajectory?days=1')).points).toEqual([{ date: '2026-03-10', inputTokens: 500, outputTokens: 60, estimatedCostUsd: 1.000001 }]);
  });

  it('a task without cost answers zeros; an unknown task is a 404; days outside 1-30 is a 422', async () => {
    await insertTaskRow(desk, { id: 'tsk_new' });
    expect(await get('/tasks/tsk_new/cost')).toEqual({ totalInputTokens: 0, totalOutputTokens: 0, estimatedCostUsd: 0, sessionCount: 0, costPerSessionUsd: 0 });
    expect((await get('/tasks/tsk_new')).dailyCostHistory).toEqual([]);
    expect((await get('/tasks/tsk_new/cost-trajectory')).points.every((p: { estimatedCostUsd: number }) => p.estimatedCostUsd === 0)).toBe(true);
    await reject('/tasks/tsk_nope/cost', undefined, 404);
    await reject('/tasks/tsk_nope/cost-trajectory', undefined, 404);
    expect((await api('GET', '/tasks/tsk_nope/cost')).body.error).toBe('task_not_found');
    await reject('/tasks/tsk_new/cost-trajectory?days=0', 'days');
    await reject('/tasks/tsk_new/cost-trajectory?days=31', 'days');
  });
});

describe('GET /tasks/top-cost', () => {
  it('open tasks by cumulative cost with trajectory7d in cents; includeDone adds done and archived ones; no cost, no row', async () => {
    await insertTaskRow(desk, { id: 'tsk_open_big', status: 'in_progress' });
    await insertTaskRow(desk, { id: 'tsk_open_small', status: 'needs_input' });
    await insertTaskRow(desk, { id: 'tsk_done', status: 'done' });
    await insertTaskRow(desk, { id: 'tsk_archived', status: 'archived' });
    await insertTaskRow(desk, { id: 'tsk_free', status: 'queued' });
    desk.clock.set('2026-03-05T10:00:00Z');
    await chargeCycle(desk, { tsk_open_big: cost(3_000_000), tsk_done: cost(9_000_000), tsk_archived: cost(8_000_000) });
    desk.clock.set('2026-03-10T10:00:00Z');
    await chargeCycle(desk, { tsk_open_big: cost(1_004_999), tsk_open_small: cost(50_000), tsk_free: cost(0) });

    const open = await get('/tasks/top-cost');
    expect(open.includeDone).toBe(false);
    expect(open.tasks.map((t: { id: string; cost: { estimatedCostUsd: number }; trajectory7d: number[] }) => [t.id, t.cost.estimatedCostUsd, t.trajectory7d])).toEqual([
      ['tsk_open_big', 4.004999, [0, 300, 0, 0, 0, 0, 100]],
      ['tsk_open_small', 0.05, [0, 0, 0, 0, 0, 0, 5]],
    ]);
    expect(open.tasks[0]).toMatchObject({ title: 'Task tsk_open_big', status: 'in_progress', tags: [] });

    const all = await get('/tasks/top-cost?includeDone=true&limit=3');
    expect(all.tasks.map((t: { id: string }) => t.id)).toEqual(['tsk_done', 'tsk_archived', 'tsk_open_big']);
  });

  it('limit 1-50 (default 5); anything else is rejected; the path is not taken for a task id', async () => {
    for (let i = 0; i < 6; i++) await insertTaskRow(desk, { id: `tsk_${i}` });
    await chargeCycle(desk, Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`tsk_${i}`, cost(1000 + i)])));
    expect((await get('/tasks/top-cost')).tasks.map((t: { id: string }) => t.id)).toEqual(['tsk_5', 'tsk_4', 'tsk_3', 'tsk_2', 'tsk_1']);
    expect((await get('/tasks/top-cost?limit=50')).tasks).toHaveLength(6);
    await reject('/tasks/top-cost?limit=0', 'limit');
    await reject('/tasks/top-cost?limit=51', 'limit');
    await reject('/tasks/top-cost?includeDone=perhaps', 'includeDone');
  });
});

describe('GET /sources/{id}/cost-trajectory', () => {
  it('zero-filled daily buckets of a source; an unknown source is a 404; days 1-30', async () => {
    await insertSourceRow(desk, { id: 'src_feed' });
    const ctx = desk.services.db;
    await ctx.insertInto('signals').values({ id: 'sig_1', kind: 'news', priority: 'normal', title: 'S', detail: 'D', sourceUrl: null, sourceId: 'src_feed', pinned: 0, createdAt: desk.clock.now().toISOString() }).execute();
    await insertTaskRow(desk, { id: 'tsk_s', sourceSignalIds: JSON.stringify(['sig_1']) });
    desk.clock.set('2026-03-09T10:00:00Z');
    await chargeCycle(desk, { tsk_s: cost(700_000, 70, 7) });
    desk.clock.set('2026-03-10T10:00:00Z');
    expect(await get('/sources/src_feed/cost-trajectory?days=2')).toEqual({
      sourceId: 'src_feed',
      days: 2,
      points: [
        { date: '2026-03-09', inputTokens: 70, outputTokens: 7, estimatedCostUsd: 0.7 },
        { date: '2026-03-10', inputTokens: 0, outputTokens: 0, estimatedCostUsd: 0 },
      ],
    });
    expect((await get('/sources/src_feed/cost-trajectory')).points).toHaveLength(7);
    await reject('/sources/src_nope/cost-trajectory', undefined, 404);
    expect((await api('GET', '/sources/src_nope/cost-trajectory')).body.error).toBe('source_not_found');
    await reject('/sources/src_feed/cost-trajectory?days=0', 'days');
    await reject('/sources/src_feed/cost-trajectory?days=31', 'days');
  });
});
