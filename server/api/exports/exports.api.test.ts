import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../core/clock';
import type { TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { insertArtifactRow } from '../../testing/fixtures/artifacts';
import { insertMemoryRow, recordRetrieval } from '../../testing/fixtures/memory';
import { insertSourceRow } from '../../testing/fixtures/sources';
import { insertTaskRow } from '../../testing/fixtures/tasks';
import { addMember } from '../../testing/fixtures/workspace';
import { useTestDesk } from '../../testing/use-test-desk';

const shared = useTestDesk();
const ago = (desk: TestDesk, ms: number) => new Date(desk.clock.now().getTime() - ms).toISOString();
const csvRows = (body: string) => parse(body, { columns: true }) as Record<string, string>[];

describe('GET /workspace/sources-export', () => {
  it('answers health, keyword filters and the 7-day signal rate, as CSV a parser reads back and as JSON', async () => {
    const { desk } = shared;
    const now = desk.clock.now().getTime();
    await insertSourceRow(desk, { id: 'src_a', label: '=cmd|calc', url: 'https://a.example/feed', includeKeywords: '["pricing","a, b"]', excludeKeywords: '["jobs"]', lastSyncedAt: ago(desk, HOUR_MS), lastSignalAt: ago(desk, HOUR_MS), createdAt: ago(desk, 30 * DAY_MS) });
    await insertSourceRow(desk, { id: 'src_b', label: 'Quiet feed', url: 'https://b.example/feed', lastSyncedAt: ago(desk, HOUR_MS), createdAt: ago(desk, 30 * DAY_MS) });
    await insertSourceRow(desk, { id: 'src_c', label: 'Broken', url: 'https://c.example/feed', status: 'error', consecutiveFailures: 2, lastErrorMessage: 'HTTP 500', createdAt: ago(desk, 20 * DAY_MS) });
    await insertSourceRow(desk, { id: 'src_d', label: 'Paused', url: 'https://d.example/feed', pausedAt: ago(desk, HOUR_MS), createdAt: ago(desk, 10 * DAY_MS) });
    // 3 signals within the last 7 days, 1 before.
    const at = (ms: number) => new Date(now - ms).toISOString();
    await desk.services.db
      .insertInto('signals')
      .values([1, 2, 3, 9].map((d) => ({ id: `sig_${d}`, kind: 'news' as const, priority: 'normal' as const, title: `S${d}`, detail: '', sourceUrl: null, sourceId: 'src_a', pinned: 0, createdAt: at(d * DAY_MS - HOUR_MS) })))
      .execute();

    const json = await desk.api('GET', '/api/v1/workspace/sources-export?format=json');
    expect(json.status).toBe(200);
    expect(json.headers.get('content-disposition')).toContain('filename="sources.json"');
    expect(json.body).toMatchObject({ total: 4, capped: false });
    const byId = Object.fromEntries(json.body.rows.map((r: { id: string }) => [r.id, r]));
    expect(byId.src_a).toMatchObject({ health: 'healthy', includeKeywords: ['pricing', 'a, b'], excludeKeywords: ['jobs'], signals7d: 3, signalsPerDay7d: 0.43, effectivePollIntervalMinutes: 30 });
    expect(byId.src_b.health).toBe('quiet');
    expect(byId.src_c).toMatchObject({ health: 'error', consecutiveFailures: 2, lastErrorMessage: 'HTTP 500', signals7d: 0 });
    expect(byId.src_d).toMatchObject({ health: 'paused', paused: true });

    const csv = await desk.api('GET', '/api/v1/workspace/sources-export');
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain('filename="sources.csv"');
    expect(csv.headers.get('x-export-total')).toBe('4');
    expect(csv.headers.get('x-export-capped')).toBe('false');
    const rows = csvRows(csv.body);
    expect(Object.keys(rows[0])).toEqual([
      'id', 'type', 'label', 'url', 'notes', 'status', 'health', 'paused', 'pausedUntilAt', 'pollIntervalMinutes', 'effectivePollIntervalMinutes', 'consecutiveFailures',
      'lastErrorMessage', 'lastSyncedAt', 'lastSignalAt', 'includeKeywords', 'excludeKeywords', 'signals7d', 'signalsPerDay7d', 'createdAt',
    ]);
    const a = rows.find((r) => r.id === 'src_a')!;
    expect(a).toMatchObject({ label: "'=cmd|calc", includeKeywords: 'pricing; a, b', excludeKeywords: 'jobs', signals7d: '3', health: 'healthy', pollIntervalMinutes: '' });
  });

});

describe('GET /workspace/activity-export', () => {
  it('answers the window between since and until, newest first, with the window in the json', async () => {
    const { desk } = shared;
    const db = desk.services.db;
    await db.deleteFrom('activity').execute();
    const at = (h: number) => ago(desk, h * HOUR_MS);
    await db
      .insertInto('activity')
      .values([10, 8, 6, 4, 2].map((h) => ({ id: `act_${h}`, kind: 'signal.created' as const, detail: `+SUM(${h})`, actorUserId: null, actorLabel: 'system', entityType: 'signal', entityId: `sig_${h}`, createdAt: at(h) })))
      .execute();
    const json = await desk.api('GET', `/api/v1/workspace/activity-export?format=json&since=${encodeURIComponent(at(8))}&until=${encodeURIComponent(at(4))}`);
    expect(json.status).toBe(200);
    expect(json.body).toEqual({ rows: expect.any(Array), total: 3, since: at(8), until: at(4), capped: false });
    expect(json.body.rows.map((r: { id: string }) => r.id)).toEqual(['act_4', 'act_6', 'act_8']);

    const open = await desk.api('GET', '/api/v1/workspace/activity-export?format=json');
    expect(open.body).toMatchObject({ total: 5, since: null, until: desk.clock.now().toISOString(), capped: false });

    const csv = await desk.api('GET', `/api/v1/workspace/activity-export?since=${encodeURIComponent(at(8))}`);
    const rows = csvRows(csv.body);
    expect(Object.keys(rows[0])).toEqual(['id', 'createdAt', 'kind', 'detail', 'actorUserId', 'actorLabel', 'entityType', 'entityId']);
    expect(rows.map((r) => r.id)).toEqual(['act_2', 'act_4', 'act_6', 'act_8']);
    expect(rows[0]).toMatchObject({ detail: "'+SUM(2)", actorUserId: '', actorLabel: 'system', entityType: 'signal' });
  });

  it('refuses a bad window and changes nothing', async () => {
    const { desk } = shared;
    await expectRejectedUnchanged(desk, { method: 'GET', path: '/api/v1/workspace/activity-export?since=yesterday' }, { field: 'since' });
    await expectRejectedUnchanged(desk, { method: 'GET', path: '/api/v1/workspace/activity-export?until=2026-13-01' }, { field: 'until' });
    await expectRejectedUnchanged(desk, { method: 'GET', path: '/api/v1/workspace/activity-export?since=2026-03-10&until=2026-03-09' }, { field: 'since' });
  });

});

describe('GET /workspace/artifacts-export', () => {
  it('answers outputs with tags as an array, publicShareUrl and content', async () => {
    const { desk } = shared;
    await addMember(desk, 'usr_rev', 'Rita');
    const taskId = await insertTaskRow(desk, { title: 'Onboarding', assignedToUserId: 'usr_rev' });
    await insertArtifactRow(desk, { id: 'art_1', taskId, title: '@risk report', content: '# Hi\n\n- one, "two"', tags: ['growth', 'q2'], pinned: true, createdAt: ago(desk, 2 * HOUR_MS) });
    await insertArtifactRow(desk, { id: 'art_2', title: 'Later', status: 'approved', decidedAt: ago(desk, HOUR_MS), createdAt: ago(desk, HOUR_MS) });
    const json = await desk.api('GET', '/api/v1/workspace/artifacts-export?format=json');
    expect(json.body).toMatchObject({ total: 2, capped: false });
    expect(json.body.rows.map((r: { id: string }) => r.id)).toEqual(['art_2', 'art_1']);
    expect(json.body.rows[1]).toMatchObject({ tags: ['growth', 'q2'], pinned: true, publicShareUrl: null, taskTitle: 'Onboarding', reviewOwnerId: 'usr_rev', reviewOwnerName: 'Rita', content: '# Hi\n\n- one, "two"' });
    const csv = await desk.api('GET', '/api/v1/workspace/artifacts-export');
    // The UI's word: the file is outputs.csv (the path stays the spec's).
    expect(csv.headers.get('content-disposition')).toContain('filename="outputs.csv"');
    expect(json.headers.get('content-disposition')).toContain('filename="outputs.json"');
    const rows = csvRows(csv.body);
    expect(Object.keys(rows[0])).toEqual([
      'id', 'title', 'kind', 'status', 'version', 'parentArtifactId', 'taskId', 'taskTitle', 'runId', 'tags', 'pinned', 'reviewOwnerId', 'reviewOwnerName', 'readyAt', 'decidedAt',
      'publicShareUrl', 'content', 'authorKind', 'authorUserId', 'supersededAt', 'supersededById', 'createdAt', 'updatedAt',
    ]);
    expect(rows[1]).toMatchObject({ title: "'@risk report", tags: 'growth; q2', pinned: 'true', publicShareUrl: '', content: '# Hi\n\n- one, "two"' });
  });

});

describe('GET /workspace/stale-tasks-export', () => {
  it('answers stale queued and in_progress tasks with cost columns; pinned, fresh and done ones are left out', async () => {
    const { desk } = shared;
    await addMember(desk, 'usr_ann', 'Ann');
    const old = ago(desk, 7 * DAY_MS);
    await insertTaskRow(desk, { id: 'tsk_stale', title: '-1 stale', updatedAt: old, assignedToUserId: 'usr_ann', totalInputTokens: 1200, totalOutputTokens: 300, costMicroUsd: 1_500_000, sessionCount: 3 });
    await insertTaskRow(desk, { id: 'tsk_busy', status: 'in_progress', updatedAt: ago(desk, 6 * DAY_MS) });
    await insertTaskRow(desk, { id: 'tsk_pinned', pinned: 1, updatedAt: old });
    await insertTaskRow(desk, { id: 'tsk_done', status: 'done', updatedAt: old });
    await insertTaskRow(desk, { id: 'tsk_fresh', updatedAt: ago(desk, 2 * DAY_MS) });
    await desk.services.db.insertInto('taskTags').values([{ taskId: 'tsk_stale', tag: 'ops' }]).execute();

    const json = await desk.api('GET', '/api/v1/workspace/stale-tasks-export?format=json');
    expect(json.body).toMatchObject({ thresholdDays: 5, total: 2, capped: false });
    expect(json.body.rows.map((r: { id: string }) => r.id)).toEqual(['tsk_stale', 'tsk_busy']);
    expect(json.body.rows[0]).toMatchObject({ assigneeName: 'Ann', tags: ['ops'], daysStale: 7, totalInputTokens: 1200, totalOutputTokens: 300, estimatedCostUsd: 1.5, sessionCount: 3, costPerSessionUsd: 0.5 });
    const six = await desk.api('GET', '/api/v1/workspace/stale-tasks-export?format=json&thresholdDays=6');
    expect(six.body.rows.map((r: { id: string }) => r.id)).toEqual(['tsk_stale']);

    const rows = csvRows((await desk.api('GET', '/api/v1/workspace/stale-tasks-export?thresholdDays=1')).body);
    expect(Object.keys(rows[0])).toEqual([
      'id', 'title', 'status', 'priority', 'assignedToUserId', 'assigneeName', 'tags', 'dueAt', 'createdAt', 'updatedAt', 'daysStale', 'totalInputTokens', 'totalOutputTokens',
      'estimatedCostUsd', 'sessionCount', 'costPerSessionUsd',
    ]);
    expect(rows.map((r) => r.id)).toEqual(['tsk_stale', 'tsk_busy', 'tsk_fresh']);
    expect(rows[0]).toMatchObject({ title: "'-1 stale", estimatedCostUsd: '1.5', costPerSessionUsd: '0.5' });
  });

  it.each([['0'], ['61'], ['2.5'], ['x']])('refuses thresholdDays=%s and changes nothing', async (value) => {
    await expectRejectedUnchanged(shared.desk, { method: 'GET', path: `/api/v1/workspace/stale-tasks-export?thresholdDays=${value}` }, { field: 'thresholdDays' });
  });

  it('accepts both ends of the threshold range', async () => {
    for (const days of [1, 60]) expect((await shared.desk.api('GET', `/api/v1/workspace/stale-tasks-export?format=json&thresholdDays=${days}`)).body.thresholdDays).toBe(days);
  });

});

describe('GET /workspace/memory-export', () => {
  it('answers memory with tags, usage and archived entries', async () => {
    const { desk } = shared;
    await insertMemoryRow(desk, { id: 'mem_a', kind: 'decision', title: '=1+1', content: 'Line one\nline "two"', importance: 9, pinned: 1, tags: ['pricing', 'q2'], createdAt: ago(desk, 2 * DAY_MS) });
    await insertMemoryRow(desk, { id: 'mem_b', title: 'Archived', archivedAt: ago(desk, HOUR_MS), createdAt: ago(desk, DAY_MS) });
    await recordRetrieval(desk, 'mem_a', ago(desk, HOUR_MS), '2026-03-10', 2);
    const json = await desk.api('GET', '/api/v1/workspace/memory-export?format=json');
    expect(json.body).toMatchObject({ total: 2, capped: false });
    expect(json.body.rows.map((r: { id: string }) => r.id)).toEqual(['mem_b', 'mem_a']);
    expect(json.body.rows[1]).toMatchObject({ kind: 'decision', tags: ['pricing', 'q2'], importance: 9, pinned: true, retrievalCount: 2, retrievals7d: 2 });
    expect(json.body.rows[0].archivedAt).toBe(ago(desk, HOUR_MS));
    const rows = csvRows((await desk.api('GET', '/api/v1/workspace/memory-export')).body);
    expect(Object.keys(rows[0])).toEqual([
      'id', 'kind', 'title', 'content', 'importance', 'pinned', 'tags', 'retrievalCount', 'retrievals7d', 'lastRetrievedAt', 'totalAttributedInputTokens',
      'totalAttributedOutputTokens', 'estimatedCostUsd', 'createdByRunId', 'archivedAt', 'createdAt', 'updatedAt',
    ]);
    expect(rows[1]).toMatchObject({ title: "'=1+1", content: 'Line one\nline "two"', tags: 'pricing; q2', pinned: 'true' });
  });

});

describe('GET /workspace/signals-export', () => {
  it('answers every signal, newest received first, with its source and published time, as CSV a parser reads back and as JSON', async () => {
    const { desk } = shared;
    await insertSourceRow(desk, { id: 'src_feed', label: 'Changelog', url: 'https://acme.example/feed.xml' });
    await desk.services.db
      .insertInto('signals')
      .values([
        { id: 'sig_old', kind: 'news', priority: 'high', title: '=cmd|calc', detail: 'Line one\nline "two", three', sourceUrl: 'https://acme.example/p', sourceId: 'src_feed', pinned: 1, createdAt: ago(desk, 2 * DAY_MS), publishedAt: ago(desk, 9 * DAY_MS), triagedAt: ago(desk, DAY_MS) },
        { id: 'sig_new', kind: 'mention', priority: 'normal', title: 'Tweet', detail: '', sourceUrl: null, sourceId: null, pinned: 0, createdAt: ago(desk, HOUR_MS), externalId: 'tw-1' },
      ])
      .execute();
    const json = await desk.api('GET', '/api/v1/workspace/signals-export?format=json');
    expect(json.body).toMatchObject({ total: 2, capped: false });
    expect(json.body.rows.map((r: { id: string }) => r.id)).toEqual(['sig_new', 'sig_old']);
    expect(json.body.rows[1]).toMatchObject({ sourceLabel: 'Changelog', pinned: true, publishedAt: ago(desk, 9 * DAY_MS), triagedAt: ago(desk, DAY_MS) });
    expect(json.body.rows[0]).toMatchObject({ externalId: 'tw-1', sourceId: null, sourceLabel: null, publishedAt: null, triagedAt: null });
    const csv = await desk.api('GET', '/api/v1/workspace/signals-export');
    expect(csv.headers.get('content-disposition')).toContain('filename="signals.csv"');
    expect(csv.headers.get('x-export-total')).toBe('2');
    const rows = csvRows(csv.body);
    expect(Object.keys(rows[0])).toEqual(['id', 'kind', 'priority', 'title', 'detail', 'sourceUrl', 'sourceId', 'sourceLabel', 'externalId', 'pinned', 'publishedAt', 'createdAt', 'triagedAt']);
    expect(rows[1]).toMatchObject({ title: "'=cmd|calc", detail: 'Line one\nline "two", three', sourceLabel: 'Changelog', pinned: 'true', publishedAt: ago(desk, 9 * DAY_MS) });
  });
});

describe('GET /workspace/tasks-export', () => {
  it('answers every task (done ones too), newest first, with tags, assignee and cost, as CSV a parser reads back and as JSON', async () => {
    const { desk } = shared;
    await addMember(desk, 'usr_ann', 'Ann');
    await insertTaskRow(desk, { id: 'tsk_a', title: '+1 launch', summary: 'Plan, "launch"', status: 'done', priority: 'high', assignedToUserId: 'usr_ann', costMicroUsd: 1_500_000, totalInputTokens: 1200, totalOutputTokens: 300, sessionCount: 3, createdAt: ago(desk, 2 * DAY_MS) });
    await insertTaskRow(desk, { id: 'tsk_b', title: 'Newer', createdAt: ago(desk, HOUR_MS) });
    await desk.services.db.insertInto('taskTags').values([{ taskId: 'tsk_a', tag: 'ops' }, { taskId: 'tsk_a', tag: 'growth' }]).execute();
    const json = await desk.api('GET', '/api/v1/workspace/tasks-export?format=json');
    expect(json.body).toMatchObject({ total: 2, capped: false });
    expect(json.body.rows.map((r: { id: string }) => r.id)).toEqual(['tsk_b', 'tsk_a']);
    expect(json.body.rows[1]).toMatchObject({ status: 'done', priority: 'high', assigneeName: 'Ann', tags: ['growth', 'ops'], estimatedCostUsd: 1.5, sessionCount: 3 });
    const csv = await desk.api('GET', '/api/v1/workspace/tasks-export');
    expect(csv.headers.get('content-disposition')).toContain('filename="tasks.csv"');
    const rows = csvRows(csv.body);
    expect(Object.keys(rows[0])).toEqual([
      'id', 'title', 'summary', 'kind', 'deliverableType', 'status', 'priority', 'assignedToUserId', 'assigneeName', 'tags', 'pinned', 'dueAt', 'archivedAt',
      'totalInputTokens', 'totalOutputTokens', 'estimatedCostUsd', 'sessionCount', 'createdAt', 'updatedAt',
    ]);
    expect(rows[1]).toMatchObject({ title: "'+1 launch", summary: 'Plan, "launch"', tags: 'growth; ops', estimatedCostUsd: '1.5', assigneeName: 'Ann' });
  });
});

describe('format', () => {
  it.each(['sources', 'activity', 'artifacts', 'signals', 'tasks', 'stale-tasks', 'memory'])('%s-export refuses a format other than csv or json', async (name) => {
    await expectRejectedUnchanged(shared.desk, { method: 'GET', path: `/api/v1/workspace/${name}-export?format=xlsx` }, { field: 'format' });
  });
});
