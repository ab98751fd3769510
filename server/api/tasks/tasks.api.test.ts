import { beforeEach, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../core/clock';
import type { TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { createTask, insertTaskRow } from '../../testing/fixtures/tasks';
import { addMember } from '../../testing/fixtures/workspace';
import { useTestDesk } from '../../testing/use-test-desk';

/** API tests of the spec's Tasks rows: the queue, status moves, assignee, tags, blockers and unblocking, bulk, notes. */

const shared = useTestDesk();
let desk: TestDesk;
beforeEach(() => {
  desk = shared.desk;
});

const api = (method: string, p: string, body?: unknown) => desk.api(method, `/api/v1${p}`, body);
const db = () => desk.services.db;
const events = (name: string) => db().selectFrom('outboxEvents').selectAll().where('event', '=', name).orderBy('id').execute();
const activityOf = (kind: string) => db().selectFrom('activity').selectAll().where('kind', '=', kind as never).orderBy('id').execute();
const later = (minutes = 1) => desk.clock.advance(minutes * MINUTE_MS);
const ids = (n: number, prefix = 'x') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('POST /tasks and GET /tasks/{id}', () => {
  it('creates a queued task with its vocabulary fields, tags, activity and event', async () => {
    const t = await createTask(desk, { kind: 'research', deliverableType: 'brief', priority: 'high', dueAt: '2026-04-01', tags: ['launch', ' q2-plan ', 'launch'] });
    expect(t).toMatchObject({ status: 'queued', kind: 'research', deliverableType: 'brief', priority: 'high', tags: ['launch', 'q2-plan'], blocked: false, assignee: null, notesCount: 0 });
    expect(t.id).toMatch(/^tsk_/);
    expect(t.cost).toEqual({ totalInputTokens: 0, totalOutputTokens: 0, estimatedCostUsd: 0, sessionCount: 0, costPerSessionUsd: 0 });
    expect(t.share).toEqual({ workLogShared: false, publicWorkLogToken: null, timelineShared: false, publicTimelineToken: null });
    expect((await api('GET', `/tasks/${t.id}`)).body).toEqual(t);
    expect(await activityOf('task.created')).toHaveLength(1);
    const [e] = await events('task.created');
    expect(JSON.parse(e.payload).data).toEqual({ taskId: t.id, title: t.title, status: 'queued', duplicateOfTaskId: null });
  });

  it('requires title and summary, and checks the vocabularies, tags and dueAt; a rejection changes nothing', async () => {
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/tasks', body: { summary: 's' } }, { field: 'title' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/tasks', body: { title: 't' } }, { field: 'summary' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/tasks', body: { title: '   ', summary: 's' } }, { field: 'title' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/tasks', body: { title: 'x'.repeat(201), summary: 's' } }, { field: 'title' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/tasks', body: { title: 't', summary: 's', kind: 'nope' } }, { field: 'kind' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/tasks', body: { title: 't', summary: 's', priority: 'p0' } }, { field: 'priority' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/tasks', body: { title: 't', summary: 's', dueAt: 'tomorrow' } }, { field: 'dueAt' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/tasks', body: { title: 't', summary: 's', tags: ['Not OK'] } }, { field: 'tags[0]' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/tasks', body: { title: 't', summary: 's', tags: ids(11, 't') } }, { field: 'tags' });
    expect((await createTask(desk, { title: 'x'.repeat(200), tags: ids(10, 't') })).tags).toHaveLength(10);
  });

  it('answers 404 task_not_found for an unknown id', async () => {
    const res = await api('GET', '/tasks/tsk_nope');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('task_not_found');
  });
});

describe('GET /tasks', () => {
  it('pages newest first with a cursor, filters by status list and assignee, hides archived by default', async () => {
    await addMember(desk, 'usr_ann', 'Ann');
    for (let i = 0; i < 5; i++) {
      await insertTaskRow(desk, { id: `tsk_${i}`, status: i === 4 ? 'archived' : i % 2 ? 'done' : 'queued', assignedToUserId: i === 0 ? 'usr_ann' : null, createdAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString() });
    }
    const first = await api('GET', '/tasks?limit=2');
    expect(first.body.tasks.map((t: { id: string }) => t.id)).toEqual(['tsk_3', 'tsk_2']);
    const second = await api('GET', `/tasks?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.tasks.map((t: { id: string }) => t.id)).toEqual(['tsk_1', 'tsk_0']);
    expect(second.body.nextCursor).toBeNull();
    expect((await api('GET', '/tasks?status=queued,archived')).body.tasks.map((t: { id: string }) => t.id)).toEqual(['tsk_4', 'tsk_2', 'tsk_0']);
    expect((await api('GET', '/tasks?assignedToUserId=usr_ann')).body.tasks.map((t: { id: string }) => t.id)).toEqual(['tsk_0']);
  });

  it('filters by tag, combined with status and the cursor; a malformed tag is a 422 naming tag', async () => {
    const a = await createTask(desk, { title: 'A', tags: ['support', 'ios'] });
    later();
    await createTask(desk, { title: 'B', tags: ['ios'] });
    later();
    const c = await createTask(desk, { title: 'C', tags: ['support'] });
    const titles = async (q: string) => (await api('GET', `/tasks?${q}`)).body.tasks.map((t: { title: string }) => t.title);
    expect(await titles('tag=support')).toEqual(['C', 'A']);
    expect(await titles('tag=android')).toEqual([]);
    await api('PATCH', `/tasks/${c.id}`, { status: 'done' });
    expect(await titles('tag=support&status=queued')).toEqual(['A']);
    const page = await api('GET', '/tasks?tag=support&limit=1');
    expect(page.body.tasks.map((t: { id: string }) => t.id)).toEqual([c.id]);
    expect((await api('GET', `/tasks?tag=support&limit=1&cursor=${page.body.nextCursor}`)).body.tasks.map((t: { id: string }) => t.id)).toEqual([a.id]);
    const bad = await api('GET', '/tasks?tag=Not%20a%20tag');
    expect(bad.status).toBe(422);
    expect(bad.body.details[0].field).toBe('tag');
  });

  it('limit 1-200 (default 50); an unknown status is a 422 listing the statuses', async () => {
    for (let i = 0; i < 51; i++) await insertTaskRow(desk, { id: `tsk_${String(i).padStart(3, '0')}` });
    expect((await api('GET', '/tasks')).body.tasks).toHaveLength(50);
    expect((await api('GET', '/tasks?limit=200')).body.tasks).toHaveLength(51);
    expect((await api('GET', '/tasks?limit=201')).status).toBe(422);
    expect((await api('GET', '/tasks?limit=0')).status).toBe(422);
    const bad = await api('GET', '/tasks?status=queued,paused');
    expect(bad.status).toBe(422);
    expect(bad.body.details[0].field).toBe('status');
    expect(bad.body.message).toContain('queued, in_progress, needs_input, done, archived');
    expect((await api('GET', '/tasks?cursor=garbage')).status).toBe(422);
  });
});

describe('PATCH /tasks/{id} status', () => {
  it('moves freely among the four statuses, restores an archived task, logs and emits each move', async () => {
    const t = await createTask(desk);
    for (const status of ['done', 'needs_input', 'in_progress', 'queued', 'done'] as const) {
      later();
      const res = await api('PATCH', `/tasks/${t.id}`, { status });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe(status);
      expect(res.body.updatedAt).toBe(desk.clock.now().toISOString());
    }
    expect(await activityOf('task.status_changed')).toHaveLength(5);
    expect((await events('task.status_changed')).map((e) => JSON.parse(e.payload).data.to)).toEqual(['done', 'needs_input', 'in_progress', 'queued', 'done']);
    // the same status again: nothing happens
    await api('PATCH', `/tasks/${t.id}`, { status: 'done' });
    expect(await activityOf('task.status_changed')).toHaveLength(5);
    await db().updateTable('tasks').set({ status: 'archived', archivedAt: desk.clock.now().toISOString(), archivedBySweep: 1 }).where('id', '=', t.id).execute();
    const restored = await api('PATCH', `/tasks/${t.id}`, { status: 'queued' });
    expect(restored.body).toMatchObject({ status: 'queued', archivedAt: null, archivedBySweep: false });
  });

  it('an unknown value (archived included) is a 422 listing the allowed ones; unknown task 404', async () => {
    const t = await createTask(desk);
    for (const status of ['paused', 'archived', '']) {
      const res = await expectRejectedUnchanged(desk, { method: 'PATCH', path: `/api/v1/tasks/${t.id}`, body: { status } }, { field: 'status' });
      expect(res.body.message).toMatch(/queued.*in_progress.*needs_input.*done/);
    }
    await expectRejectedUnchanged(desk, { method: 'PATCH', path: '/api/v1/tasks/tsk_nope', body: { status: 'done' } }, { status: 404, error: 'task_not_found' });
  });
});

describe('PATCH /tasks/{id}/assignee', () => {
  it('assigns a member, unassigns with null; a non-member is a 422 naming assignedToUserId', async () => {
    await addMember(desk, 'usr_ann', 'Ann');
    const t = await createTask(desk);
    const res = await api('PATCH', `/tasks/${t.id}/assignee`, { assignedToUserId: 'usr_ann' });
    expect(res.body).toMatchObject({ assignedToUserId: 'usr_ann', assignee: { id: 'usr_ann', name: 'Ann' } });
    expect((await api('PATCH', `/tasks/${t.id}/assignee`, { assignedToUserId: null })).body).toMatchObject({ assignedToUserId: null, assignee: null });
    expect((await events('task.assigned')).map((e) => JSON.parse(e.payload).data.assignedToUserId)).toEqual(['usr_ann', null]);
    await expectRejectedUnchanged(desk, { method: 'PATCH', path: `/api/v1/tasks/${t.id}/assignee`, body: { assignedToUserId: 'usr_ghost' } }, { field: 'assignedToUserId' });
  });
});

describe('PUT /tasks/{id}/tags', () => {
  it('replaces the tags: 10 pass, 11 and a bad tag are rejected unchanged', async () => {
    const t = await createTask(desk, { tags: ['old'] });
    expect((await api('PUT', `/tasks/${t.id}/tags`, { tags: ids(10, 'n') })).body.tags).toEqual(ids(10, 'n').sort());
    await expectRejectedUnchanged(desk, { method: 'PUT', path: `/api/v1/tasks/${t.id}/tags`, body: { tags: ids(11, 'n') } }, { field: 'tags' });
    await expectRejectedUnchanged(desk, { method: 'PUT', path: `/api/v1/tasks/${t.id}/tags`, body: { tags: ['ok', 'Bad_Tag'] } }, { field: 'tags[1]' });
    expect((await api('PUT', `/tasks/${t.id}/tags`, { tags: [] })).body.tags).toEqual([]);
  });
});

describe('PUT /tasks/{id}/blockers', () => {
  it('takes 8 known blockers and refuses 9, itself, unknown ids and cycles (422 naming blockedByTaskIds)', async () => {
    const t = await createTask(desk, { title: 'Main' });
    const others = [];
    for (let i = 0; i < 9; i++) others.push((await createTask(desk, { title: `B${i}` })).id);
    const ok = await api('PUT', `/tasks/${t.id}/blockers`, { blockedByTaskIds: others.slice(0, 8) });
    expect(ok.status).toBe(200);
    expect(ok.body.blockedByTaskIds).toHaveLength(8);
    expect(ok.body.blocked).toBe(true);
    expect(ok.body.blockers).toHaveLength(8);
    const path = `/api/v1/tasks/${t.id}/blockers`;
    await expectRejectedUnchanged(desk, { method: 'PUT', path, body: { blockedByTaskIds: others } }, { field: 'blockedByTaskIds' });
    await expectRejectedUnchanged(desk, { method: 'PUT', path, body: { blockedByTaskIds: [t.id] } }, { field: 'blockedByTaskIds' });
    await expectRejectedUnchanged(desk, { method: 'PUT', path, body: { blockedByTaskIds: ['tsk_nope'] } }, { field: 'blockedByTaskIds' });
    // B0 waits on B1; B1 waiting on Main would close Main -> B0 -> B1 -> Main
    await api('PUT', `/tasks/${others[0]}/blockers`, { blockedByTaskIds: [others[1]] });
    await expectRejectedUnchanged(desk, { method: 'PUT', path: `/api/v1/tasks/${others[1]}/blockers`, body: { blockedByTaskIds: [t.id] } }, { field: 'blockedByTaskIds' });
    // duplicates fold: 2 entries naming one task
    expect((await api('PUT', path.replace('/api/v1', ''), { blockedByTaskIds: [others[2], others[2]] })).body.blockedByTaskIds).toEqual([others[2]]);
  });

  it('emits task.unblocked once, when the last unfinished blocker moves to done', async () => {
    const main = await createTask(desk, { title: 'Publish' });
    const a = await createTask(desk, { title: 'A' });
    const b = await createTask(desk, { title: 'B' });
    const other = await createTask(desk, { title: 'Other' });
    await api('PUT', `/tasks/${main.id}/blockers`, { blockedByTaskIds: [a.id, b.id] });
    await api('PUT', `/tasks/${other.id}/blockers`, { blockedByTaskIds: [a.id] });
    await api('PATCH', `/tasks/${a.id}`, { status: 'done' });
    // A done: Other is free (its only blocker), Publish still waits on B
    expect((await events('task.unblocked')).map((e) => JSON.parse(e.payload).data)).toEqual([{ taskId: other.id, title: 'Other', lastBlockerTaskId: a.id }]);
    expect((await api('GET', `/tasks/${main.id}`)).body.blocked).toBe(true);
    await api('PATCH', `/tasks/${b.id}`, { status: 'in_progress' });
    expect(await events('task.unblocked')).toHaveLength(1);
    await api('PATCH', `/tasks/${b.id}`, { status: 'done' });
    const unblocked = (await events('task.unblocked')).map((e) => JSON.parse(e.payload).data);
    expect(unblocked).toEqual([
      { taskId: other.id, title: 'Other', lastBlockerTaskId: a.id },
      { taskId: main.id, title: 'Publish', lastBlockerTaskId: b.id },
    ]);
    expect((await api('GET', `/tasks/${main.id}`)).body.blocked).toBe(false);
    expect(await activityOf('task.unblocked')).toHaveLength(2);
    // done again (no move) emits nothing more
    await api('PATCH', `/tasks/${b.id}`, { status: 'done' });
    expect(await events('task.unblocked')).toHaveLength(2);
  });
});

describe('POST /tasks/bulk', () => {
  it('deletes, sets priority, tags and untags under the bulk policy', async () => {
    const a = await createTask(desk, { title: 'A', tags: ['x'], priority: 'low' });
    const b = await createTask(desk, { title: 'B', priority: 'high' });
    const pr = await api('POST', '/tasks/bulk', { action: 'priority', taskIds: [a.id, b.id, 'tsk_nope'], priority: 'high' });
    expect(pr.body).toEqual({ action: 'priority', affected: 1, changed: [a.id], unchanged: [b.id], skipped: [], notFound: ['tsk_nope'] });
    // The activity log says it in words, not enum spellings.
    const logged = await desk.services.db.selectFrom('activity').select('detail').where('kind', '=', 'task.priority').where('entityId', '=', a.id).execute();
    expect(logged.map((r) => r.detail)).toEqual(['Priority of A: Low → High']);
    const tag = await api('POST', '/tasks/bulk', { action: 'tag', taskIds: [a.id, b.id], tag: 'x' });
    expect(tag.body).toMatchObject({ affected: 1, changed: [b.id], unchanged: [a.id] });
    const untag = await api('POST', '/tasks/bulk', { action: 'untag', taskIds: [a.id], tag: 'x' });
    expect(untag.body.changed).toEqual([a.id]);
    const del = await api('POST', '/tasks/bulk', { action: 'delete', taskIds: [a.id, 'tsk_nope'] });
    expect(del.body).toMatchObject({ affected: 1, changed: [a.id], notFound: ['tsk_nope'] });
    expect((await api('GET', `/tasks/${a.id}`)).status).toBe(404);
    expect((await events('task.deleted')).map((e) => JSON.parse(e.payload).data.taskId)).toEqual([a.id]);
    expect((await api('POST', '/tasks/bulk', { action: 'delete', taskIds: ['tsk_nope'] })).body.affected).toBe(0);
  });

  it('takes 1-50 ids; 51, none, a missing priority or tag are rejected unchanged; a full task is skipped', async () => {
    const t = await createTask(desk, { tags: ids(10, 't') });
    expect((await api('POST', '/tasks/bulk', { action: 'priority', taskIds: [t.id, ...ids(49)], priority: 'low' })).status).toBe(200);
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/tasks/bulk', body: { action: 'priority', taskIds: [t.id, ...ids(50)], priority: 'low' } }, { field: 'taskIds' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/tasks/bulk', body: { action: 'delete', taskIds: [] } }, { field: 'taskIds' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/tasks/bulk', body: { action: 'priority', taskIds: [t.id] } }, { field: 'priority' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/tasks/bulk', body: { action: 'tag', taskIds: [t.id] } }, { field: 'tag' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/tasks/bulk', body: { action: 'archive', taskIds: [t.id] } }, { field: 'action' });
    expect((await api('POST', '/tasks/bulk', { action: 'tag', taskIds: [t.id], tag: 'eleventh' })).body).toMatchObject({ affected: 0, skipped: [t.id] });
  });
});

describe('notes', () => {
  it('posts notes of 1-600 characters, lists them newest first with a cursor', async () => {
    await addMember(desk, 'usr_ann', 'Ann');
    const t = await createTask(desk);
    const first = await api('POST', `/tasks/${t.id}/notes`, { text: 'a'.repeat(600) });
    expect(first.status).toBe(201);
    expect(first.body.note).toMatchObject({ taskId: t.id, text: 'a'.repeat(600) });
    expect(typeof first.body.note.authorUserId).toBe('string');
    later();
    await api('POST', `/tasks/${t.id}/notes`, { text: 'second', asUserId: 'usr_ann' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: `/api/v1/tasks/${t.id}/notes`, body: { text: 'a'.repeat(601) } }, { field: 'text' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: `/api/v1/tasks/${t.id}/notes`, body: { text: '' } }, { field: 'text' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: `/api/v1/tasks/${t.id}/notes`, body: { text: 'x', asUserId: 'usr_ghost' } }, { field: 'asUserId' });
    const page = await api('GET', `/tasks/${t.id}/notes?limit=1`);
    expect(page.body.notes.map((n: { text: string; authorName: string }) => [n.text, n.authorName])).toEqual([['second', 'Ann']]);
    const next = await api('GET', `/tasks/${t.id}/notes?limit=1&cursor=${page.body.nextCursor}`);
    expect(next.body.notes[0].text).toBe('a'.repeat(600));
    expect(next.body.nextCursor).toBeNull();
    expect((await api('GET', `/tasks/${t.id}`)).body.notesCount).toBe(2);
    expect(await events('task.note_added')).toHaveLength(2);
  });

  it('a note on a needs_input task moves it to queued (activity and event); other statuses stay', async () => {
    const t = await createTask(desk);
    await api('PATCH', `/tasks/${t.id}`, { status: 'needs_input' });
    const res = await api('POST', `/tasks/${t.id}/notes`, { text: 'Use the formal tone' });
    expect(res.body.task.status).toBe('queued');
    const moves = (await events('task.status_changed')).map((e) => JSON.parse(e.payload).data);
    expect(moves[moves.length - 1]).toMatchObject({ from: 'needs_input', to: 'queued', cause: 'note' });
    await api('PATCH', `/tasks/${t.id}`, { status: 'in_progress' });
    expect((await api('POST', `/tasks/${t.id}/notes`, { text: 'more' })).body.task.status).toBe('in_progress');
    expect((await api('POST', '/tasks/tsk_nope/notes', { text: 'x' })).status).toBe(404);
  });
});
