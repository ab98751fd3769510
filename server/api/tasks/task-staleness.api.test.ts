import { beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../core/clock';
import { TASK_STALE_SWEEP_JOB } from '../../jobs/task-jobs';
import type { TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { createTask, insertTaskRow } from '../../testing/fixtures/tasks';
import { addMember } from '../../testing/fixtures/workspace';
import { useTestDesk } from '../../testing/use-test-desk';

/** API tests of staleness: GET /tasks/stale, POST renew, the stale auto-archive sweep, GET /tasks/auto-archived. */

const shared = useTestDesk();
let desk: TestDesk;
beforeEach(() => {
  desk = shared.desk;
});

const api = (method: string, p: string, body?: unknown) => desk.api(method, `/api/v1${p}`, body);
const db = () => desk.services.db;
const events = (name: string) => db().selectFrom('outboxEvents').selectAll().where('event', '=', name).orderBy('id').execute();
const idsOf = (res: { body: { tasks: { id: string }[] } }) => res.body.tasks.map((t) => t.id);
const daysAgo = (n: number, extraMs = 0) => new Date(desk.clock.now().getTime() - n * DAY_MS - extraMs).toISOString();
const sweep = () => desk.services.scheduler.runNow(TASK_STALE_SWEEP_JOB);

describe('GET /tasks/stale', () => {
  it('lists queued and in_progress tasks older than the threshold (default 5 days), oldest first; pinned and other statuses excluded', async () => {
    await addMember(desk, 'usr_ann', 'Ann');
    await insertTaskRow(desk, { id: 'tsk_a', updatedAt: daysAgo(6) });
    await insertTaskRow(desk, { id: 'tsk_b', updatedAt: daysAgo(9), status: 'in_progress', assignedToUserId: 'usr_ann' });
    await insertTaskRow(desk, { id: 'tsk_fresh', updatedAt: daysAgo(4) });
    await insertTaskRow(desk, { id: 'tsk_edge', updatedAt: daysAgo(5) }); // exactly 5 days: not beyond
    await insertTaskRow(desk, { id: 'tsk_pin', updatedAt: daysAgo(20), pinned: 1 });
    await insertTaskRow(desk, { id: 'tsk_need', updatedAt: daysAgo(20), status: 'needs_input' });
    await insertTaskRow(desk, { id: 'tsk_done', updatedAt: daysAgo(20), status: 'done' });
    const res = await api('GET', '/tasks/stale');
    expect(res.body).toMatchObject({ thresholdDays: 5, nextCursor: null });
    expect(idsOf(res)).toEqual(['tsk_b', 'tsk_a']);
    expect(res.body.tasks.map((t: { daysStale: number }) => t.daysStale)).toEqual([9, 6]);
    expect(idsOf(await api('GET', '/tasks/stale?thresholdDays=8'))).toEqual(['tsk_b']);
    expect(idsOf(await api('GET', '/tasks/stale?assignedToUserId=usr_ann'))).toEqual(['tsk_b']);
    const page = await api('GET', '/tasks/stale?limit=1');
    expect(idsOf(page)).toEqual(['tsk_b']);
    expect(idsOf(await api('GET', `/tasks/stale?limit=1&cursor=${page.body.nextCursor}`))).toEqual(['tsk_a']);
  });

  it('PATCH /tasks/{id}/pin keeps a task out of the stale list until it is unpinned; pinned must be a boolean', async () => {
    await insertTaskRow(desk, { id: 'tsk_old', status: 'queued', updatedAt: daysAgo(9) });
    expect(idsOf(await api('GET', '/tasks/stale'))).toEqual(['tsk_old']);
    const pinned = await api('PATCH', '/tasks/tsk_old/pin', { pinned: true });
    expect(pinned.status).toBe(200);
    expect(pinned.body.pinned).toBe(true);
    expect(idsOf(await api('GET', '/tasks/stale'))).toEqual([]);
    const log = (await api('GET', '/activity?kind=task.pinned')).body.activities;
    expect(log).toHaveLength(1);
    expect(log[0].entityId).toBe('tsk_old');
    await expectRejectedUnchanged(desk, { method: 'PATCH', path: '/api/v1/tasks/tsk_old/pin', body: { pinned: 'yes' } }, { field: 'pinned' });
    await expectRejectedUnchanged(desk, { method: 'PATCH', path: '/api/v1/tasks/tsk_none/pin', body: { pinned: true } }, { status: 404, error: 'task_not_found' });
    desk.clock.advance(6 * DAY_MS); // unpinning is a change: it restarts the staleness clock
    expect((await api('PATCH', '/tasks/tsk_old/pin', { pinned: false })).body.pinned).toBe(false);
    desk.clock.advance(6 * DAY_MS);
    expect(idsOf(await api('GET', '/tasks/stale'))).toEqual(['tsk_old']);
  });

  it('thresholdDays 1-60 and limit 1-100 (default 10)', async () => {
    for (let i = 0; i < 11; i++) await insertTaskRow(desk, { id: `tsk_${i}`, updatedAt: daysAgo(70) });
    expect((await api('GET', '/tasks/stale')).body.tasks).toHaveLength(10);
    expect((await api('GET', '/tasks/stale?limit=100')).body.tasks).toHaveLength(11);
    expect((await api('GET', '/tasks/stale?thresholdDays=60&limit=100')).body.tasks).toHaveLength(11);
    expect((await api('GET', '/tasks/stale?thresholdDays=1')).status).toBe(200);
    for (const q of ['thresholdDays=0', 'thresholdDays=61', 'limit=0', 'limit=101']) {
      const res = await api('GET', `/tasks/stale?${q}`);
      expect(res.status, q).toBe(422);
      expect(res.body.details[0].field).toBe(q.split('=')[0]);
    }
  });
});

describe('POST /tasks/{id}/renew', () => {
  it('bumps updatedAt, clears the warning, keeps the status; a note (at most 600) becomes an operator note', async () => {
    await insertTaskRow(desk, { id: 'tsk_a', status: 'needs_input', updatedAt: daysAgo(10), archiveWarnedAt: daysAgo(1) });
    const res = await api('POST', '/tasks/tsk_a/renew', {});
    expect(res.body).toMatchObject({ status: 'needs_input', archiveWarnedAt: null, updatedAt: desk.clock.now().toISOString() });
    expect(await events('task.renewed')).toHaveLength(1);
    const withNote = await api('POST', '/tasks/tsk_a/renew', { note: 'n'.repeat(600) });
    expect(withNote.body).toMatchObject({ status: 'needs_input', notesCount: 1 });
    expect((await api('GET', '/tasks/tsk_a/notes')).body.notes[0].text).toBe('n'.repeat(600));
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/tasks/tsk_a/renew', body: { note: 'n'.repeat(601) } }, { field: 'note' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/tasks/tsk_nope/renew', body: {} }, { status: 404, error: 'task_not_found' });
  });
});

describe('the stale auto-archive sweep and GET /tasks/auto-archived', () => {
  it('does nothing while the workspace threshold is off', async () => {
    await insertTaskRow(desk, { id: 'tsk_a', updatedAt: daysAgo(200) });
    await sweep();
    expect((await api('GET', '/tasks/tsk_a')).body).toMatchObject({ status: 'queued', archiveWarnedAt: null });
  });

  it('warns a day before, then archives; pinned, renewed and finished tasks stay', async () => {
    expect((await api('PUT', '/workspace/auto-archive-config', { staleTaskAutoArchiveDays: 7 })).status).toBe(200);
    await insertTaskRow(desk, { id: 'tsk_old', updatedAt: daysAgo(6, HOUR_MS) });
    await insertTaskRow(desk, { id: 'tsk_young', updatedAt: daysAgo(5) });
    await insertTaskRow(desk, { id: 'tsk_pin', updatedAt: daysAgo(30), pinned: 1 });
    await insertTaskRow(desk, { id: 'tsk_done', updatedAt: daysAgo(30), status: 'done' });
    await insertTaskRow(desk, { id: 'tsk_renew', updatedAt: daysAgo(6, HOUR_MS), status: 'in_progress' });
    await sweep();
    const warned = (await events('task.archive_warning')).map((e) => JSON.parse(e.payload).data.taskId);
    expect(warned.sort()).toEqual(['tsk_old', 'tsk_renew']);
    expect((await api('GET', '/tasks/tsk_old')).body.archiveWarnedAt).toBe(desk.clock.now().toISOString());
    // a second run the same hour warns nobody twice and archives nothing yet
    await sweep();
    expect(await events('task.archive_warning')).toHaveLength(2);
    await api('POST', '/tasks/tsk_renew/renew', {});
    desk.clock.advance(DAY_MS);
    await sweep();
    expect((await api('GET', '/tasks/tsk_old')).body).toMatchObject({ status: 'archived', archivedBySweep: true, archiveWarnedAt: null });
    for (const id of ['tsk_young', 'tsk_pin', 'tsk_renew']) expect((await api('GET', `/tasks/${id}`)).body.status, id).not.toBe('archived');
    expect((await api('GET', '/tasks/tsk_done')).body.status).toBe('done');
    const moved = (await events('task.status_changed')).map((e) => JSON.parse(e.payload).data);
    expect(moved).toEqual([{ taskId: 'tsk_old', title: 'Task tsk_old', from: 'queued', to: 'archived', cause: 'sweep' }]);
    const archived = await api('GET', '/tasks/auto-archived');
    expect(archived.body).toMatchObject({ sinceDays: 30, nextCursor: null });
    expect(idsOf(archived)).toEqual(['tsk_old']);
    // archived tasks leave the default queue and come back with a move
    expect(idsOf(await api('GET', '/tasks'))).not.toContain('tsk_old');
    await api('PATCH', '/tasks/tsk_old', { status: 'queued' });
    expect(idsOf(await api('GET', '/tasks/auto-archived'))).toEqual([]);
  });

  it('a task already past the threshold is warned first and archived no sooner than a day later', async () => {
    await api('PUT', '/workspace/auto-archive-config', { staleTaskAutoArchiveDays: 7 });
    await insertTaskRow(desk, { id: 'tsk_a', updatedAt: daysAgo(40) });
    await sweep();
    expect((await api('GET', '/tasks/tsk_a')).body.status).toBe('queued');
    desk.clock.advance(DAY_MS - HOUR_MS);
    await sweep();
    expect((await api('GET', '/tasks/tsk_a')).body.status).toBe('queued');
    desk.clock.advance(HOUR_MS);
    await sweep();
    expect((await api('GET', '/tasks/tsk_a')).body.status).toBe('archived');
  });

  it('auto-archived: sinceDays 1-365 (default 30), limit 1-200 (default 50), window from archivedAt', async () => {
    await insertTaskRow(desk, { id: 'tsk_recent', status: 'archived', archivedBySweep: 1, archivedAt: daysAgo(29) });
    await insertTaskRow(desk, { id: 'tsk_older', status: 'archived', archivedBySweep: 1, archivedAt: daysAgo(31) });
    await insertTaskRow(desk, { id: 'tsk_hand', status: 'archived', archivedBySweep: 0, archivedAt: daysAgo(1) });
    expect(idsOf(await api('GET', '/tasks/auto-archived'))).toEqual(['tsk_recent']);
    expect(idsOf(await api('GET', '/tasks/auto-archived?sinceDays=365'))).toEqual(['tsk_recent', 'tsk_older']);
    expect((await api('GET', '/tasks/auto-archived?sinceDays=1')).status).toBe(200);
    for (const q of ['sinceDays=0', 'sinceDays=366', 'limit=0', 'limit=201']) expect((await api('GET', `/tasks/auto-archived?${q}`)).status, q).toBe(422);
    for (let i = 0; i < 50; i++) await insertTaskRow(desk, { id: `tsk_${i}`, status: 'archived', archivedBySweep: 1, archivedAt: daysAgo(1) });
    expect((await api('GET', '/tasks/auto-archived')).body.tasks).toHaveLength(50);
    expect((await api('GET', '/tasks/auto-archived?limit=200')).body.tasks).toHaveLength(51);
  });

  it('reads staleness by workspace calendar days across a DST change', async () => {
    await api('PATCH', '/workspace/timezone', { timezone: 'Europe/Berlin' });
    // 2026-03-29 is 23 hours long in Berlin; 5 calendar days before 2026-04-01T12:00 Berlin is 2026-03-27T12:00 Berlin (11:00Z)
    desk.clock.set(new Date('2026-04-01T10:00:00Z'));
    await insertTaskRow(desk, { id: 'tsk_in', updatedAt: '2026-03-27T10:59:00Z' });
    await insertTaskRow(desk, { id: 'tsk_out', updatedAt: '2026-03-27T11:00:00Z' });
    expect(idsOf(await api('GET', '/tasks/stale'))).toEqual(['tsk_in']);
  });
});

describe('POST /tasks/{id}/duplicate', () => {
  it('copies kind, deliverableType, priority, assignee, tags, goal, context; clears the rest; queued with (copy)', async () => {
    await addMember(desk, 'usr_ann', 'Ann');
    const blocker = await createTask(desk, { title: 'Blocker' });
    const t = await createTask(desk, { title: 'Launch post', kind: 'writing', deliverableType: 'post', priority: 'urgent', dueAt: '2026-05-01T00:00:00Z', tags: ['launch'], goal: 'Ship', context: 'Q2' });
    await api('PATCH', `/tasks/${t.id}/assignee`, { assignedToUserId: 'usr_ann' });
    await api('PUT', `/tasks/${t.id}/blockers`, { blockedByTaskIds: [blocker.id] });
    await api('POST', `/tasks/${t.id}/notes`, { text: 'note' });
    await api('PATCH', `/tasks/${t.id}`, { status: 'in_progress' });
    await db().updateTable('tasks').set({ sourceSignalIds: '["sig_1"]', sourceMemoryIds: '["mem_1"]', pinned: 1, costMicroUsd: 5000, sessionCount: 2 }).where('id', '=', t.id).execute();
    const res = await api('POST', `/tasks/${t.id}/duplicate`, { asUserId: 'usr_ann' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Launch post (copy)',
      summary: t.summary,
      status: 'queued',
      kind: 'writing',
      deliverableType: 'post',
      priority: 'urgent',
      assignedToUserId: 'usr_ann',
      tags: ['launch'],
      goal: 'Ship',
      context: 'Q2',
      dueAt: null,
      blockedByTaskIds: [],
      sourceSignalIds: [],
      sourceMemoryIds: [],
      pinned: false,
      notesCount: 0,
    });
    expect(res.body.cost.sessionCount).toBe(0);
    expect(res.body.id).not.toBe(t.id);
    const created = (await events('task.created')).map((e) => JSON.parse(e.payload).data);
    expect(created[created.length - 1]).toMatchObject({ taskId: res.body.id, duplicateOfTaskId: t.id });
    const act = await db().selectFrom('activity').selectAll().where('kind', '=', 'task.created').where('entityId', '=', res.body.id).executeTakeFirstOrThrow();
    expect(act.actorUserId).toBe('usr_ann');
  });

  it('keeps a 200-character title within 200 with the suffix; asUserId must be a member; unknown task 404', async () => {
    const t = await createTask(desk, { title: 'x'.repeat(200) });
    const res = await api('POST', `/tasks/${t.id}/duplicate`, {});
    expect(res.body.title).toBe(`${'x'.repeat(193)} (copy)`);
    await expectRejectedUnchanged(desk, { method: 'POST', path: `/api/v1/tasks/${t.id}/duplicate`, body: { asUserId: 'usr_ghost' } }, { field: 'asUserId' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/tasks/tsk_nope/duplicate', body: {} }, { status: 404 });
  });
});
