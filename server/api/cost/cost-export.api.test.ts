import { parse } from 'csv-parse/sync';
import { beforeEach, describe, expect, it } from 'vitest';
import { newTaskDefaults } from '../../domain/tasks/task-store';
import type { TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { costDataset } from '../../testing/fixtures/cost';
import { insertTaskRow } from '../../testing/fixtures/tasks';
import { useTestDesk } from '../../testing/use-test-desk';

/** API tests of GET /workspace/cost-export on the cost reads' dataset (fixtures/cost.ts). */

const shared = useTestDesk();
let desk: TestDesk;
beforeEach(() => {
  desk = shared.desk;
});

const api = (method: string, p: string) => desk.api(method, `/api/v1${p}`);

const TABLES = ['daily', 'byTask', 'bySource', 'byAssignee'] as const;

/** One table's CSV download: its lines as written (header first), after checking a standard CSV parser reads it whole. */
async function table(name: (typeof TABLES)[number] | null): Promise<string[]> {
  const res = await api('GET', `/workspace/cost-export${name === null ? '' : `?table=${name}`}`);
  expect(res.status).toBe(200);
  const csv: string = res.body;
  // A strict parser: every record has the header's column count, no comment lines are skipped.
  const records = parse(csv, { bom: true, relax_column_count: false }) as string[][];
  expect(records.length).toBeGreaterThan(0);
  expect(records.every((r) => r.length === records[0].length)).toBe(true);
  expect(csv.endsWith('\r\n')).toBe(true);
  return csv.replace(/^\uFEFF/, '').slice(0, -2).split('\r\n');
}

describe('GET /workspace/cost-export', () => {
  it('json: daily over the trailing 30 workspace days, byTask, bySource (equal split) and byAssignee over all tasks', async () => {
    await costDataset(desk);
    const res = await api('GET', '/workspace/cost-export?format=json');
    expect(res.status).toBe(200);
    const body = res.body;
    expect(Object.keys(body).sort()).toEqual(['byAssignee', 'bySource', 'byTask', 'capped', 'daily']);
    expect(body.capped).toBe(false);
    expect(body.daily).toHaveLength(30);
    expect(body.daily[0].date).toBe('2026-02-09');
    expect(body.daily[29]).toEqual({ date: '2026-03-10', inputTokens: 237, outputTokens: 28, estimatedCostUsd: 2.4, costCents: 240 });
    expect(body.daily.find((d: { date: string }) => d.date === '2026-03-04')).toEqual({ date: '2026-03-04', inputTokens: 400, outputTokens: 40, estimatedCostUsd: 4, costCents: 400 });
    expect(body.daily.filter((d: { costCents: number }) => d.costCents > 0).map((d: { date: string }) => d.date)).toEqual(['2026-03-04', '2026-03-08', '2026-03-09', '2026-03-10']);

    expect(body.byTask).toEqual([
      { taskId: 'tsk_4', title: 'Task tsk_4', status: 'done', assigneeId: 'usr_ann', assigneeName: 'Ann', tags: ['pricing'], totalInputTokens: 400, totalOutputTokens: 40, estimatedCostUsd: 4, sessionCount: 1, costPerSessionUsd: 4 },
      { taskId: 'tsk_1', title: 'Task tsk_1', status: 'queued', assigneeId: 'usr_ann', assigneeName: 'Ann', tags: ['launch', 'pricing'], totalInputTokens: 300, totalOutputTokens: 30, estimatedCostUsd: 3.000001, sessionCount: 2, costPerSessionUsd: 1.500001 },
      { taskId: 'tsk_2', title: 'Task tsk_2', status: 'in_progress', assigneeId: 'usr_bob', assigneeName: 'Bob', tags: ['launch'], totalInputTokens: 75, totalOutputTokens: 10, estimatedCostUsd: 0.75, sessionCount: 2, costPerSessionUsd: 0.375 },
      { taskId: 'tsk_3', title: 'Task tsk_3', status: 'needs_input', assigneeId: null, assigneeName: null, tags: [], totalInputTokens: 12, totalOutputTokens: 3, estimatedCostUsd: 0.12, sessionCount: 1, costPerSessionUsd: 0.12 },
    ]);
    expect(body.bySource).toEqual([
      { sourceId: 'src_b', label: 'Source b', taskCount: 2, totalInputTokens: 500, totalOutputTokens: 50, estimatedCostUsd: 5 },
      { sourceId: 'src_a', label: 'Source a', taskCount: 2, totalInputTokens: 175, totalOutputTokens: 20, estimatedCostUsd: 1.750001 },
      { sourceId: 'src_c', label: 'Source c', taskCount: 1, totalInputTokens: 100, totalOutputTokens: 10, estimatedCostUsd: 1 },
    ]);
    expect(body.byAssignee).toEqual([
      { assigneeId: 'usr_ann', displayName: 'Ann', taskCount: 2, totalInputTokens: 700, totalOutputTokens: 70, estimatedCostUsd: 7.000001, sessionCount: 3 },
      { assigneeId: 'usr_bob', displayName: 'Bob', taskCount: 1, totalInputTokens: 75, totalOutputTokens: 10, estimatedCostUsd: 0.75, sessionCount: 2 },
      { assigneeId: '__unassigned__', displayName: 'Unassigned', taskCount: 1, totalInputTokens: 12, totalOutputTokens: 3, estimatedCostUsd: 0.12, sessionCount: 1 },
    ]);
  });

  it('csv: one table per file (daily by default), each read whole by a standard CSV parser; cells quoted and formulas neutralised', async () => {
    await costDataset(desk);
    await desk.services.db.updateTable('tasks').set({ title: '=SUM(A1,A2) "launch"' }).where('id', '=', 'tsk_2').execute();
    const res = await api('GET', '/workspace/cost-export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="cost-daily.csv"; filename*=UTF-8''cost-daily.csv`);
    expect(res.headers.get('x-export-total')).toBe('30');
    expect(res.body).not.toMatch(/^#|\r\n#/m);
    const daily = await table(null);
    expect(await table('daily')).toEqual(daily);
    expect(daily[0]).toBe('date,inputTokens,outputTokens,estimatedCostUsd,costCents');
    expect(daily).toHaveLength(31);
    expect(daily[30]).toBe('2026-03-10,237,28,2.4,240');
    expect(await table('byTask')).toEqual([
      'taskId,title,status,assigneeId,assigneeName,tags,totalInputTokens,totalOutputTokens,estimatedCostUsd,sessionCount,costPerSessionUsd',
      'tsk_4,Task tsk_4,done,usr_ann,Ann,pricing,400,40,4,1,4',
      'tsk_1,Task tsk_1,queued,usr_ann,Ann,launch pricing,300,30,3.000001,2,1.500001',
      `tsk_2,"'=SUM(A1,A2) ""launch""",in_progress,usr_bob,Bob,launch,75,10,0.75,2,0.375`,
      'tsk_3,Task tsk_3,needs_input,,,,12,3,0.12,1,0.12',
    ]);
    expect(await table('bySource')).toEqual([
      'sourceId,label,taskCount,totalInputTokens,totalOutputTokens,estimatedCostUsd',
      'src_b,Source b,2,500,50,5',
      'src_a,Source a,2,175,20,1.750001',
      'src_c,Source c,1,100,10,1',
    ]);
    expect(await table('byAssignee')).toEqual([
      'assigneeId,displayName,taskCount,totalInputTokens,totalOutputTokens,estimatedCostUsd,sessionCount',
      'usr_ann,Ann,2,700,70,7.000001,3',
      'usr_bob,Bob,1,75,10,0.75,2',
      '__unassigned__,Unassigned,1,12,3,0.12,1',
    ]);
    const byTask = await api('GET', '/workspace/cost-export?table=byTask');
    expect(byTask.headers.get('content-disposition')).toContain('filename="cost-byTask.csv"');
    expect(byTask.headers.get('x-export-total')).toBe('4');
    // json with a table: that table's rows.
    const json = (await api('GET', '/workspace/cost-export?format=json&table=bySource')).body;
    expect(json).toMatchObject({ table: 'bySource', total: 3, capped: false });
    expect(json.rows.map((r: { sourceId: string }) => r.sourceId)).toEqual(['src_b', 'src_a', 'src_c']);
  });

  it('a fresh workspace: 30 zero days and empty sections', async () => {
    const body = (await api('GET', '/workspace/cost-export?format=json')).body;
    expect(body).toMatchObject({ byTask: [], bySource: [], byAssignee: [], capped: false });
    expect(body.daily.map((d: { costCents: number }) => d.costCents)).toEqual(Array(30).fill(0));
    const lines = [];
    for (const name of TABLES) lines.push((await table(name)).length);
    expect(lines).toEqual([31, 1, 1, 1]);
  });

  it('at most 5000 data rows in all: the per-task list takes what the summaries leave, most expensive first', async () => {
    await costDataset(desk);
    const now = desk.clock.now().toISOString();
    const rows = Array.from({ length: 5000 }, (_, i) => ({
      id: `tsk_bulk${String(i).padStart(4, '0')}`,
      title: `Bulk ${i}`,
      summary: 'S',
      kind: null,
      deliverableType: null,
      priority: null,
      dueAt: null,
      assignedToUserId: null,
      goal: '',
      context: '',
      ...newTaskDefaults(now),
      costMicroUsd: 1000 + i,
      sessionCount: 1,
    }));
    for (let i = 0; i < rows.length; i += 500) await desk.services.db.insertInto('tasks').values(rows.slice(i, i + 500)).execute();
    await insertTaskRow(desk, { id: 'tsk_zero' }); // no cost: never exported
    const body = (await api('GET', '/workspace/cost-export?format=json')).body;
    expect(body.capped).toBe(true);
    expect([body.daily.length, body.byAssignee.length, body.bySource.length]).toEqual([30, 3, 3]);
    expect(body.byTask).toHaveLength(5000 - 36);
    expect(body.byTask.slice(0, 5).map((t: { taskId: string }) => t.taskId)).toEqual(['tsk_4', 'tsk_1', 'tsk_2', 'tsk_3', 'tsk_bulk4999']);
    // The cheapest bulk tasks are the ones left out.
    expect(body.byTask[body.byTask.length - 1].taskId).toBe('tsk_bulk0040');

    // A table on its own holds up to 5000 rows (5004 tasks have cost: the 4 cheapest are left out, and it says so).
    const byTask = await table('byTask');
    expect(byTask).toHaveLength(1 + 5000);
    expect(byTask[5000]).toMatch(/^tsk_bulk0004,/);
    const headers = (await api('GET', '/workspace/cost-export?table=byTask')).headers;
    expect([headers.get('x-export-total'), headers.get('x-export-capped')]).toEqual(['5004', 'true']);
  });

  it('format other than csv or json is a 422 naming format', async () => {
    await expectRejectedUnchanged(desk, { method: 'GET', path: '/api/v1/workspace/cost-export?format=xml' }, { status: 422, field: 'format' });
  });

  it('a table other than the four is a 422 naming table', async () => {
    await expectRejectedUnchanged(desk, { method: 'GET', path: '/api/v1/workspace/cost-export?table=everything' }, { status: 422, field: 'table' });
  });
});
