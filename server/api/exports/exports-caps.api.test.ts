import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../core/clock';
import { newTaskDefaults } from '../../domain/tasks/task-store';
import { startTestDesk, type TestDesk } from '../../testing/desk';

/** Every list export at 5000 rows (all answered) and 5001 (capped): one fresh desk per test (no reset of 5000 rows). */

let desk: TestDesk;
beforeEach(async () => {
  desk = await startTestDesk();
});
afterEach(async () => {
  await desk.stop();
});

const ago = (ms: number) => new Date(desk.clock.now().getTime() - ms).toISOString();
const csvLines = (body: string) => parse(body) as string[][];

async function insertMany(desk: TestDesk, table: 'sources' | 'memory' | 'tasks' | 'artifacts' | 'activity', n: number, at: string, prefix: string) {
  const db = desk.services.db;
  for (let i = 0; i < n; i += 400) {
    const ids = Array.from({ length: Math.min(400, n - i) }, (_, k) => `${prefix}${String(i + k).padStart(5, '0')}`);
    if (table === 'sources')
      await db
        .insertInto('sources')
        .values(ids.map((id) => ({ id, type: 'manual' as const, label: id, url: null, notes: null, status: 'connected' as const, pausedAt: null, pausedUntilAt: null, pollIntervalMinutes: null, includeKeywords: '[]', excludeKeywords: '[]', lastSyncedAt: null, lastPolledAt: null, lastErrorMessage: null, lastSignalAt: null, consecutiveFailures: 0, nextRetryAt: null, etag: null, lastModified: null, quietnessAckedAt: null, quietnessWarnedAt: null, createdAt: at, updatedAt: at, filePath: null })))
        .execute();
    if (table === 'memory') await db.insertInto('memory').values(ids.map((id) => ({ id, kind: 'fact' as const, title: id, content: 'c', importance: null, createdAt: at, updatedAt: at }))).execute();
    if (table === 'tasks')
      await db
        .insertInto('tasks')
        .values(ids.map((id) => ({ title: id, summary: 's', kind: null, deliverableType: null, priority: null, dueAt: null, assignedToUserId: null, goal: '', context: '', ...newTaskDefaults(at), id })))
        .execute();
    if (table === 'artifacts') await db.insertInto('artifacts').values(ids.map((id) => ({ id, version: 1, kind: 'report' as const, title: id, content: '', status: 'ready' as const, readyAt: at, createdAt: at, updatedAt: at, decidedAt: null }))).execute();
    if (table === 'activity') await db.insertInto('activity').values(ids.map((id) => ({ id, kind: 'signal.created' as const, detail: id, actorUserId: null, actorLabel: 'system', entityType: null, entityId: null, createdAt: at }))).execute();
  }
}

async function count(desk: TestDesk, table: 'sources' | 'memory' | 'tasks' | 'artifacts' | 'activity') {
  return Number((await desk.services.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
}

/** 5000 rows: not capped, all answered; 5001: capped, 5000 answered; csv and json agree, headers say so. */
async function expectCap(desk: TestDesk, path: string, table: 'sources' | 'memory' | 'tasks' | 'artifacts' | 'activity', at: string) {
  await insertMany(desk, table, 5000 - (await count(desk, table)), at, `${table.slice(0, 3)}_bulk`);
  const full = await desk.api('GET', `${path}${path.includes('?') ? '&' : '?'}format=json`);
  expect(full.status).toBe(200);
  expect(full.body).toMatchObject({ total: 5000, capped: false });
  expect(full.body.rows).toHaveLength(5000);
  await insertMany(desk, table, 1, at, `${table.slice(0, 3)}_last`);
  const over = await desk.api('GET', `${path}${path.includes('?') ? '&' : '?'}format=json`);
  expect(over.body).toMatchObject({ total: 5001, capped: true });
  expect(over.body.rows).toHaveLength(5000);
  const csv = await desk.api('GET', path);
  expect(csv.headers.get('x-export-total')).toBe('5001');
  expect(csv.headers.get('x-export-capped')).toBe('true');
  expect(csvLines(csv.body)).toHaveLength(5001);
}


describe('exports cap at 5000 rows', () => {
  it.each([
    ['/api/v1/workspace/sources-export', 'sources', DAY_MS],
    ['/api/v1/workspace/activity-export', 'activity', DAY_MS],
    ['/api/v1/workspace/artifacts-export', 'artifacts', DAY_MS],
    ['/api/v1/workspace/stale-tasks-export', 'tasks', 10 * DAY_MS],
    ['/api/v1/workspace/memory-export', 'memory', DAY_MS],
  ] as const)('%s', async (path, table, age) => {
    await expectCap(desk, path, table, ago(age));
  });

  it('activity-export leaves out the oldest rows of the window', async () => {
    await expectCap(desk, '/api/v1/workspace/activity-export', 'activity', ago(DAY_MS));
    const json = await desk.api('GET', '/api/v1/workspace/activity-export?format=json');
    const oldest = await desk.services.db.selectFrom('activity').select('id').orderBy('createdAt').orderBy('id').executeTakeFirstOrThrow();
    expect(json.body.rows.some((r: { id: string }) => r.id === oldest.id)).toBe(false);
  });
});

describe('exports read a page at a time (server/domain/exports/paged.ts)', () => {
  it('keeps the order across pages when many rows share a createdAt, and csv and json list the same rows', async () => {
    // 1,200 outputs over three instants: pages of 500 end inside a run of equal createdAt.
    for (const [k, age] of [DAY_MS, 2 * DAY_MS, 3 * DAY_MS].entries()) await insertMany(desk, 'artifacts', 400, ago(age), `art_${k}_`);
    const expected = (await desk.services.db.selectFrom('artifacts').select('id').orderBy('createdAt', 'desc').orderBy('id', 'desc').execute()).map((r) => r.id);
    const json = await desk.api('GET', '/api/v1/workspace/artifacts-export?format=json');
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(json.headers.get('x-export-total')).toBe('1200');
    expect(Object.keys(json.body)).toEqual(['rows', 'total', 'capped']);
    expect(json.body.rows.map((r: { id: string }) => r.id)).toEqual(expected);
    const csv = await desk.api('GET', '/api/v1/workspace/artifacts-export');
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csvLines(csv.body).slice(1).map((line) => line[0])).toEqual(expected);
  });

  it('memory (no index on its order) keeps the order across pages, and an entry deleted before its page is left out', async () => {
    for (const [k, age] of [DAY_MS, 2 * DAY_MS].entries()) await insertMany(desk, 'memory', 150, ago(age), `mem_${k}_`);
    const expected = (await desk.services.db.selectFrom('memory').select('id').orderBy('createdAt', 'desc').orderBy('id', 'desc').execute()).map((r) => r.id);
    const json = await desk.api('GET', '/api/v1/workspace/memory-export?format=json');
    expect(json.body.total).toBe(expected.length);
    expect(json.body.rows.map((r: { id: string }) => r.id)).toEqual(expected);
    const streamed = await desk.services.exports.memory();
    await desk.services.db.deleteFrom('memory').where('id', '=', expected[250]).execute();
    const ids: string[] = [];
    for await (const row of streamed.rows) ids.push(row.id);
    expect(ids).toEqual(expected.filter((id) => id !== expected[250]));
    expect(streamed.total).toBe(expected.length);
  });
});
