import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { insertTaskRow } from '../../testing/fixtures/tasks';

/** GET /tasks?sort=...: each order over the whole list, read two tasks a page through nextCursor. */

let desk: TestDesk;
beforeAll(async () => {
  desk = await startTestDesk();
  const at = (day: number) => `2026-03-0${day}T10:00:00.000Z`;
  // created 1..6; updated in another order; some with priorities, due dates, a focus tag, closed ones.
  const rows = [
    { id: 'tsk_a', createdAt: at(1), updatedAt: at(6), priority: 'low' as const, dueAt: null, status: 'queued' as const },
    { id: 'tsk_b', createdAt: at(2), updatedAt: at(2), priority: 'urgent' as const, dueAt: '2026-04-02T00:00:00.000Z', status: 'done' as const },
    { id: 'tsk_c', createdAt: at(3), updatedAt: at(5), priority: null, dueAt: '2026-04-01T00:00:00.000Z', status: 'in_progress' as const },
    { id: 'tsk_d', createdAt: at(4), updatedAt: at(1), priority: 'high' as const, dueAt: null, status: 'needs_input' as const },
    { id: 'tsk_e', createdAt: at(5), updatedAt: at(4), priority: 'high' as const, dueAt: '2026-04-01T00:00:00.000Z', status: 'queued' as const },
    { id: 'tsk_f', createdAt: at(6), updatedAt: at(3), priority: null, dueAt: null, status: 'queued' as const },
  ];
  for (const r of rows) await insertTaskRow(desk, r);
  await desk.services.db.insertInto('taskTags').values({ taskId: 'tsk_f', tag: 'launch' }).execute();
  const focus = await desk.api('PUT', '/api/v1/workspace/focus-tags', { tags: ['launch'] });
  expect(focus.status).toBe(200);
});
afterAll(() => desk.stop());

async function readAll(sort?: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: '2', ...(sort ? { sort } : {}), ...(cursor ? { cursor } : {}) });
    const res = await desk.api('GET', `/api/v1/tasks?${query}`);
    expect(res.status).toBe(200);
    ids.push(...res.body.tasks.map((t: { id: string }) => t.id));
    cursor = res.body.nextCursor;
  } while (cursor !== null);
  return ids;
}

describe('GET /tasks sort', () => {
  it('created (the default): newest first', async () => {
    expect(await readAll()).toEqual(['tsk_f', 'tsk_e', 'tsk_d', 'tsk_c', 'tsk_b', 'tsk_a']);
    expect(await readAll('created')).toEqual(['tsk_f', 'tsk_e', 'tsk_d', 'tsk_c', 'tsk_b', 'tsk_a']);
  });

  it('updated: most recently changed first', async () => {
    expect(await readAll('updated')).toEqual(['tsk_a', 'tsk_c', 'tsk_e', 'tsk_f', 'tsk_b', 'tsk_d']);
  });

  it('priority: highest first (none is normal), then most recently changed', async () => {
    expect(await readAll('priority')).toEqual(['tsk_b', 'tsk_e', 'tsk_d', 'tsk_c', 'tsk_f', 'tsk_a']);
  });

  it('due: soonest first, undated last, then highest priority', async () => {
    expect(await readAll('due')).toEqual(['tsk_e', 'tsk_c', 'tsk_b', 'tsk_d', 'tsk_f', 'tsk_a']);
  });

  it('smart: open work first, then focus-tagged, then highest priority, then oldest', async () => {
    expect(await readAll('smart')).toEqual(['tsk_f', 'tsk_d', 'tsk_e', 'tsk_c', 'tsk_a', 'tsk_b']);
  });

  it('smart without focus tags: open work first, then highest priority, then oldest', async () => {
    expect((await desk.api('PUT', '/api/v1/workspace/focus-tags', { tags: [] })).status).toBe(200);
    try {
      expect(await readAll('smart')).toEqual(['tsk_d', 'tsk_e', 'tsk_c', 'tsk_f', 'tsk_a', 'tsk_b']);
    } finally {
      await desk.api('PUT', '/api/v1/workspace/focus-tags', { tags: ['launch'] });
    }
  });

  it('rejects an unknown sort, and a cursor of another sort, with 422', async () => {
    const bad = await desk.api('GET', '/api/v1/tasks?sort=random');
    expect(bad.status).toBe(422);
    expect(bad.body.details[0].field).toBe('sort');
    const page = await desk.api('GET', '/api/v1/tasks?limit=1&sort=priority');
    const crossed = await desk.api('GET', `/api/v1/tasks?limit=1&sort=created&cursor=${encodeURIComponent(page.body.nextCursor)}`);
    expect(crossed.status).toBe(422);
    expect(crossed.body.details[0].field).toBe('cursor');
  });
});
