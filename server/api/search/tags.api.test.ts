import { beforeEach, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../core/clock';
import type { TestDesk } from '../../testing/desk';
import { dbFingerprint } from '../../testing/db-fingerprint';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { insertArtifactRow } from '../../testing/fixtures/artifacts';
import { insertMemoryRow } from '../../testing/fixtures/memory';
import { insertTaskRow } from '../../testing/fixtures/tasks';
import { setFocusTags } from '../../testing/fixtures/workspace';
import { useTestDesk } from '../../testing/use-test-desk';

/** API tests of GET /workspace/tag-search and POST /workspace/tags/rename. */

const shared = useTestDesk();
let desk: TestDesk;
beforeEach(() => {
  desk = shared.desk;
});

const api = (method: string, p: string, body?: unknown) => desk.api(method, `/api/v1${p}`, body);
const db = () => desk.services.db;
const later = () => desk.clock.advance(MINUTE_MS);

async function taggedTask(tags: string[], title?: string): Promise<string> {
  const id = await insertTaskRow(desk, title ? { title } : {});
  if (tags.length) await db().insertInto('taskTags').values(tags.map((tag) => ({ taskId: id, tag }))).execute();
  return id;
}
const tagsOf = async (table: 'taskTags' | 'artifactTags' | 'memoryTags', column: 'taskId' | 'artifactId' | 'memoryId', id: string) =>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- one helper over three tag tables
  ((await (db() as any).selectFrom(table).select('tag').where(column, '=', id).orderBy('tag').execute()) as { tag: string }[]).map((r) => r.tag);
const tagSearch = async (query: string) => {
  const res = await api('GET', `/workspace/tag-search?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

describe('GET /workspace/tag-search', () => {
  it('lists tasks, outputs and memory carrying exactly the tag, newest first, with counts and a cursor', async () => {
    const task = await taggedTask(['pricing', 'q3'], 'Reprice plans');
    later();
    const artifact = await insertArtifactRow(desk, { title: 'Pricing memo', tags: ['pricing'] });
    later();
    const memory = await insertMemoryRow(desk, { title: 'Price floor', tags: ['pricing'], archivedAt: desk.clock.now().toISOString() });
    later();
    await taggedTask(['pricing-old']);

    const first = await tagSearch('tag=pricing');
    expect(first).toMatchObject({ tag: 'pricing', counts: { tasks: 1, artifacts: 1, memory: 1 }, nextCursor: null });
    expect(first.items).toEqual([
      { kind: 'memory', id: memory, title: 'Price floor', status: 'archived', createdAt: expect.any(String), route: `/memory/${memory}` },
      { kind: 'artifact', id: artifact, title: 'Pricing memo', status: 'ready', createdAt: expect.any(String), route: `/outputs/${artifact}` },
      { kind: 'task', id: task, title: 'Reprice plans', status: 'queued', createdAt: expect.any(String), route: `/tasks/${task}` },
    ]);

    const page1 = await tagSearch('tag=pricing&limit=2');
    expect(page1.items.map((i: { id: string }) => i.id)).toEqual([memory, artifact]);
    const page2 = await tagSearch(`tag=pricing&limit=2&cursor=${encodeURIComponent(page1.nextCursor)}`);
    expect(page2.items.map((i: { id: string }) => i.id)).toEqual([task]);
    expect(page2.nextCursor).toBeNull();
    expect((await tagSearch('tag=%20pricing%20')).items).toHaveLength(3);
    expect((await tagSearch('tag=nothing-here')).items).toEqual([]);
  });

  it('default 25 per page, at most 100; tag and cursor are checked', async () => {
    for (let i = 0; i < 27; i++) await taggedTask(['bulk']);
    expect((await tagSearch('tag=bulk')).items).toHaveLength(25);
    expect((await tagSearch('tag=bulk&limit=100')).items).toHaveLength(27);
    const reject = (query: string, field: string) => expectRejectedUnchanged(desk, { method: 'GET', path: `/api/v1/workspace/tag-search?${query}` }, { field });
    await reject('tag=Not%20A%20Tag', 'tag');
    await reject('tag=', 'tag');
    await reject(`tag=${'a'.repeat(41)}`, 'tag');
    await reject('tag=bulk&limit=101', 'limit');
    await reject('tag=bulk&cursor=garbage', 'cursor');
  });
});

describe('POST /workspace/tags/rename', () => {
  it('renames across tasks, outputs, memory and focus tags in one change: one activity row, one event, and the index follows', async () => {
    const task = await taggedTask(['growth', 'q3']);
    const artifact = await insertArtifactRow(desk, { tags: ['growth'] });
    const memory = await insertMemoryRow(desk, { tags: ['growth'] });
    await setFocusTags(desk, ['q3', 'growth']);
    const shiftsBefore = await db().selectFrom('focusShifts').select('id').execute();

    const res = await api('POST', '/workspace/tags/rename', { from: 'growth', to: 'expansion' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      from: 'growth',
      to: 'expansion',
      tasks: { renamed: 1, merged: 0 },
      artifacts: { renamed: 1, merged: 0 },
      memory: { renamed: 1, merged: 0 },
      focusTags: true,
      focusTagsNow: ['q3', 'expansion'],
      changed: true,
    });
    expect(await tagsOf('taskTags', 'taskId', task)).toEqual(['expansion', 'q3']);
    expect(await tagsOf('artifactTags', 'artifactId', artifact)).toEqual(['expansion']);
    expect(await tagsOf('memoryTags', 'memoryId', memory)).toEqual(['expansion']);
    expect((await api('GET', '/workspace/focus-tags')).body).toMatchObject({ tags: ['q3', 'expansion'] });
    expect(await db().selectFrom('focusShifts').select('id').execute()).toHaveLength(shiftsBefore.length + 1);

    const activity = await db().selectFrom('activity').selectAll().where('kind', '=', 'tag.renamed').execute();
    expect(activity.map((a) => a.detail)).toEqual(['Tag growth renamed to expansion: 1 task, 1 output, 1 memory entry, the focus tags']);
    const events = await db().selectFrom('outboxEvents').select('payload').where('event', '=', 'tag.renamed').execute();
    expect(events.map((e) => JSON.parse(e.payload).data)).toEqual([
      { from: 'growth', to: 'expansion', tasks: { renamed: 1, merged: 0 }, artifacts: { renamed: 1, merged: 0 }, memory: { renamed: 1, merged: 0 }, focusTags: true },
    ]);

    const search = async (q: string) => (await api('GET', `/search?q=${q}&kind=task,artifact,memory`)).body.hits.map((h: { id: string }) => h.id).sort();
    expect(await search('growth')).toEqual([]);
    expect(await search('expansion')).toEqual([artifact, memory, task].sort());
  });

  it('merges: a row carrying both keeps the new tag once', async () => {
    const both = await taggedTask(['old-name', 'new-name']);
    const onlyOld = await taggedTask(['old-name']);
    const memory = await insertMemoryRow(desk, { tags: ['old-name', 'new-name'] });
    await setFocusTags(desk, ['old-name', 'new-name']);
    const res = await api('POST', '/workspace/tags/rename', { from: 'old-name', to: 'new-name' });
    expect(res.body).toMatchObject({ tasks: { renamed: 1, merged: 1 }, artifacts: { renamed: 0, merged: 0 }, memory: { renamed: 0, merged: 1 }, focusTagsNow: ['new-name'] });
    expect(await tagsOf('taskTags', 'taskId', both)).toEqual(['new-name']);
    expect(await tagsOf('taskTags', 'taskId', onlyOld)).toEqual(['new-name']);
    expect(await tagsOf('memoryTags', 'memoryId', memory)).toEqual(['new-name']);
    const [row] = await db().selectFrom('activity').select('detail').where('kind', '=', 'tag.renamed').execute();
    expect(row.detail).toBe('Tag old-name renamed to new-name: 2 tasks, 0 outputs, 1 memory entry, the focus tags (2 merged)');
  });

  it('a tag nobody carries changes nothing: changed false, no activity, no event', async () => {
    await taggedTask(['kept']);
    const before = await dbFingerprint(db());
    const res = await api('POST', '/workspace/tags/rename', { from: 'absent', to: 'kept' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ changed: false, focusTags: false, tasks: { renamed: 0, merged: 0 }, memory: { renamed: 0, merged: 0 } });
    expect(await dbFingerprint(db())).toEqual(before);
  });

  it('422 naming from or to for tags the areas refuse, and for the same tag twice', async () => {
    await taggedTask(['ok']);
    const reject = (body: unknown, field: string) => expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/workspace/tags/rename', body }, { field });
    await reject({ from: 'Bad Tag', to: 'ok-two' }, 'from');
    await reject({ from: 'ok', to: 'UPPER' }, 'to');
    await reject({ from: 'ok', to: `${'a'.repeat(41)}` }, 'to');
    await reject({ from: 'ok', to: ' ok ' }, 'to');
    await reject({ to: 'ok' }, 'from');
  });
});
