import { beforeEach, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../core/clock';
import type { TestDesk } from '../../testing/desk';
import { insertArtifactRow } from '../../testing/fixtures/artifacts';
import { createSignal } from '../../testing/fixtures/signals';
import { createTask } from '../../testing/fixtures/tasks';
import { insertMemoryRow } from '../../testing/fixtures/memory';
import { useTestDesk } from '../../testing/use-test-desk';

/** API tests of a task's timeline, its originating signals and its source memory. */

const shared = useTestDesk();
let desk: TestDesk;
beforeEach(() => {
  desk = shared.desk;
});

const api = (method: string, p: string, body?: unknown) => desk.api(method, `/api/v1${p}`, body);
const later = () => desk.clock.advance(MINUTE_MS);

describe('GET /tasks/{id}/timeline', () => {
  it('merges creation, work log, notes and activity newest first, each once, paged with a cursor', async () => {
    const t = await createTask(desk, { title: 'Launch' });
    later();
    await desk.services.db.insertInto('taskWorkLog').values({ id: 'twl_1', taskId: t.id, entry: 'Cycle 1: drafted outline', createdAt: desk.clock.now().toISOString() }).execute();
    later();
    await api('POST', `/tasks/${t.id}/notes`, { text: 'Shorter please' });
    later();
    await api('PATCH', `/tasks/${t.id}`, { status: 'done' });
    const res = await api('GET', `/tasks/${t.id}/timeline`);
    expect(res.status).toBe(200);
    expect(res.body.entries.map((e: { type: string; text: string }) => [e.type, e.text])).toEqual([
      ['activity', 'Launch: Queued → Done'],
      ['note', 'Shorter please'],
      ['work_log', 'Cycle 1: drafted outline'],
      ['created', 'Task created: Launch'],
    ]);
    expect(res.body.entries[0].activityKind).toBe('task.status_changed');
    const p1 = await api('GET', `/tasks/${t.id}/timeline?limit=3`);
    expect(p1.body.entries).toHaveLength(3);
    const p2 = await api('GET', `/tasks/${t.id}/timeline?limit=3&cursor=${p1.body.nextCursor}`);
    expect(p2.body.entries.map((e: { type: string }) => e.type)).toEqual(['created']);
    expect(p2.body.nextCursor).toBeNull();
  });

  it('limit 1-200 (default 60); unknown task 404', async () => {
    const t = await createTask(desk);
    for (let i = 0; i < 61; i++) await desk.services.db.insertInto('taskWorkLog').values({ id: `twl_${String(i).padStart(3, '0')}`, taskId: t.id, entry: `e${i}`, createdAt: desk.clock.now().toISOString() }).execute();
    expect((await api('GET', `/tasks/${t.id}/timeline`)).body.entries).toHaveLength(60);
    expect((await api('GET', `/tasks/${t.id}/timeline?limit=200`)).body.entries).toHaveLength(62);
    expect((await api('GET', `/tasks/${t.id}/timeline?limit=201`)).status).toBe(422);
    expect((await api('GET', `/tasks/${t.id}/timeline?limit=0`)).status).toBe(422);
    expect((await api('GET', '/tasks/tsk_nope/timeline')).status).toBe(404);
  });
});

describe('GET /tasks/{id}/outputs', () => {
  it("lists the task's outputs newest first, every version, superseded ones saying so; other tasks' outputs are not in it", async () => {
    const t = await createTask(desk);
    const other = await createTask(desk);
    expect((await api('GET', `/tasks/${t.id}/outputs`)).body).toEqual({ taskId: t.id, outputs: [], total: 0 });
    const v1 = await insertArtifactRow(desk, { taskId: t.id, title: 'Reply to the reviewer', kind: 'email' });
    later();
    const v2 = await insertArtifactRow(desk, { taskId: t.id, title: 'Reply to the reviewer', kind: 'email', version: 2, parentArtifactId: v1, authorKind: 'member' });
    await desk.services.db.updateTable('artifacts').set({ supersededAt: desk.clock.now().toISOString(), supersededById: v2 }).where('id', '=', v1).execute();
    await insertArtifactRow(desk, { taskId: other.id });
    const res = await api('GET', `/tasks/${t.id}/outputs`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    expect(res.body.outputs).toEqual([
      { id: v2, title: 'Reply to the reviewer', kind: 'email', status: 'ready', version: 2, authorKind: 'member', supersededAt: null, createdAt: desk.clock.now().toISOString() },
      expect.objectContaining({ id: v1, version: 1, authorKind: 'engine', supersededAt: desk.clock.now().toISOString() }),
    ]);
    expect((await api('GET', '/tasks/tsk_nope/outputs')).status).toBe(404);
  });
});

describe('GET /tasks/{id}/sources and /source-memory', () => {
  it('lists the originating signals; deleted ones are reported missing', async () => {
    const s1 = await createSignal(desk, { title: 'Review: 2 stars' });
    const t = await createTask(desk);
    expect((await api('GET', `/tasks/${t.id}/sources`)).body).toEqual({ taskId: t.id, signals: [], missingSignalIds: [] });
    await desk.services.db.updateTable('tasks').set({ sourceSignalIds: JSON.stringify([s1.id, 'sig_gone']), sourceMemoryIds: '["mem_1"]' }).where('id', '=', t.id).execute();
    const res = await api('GET', `/tasks/${t.id}/sources`);
    expect(res.body.signals.map((s: { id: string; title: string }) => [s.id, s.title])).toEqual([[s1.id, 'Review: 2 stars']]);
    expect(res.body.missingSignalIds).toEqual(['sig_gone']);
    expect((await api('GET', `/tasks/${t.id}/source-memory`)).body).toEqual({ taskId: t.id, memory: [], memoryIds: ['mem_1'], missingMemoryIds: ['mem_1'] });
    expect((await api('GET', '/tasks/tsk_nope/sources')).status).toBe(404);
    expect((await api('GET', '/tasks/tsk_nope/source-memory')).status).toBe(404);
  });

  it('source-memory lists the pulled entries in order, archived ones included, deleted ones missing', async () => {
    const a = await insertMemoryRow(desk, { title: 'Tone: plain words', tags: ['style'] });
    const b = await insertMemoryRow(desk, { title: 'Old office hours', archivedAt: desk.clock.now().toISOString() });
    const t = await createTask(desk);
    await desk.services.db.updateTable('tasks').set({ sourceMemoryIds: JSON.stringify([b, 'mem_gone', a]) }).where('id', '=', t.id).execute();
    const res = await api('GET', `/tasks/${t.id}/source-memory`);
    expect(res.status).toBe(200);
    expect(res.body.memory.map((m: { id: string; title: string; tags: string[]; archivedAt: string | null }) => [m.id, m.title, m.tags, m.archivedAt !== null])).toEqual([
      [b, 'Old office hours', [], true],
      [a, 'Tone: plain words', ['style'], false],
    ]);
    expect(res.body.memoryIds).toEqual([b, 'mem_gone', a]);
    expect(res.body.missingMemoryIds).toEqual(['mem_gone']);
  });
});
