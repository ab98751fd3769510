import { describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../core/clock';
import { encodeCursor } from '../../core/lists';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { insertArtifactChain, insertArtifactRow } from '../../testing/fixtures/artifacts';
import { createSignal } from '../../testing/fixtures/signals';
import { insertTaskRow } from '../../testing/fixtures/tasks';
import { addMember } from '../../testing/fixtures/workspace';
import { useTestDesk } from '../../testing/use-test-desk';

const shared = useTestDesk();

async function insertMemoryRow(id: string, title: string) {
  const { desk } = shared;
  const now = desk.clock.now().toISOString();
  await desk.services.db
    .insertInto('memory')
    .values({ id, kind: 'fact', title, content: `${title}: the detail.`, importance: 5, createdAt: now, updatedAt: now })
    .execute();
}

describe('GET /artifacts/{id}', () => {
  it('answers one output with its content, task title, tags, version and waiting time from the approval policy', async () => {
    const { desk } = shared;
    const taskId = await insertTaskRow(desk, { title: 'Answer the pricing thread' });
    const id = await insertArtifactRow(desk, { taskId, title: 'Pricing reply', content: '# Reply\n\n- point', tags: ['pricing', 'growth'], pinned: true });
    desk.clock.advance(23 * HOUR_MS + 59 * 60_000);

    const fresh = await desk.api('GET', `/api/v1/artifacts/${id}`);
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({
      id,
      taskId,
      taskTitle: 'Answer the pricing thread',
      runId: null,
      kind: 'report',
      title: 'Pricing reply',
      content: '# Reply\n\n- point',
      status: 'ready',
      version: 1,
      parentArtifactId: null,
      pinned: true,
      tags: ['growth', 'pricing'],
      reactions: [],
      decidedAt: null,
      approvalAgeHours: 23.98,
      approvalAttention: 'fresh',
      reviewOwner: null,
    });

    // default policy: watch from 24 h, overdue from 72 h (inclusive)
    desk.clock.advance(60_000);
    expect((await desk.api('GET', `/api/v1/artifacts/${id}`)).body).toMatchObject({ approvalAgeHours: 24, approvalAttention: 'watch' });
    desk.clock.advance(48 * HOUR_MS);
    expect((await desk.api('GET', `/api/v1/artifacts/${id}`)).body).toMatchObject({ approvalAgeHours: 72, approvalAttention: 'overdue' });

    // a stricter policy relabels the same wait
    expect((await desk.api('PATCH', '/api/v1/workspace/approval-policy', { watchHours: 100, overdueHours: 200 })).status).toBe(200);
    expect((await desk.api('GET', `/api/v1/artifacts/${id}`)).body.approvalAttention).toBe('fresh');
  });

  it('leaves waiting time out (null) once an output is decided', async () => {
    const { desk } = shared;
    const id = await insertArtifactRow(desk, { status: 'approved', decidedAt: desk.clock.now().toISOString() });
    expect((await desk.api('GET', `/api/v1/artifacts/${id}`)).body).toMatchObject({ status: 'approved', approvalAgeHours: null, approvalAttention: null });
  });

  it('404s an unknown output on every read and on a reaction, and the reaction changes nothing', async () => {
    const { desk } = shared;
    for (const path of ['', '/sources', '/versions']) {
      const res = await desk.api('GET', `/api/v1/artifacts/art_missing${path}`);
      expect(res.status, path).toBe(404);
      expect(res.body.error).toBe('artifact_not_found');
    }
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/artifacts/art_missing/reaction', body: { emoji: '👍' } }, { status: 404, error: 'artifact_not_found' });
  });
});

describe('GET /artifacts', () => {
  it('lists ready outputs oldest first by default, decided ones newest first, without content, and pages with the cursor', async () => {
    const { desk } = shared;
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      ids.push(await insertArtifactRow(desk, i % 2 === 0 ? {} : { status: 'archived', decidedAt: desk.clock.now().toISOString() }));
      desk.clock.advance(HOUR_MS);
    }
    const first = await desk.api('GET', '/api/v1/artifacts?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.artifacts.map((a: { id: string }) => a.id)).toEqual([ids[0], ids[2]]);
    expect(first.body.artifacts[0]).not.toHaveProperty('content');
    const second = await desk.api('GET', `/api/v1/artifacts?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toMatchObject({ artifacts: [{ id: ids[4] }, { id: ids[6] }], nextCursor: null });

    const archived = await desk.api('GET', '/api/v1/artifacts?status=archived');
    expect(archived.body.artifacts.map((a: { id: string }) => a.id)).toEqual([ids[5], ids[3], ids[1]]);
  });

  it('rejects a bad status, limit or cursor naming the field', async () => {
    const { desk } = shared;
    await expectRejectedUnchanged(desk, { method: 'GET', path: '/api/v1/artifacts?status=waiting' }, { field: 'status' });
    await expectRejectedUnchanged(desk, { method: 'GET', path: '/api/v1/artifacts?limit=101' }, { field: 'limit' });
    await expectRejectedUnchanged(desk, { method: 'GET', path: '/api/v1/artifacts?limit=0' }, { field: 'limit' });
    await expectRejectedUnchanged(desk, { method: 'GET', path: `/api/v1/artifacts?cursor=${encodeCursor([1, 2])}` }, { field: 'cursor' });
    await expectRejectedUnchanged(desk, { method: 'GET', path: '/api/v1/artifacts?asUserId=usr_nobody' }, { field: 'asUserId' });
  });
});

describe('GET /artifacts/{id}/sources', () => {
  it('answers the signals and memory the cycle saw, in its order, with deleted ones listed as missing ids', async () => {
    const { desk } = shared;
    const kept = await createSignal(desk, { title: 'Churn uptick' });
    const gone = await createSignal(desk, { title: 'Deleted later' });
    const other = await createSignal(desk, { title: 'Second', sourceUrl: undefined });
    await insertMemoryRow('mem_a', 'Customers prefer annual plans');
    const id = await insertArtifactRow(desk, { sourceSignalIds: [other.id, gone.id, kept.id], sourceMemoryIds: ['mem_gone', 'mem_a'] });
    expect((await desk.api('POST', '/api/v1/signals/bulk', { action: 'delete', signalIds: [gone.id] })).status).toBe(200);

    const res = await desk.api('GET', `/api/v1/artifacts/${id}/sources`);
    expect(res.status).toBe(200);
    expect(res.body.artifactId).toBe(id);
    expect(res.body.signals.map((s: { id: string }) => s.id)).toEqual([other.id, kept.id]);
    expect(res.body.signals[1]).toMatchObject({ title: 'Churn uptick', kind: 'news', priority: 'high', sourceUrl: 'https://example.com/post', sourceLabel: null });
    expect(res.body.missingSignalIds).toEqual([gone.id]);
    expect(res.body.memory).toEqual([
      expect.objectContaining({ id: 'mem_a', kind: 'fact', title: 'Customers prefer annual plans', pinned: false, archivedAt: null }),
    ]);
    expect(res.body.missingMemoryIds).toEqual(['mem_gone']);
  });

  it('answers empty lists for an output made without inputs', async () => {
    const { desk } = shared;
    const id = await insertArtifactRow(desk);
    expect((await desk.api('GET', `/api/v1/artifacts/${id}/sources`)).body).toEqual({ artifactId: id, signals: [], memory: [], missingSignalIds: [], missingMemoryIds: [] });
  });
});

describe('GET /artifacts/{id}/versions', () => {
  const versionsOf = (body: { versions: { version: number }[] }) => body.versions.map((v) => v.version);

  it('walks a 14-version chain back at most 12 hops from the newest, newest first, and says it was truncated', async () => {
    const { desk } = shared;
    const ids = await insertArtifactChain(desk, 14);
    const res = await desk.api('GET', `/api/v1/artifacts/${ids[13]}/versions`);
    expect(res.status).toBe(200);
    expect(versionsOf(res.body)).toEqual([14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
    expect(res.body.truncated).toBe(true);
    expect(res.body.versions.filter((v: { current: boolean }) => v.current).map((v: { id: string }) => v.id)).toEqual([ids[13]]);
    expect(res.body.versions[0]).toMatchObject({ id: ids[13], title: 'Version 14', status: 'ready', parentArtifactId: ids[12] });
  });

  it('walks forward at most 12 hops from the first version, and sees the whole chain from its middle', async () => {
    const { desk } = shared;
    const ids = await insertArtifactChain(desk, 14);
    const fromFirst = await desk.api('GET', `/api/v1/artifacts/${ids[0]}/versions`);
    expect(versionsOf(fromFirst.body)).toEqual([13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(fromFirst.body.truncated).toBe(true);

    const fromMiddle = await desk.api('GET', `/api/v1/artifacts/${ids[6]}/versions`);
    expect(versionsOf(fromMiddle.body)).toEqual([14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(fromMiddle.body.truncated).toBe(false);
  });

  it('answers a single version, not truncated, for an output never re-worked', async () => {
    const { desk } = shared;
    const id = await insertArtifactRow(desk);
    const res = await desk.api('GET', `/api/v1/artifacts/${id}/versions`);
    expect(res.body).toMatchObject({ artifactId: id, truncated: false, versions: [{ id, version: 1, current: true }] });
  });

  it('a chain of exactly 13 versions (12 hops) is whole from either end', async () => {
    const { desk } = shared;
    const ids = await insertArtifactChain(desk, 13);
    for (const id of [ids[0], ids[12]]) {
      const res = await desk.api('GET', `/api/v1/artifacts/${id}/versions`);
      expect(res.body.versions).toHaveLength(13);
      expect(res.body.truncated).toBe(false);
    }
  });
});

describe('POST /artifacts/{id}/reaction', () => {
  it('toggles a reaction per member, logs it, and the read shows it', async () => {
    const { desk } = shared;
    await addMember(desk, 'usr_ana', 'Ana');
    const id = await insertArtifactRow(desk, { title: 'Weekly brief' });

    const added = await desk.api('POST', `/api/v1/artifacts/${id}/reaction`, { emoji: '🎯' });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ artifactId: id, emoji: '🎯', reacted: true, reactions: [{ emoji: '🎯', count: 1, reacted: true }] });
    const ana = await desk.api('POST', `/api/v1/artifacts/${id}/reaction`, { emoji: '🎯', asUserId: 'usr_ana' });
    expect(ana.body.reactions).toEqual([{ emoji: '🎯', count: 2, userIds: [expect.any(String), 'usr_ana'], reacted: true }]);

    const read = await desk.api('GET', `/api/v1/artifacts/${id}?asUserId=usr_ana`);
    expect(read.body.reactions).toMatchObject([{ emoji: '🎯', count: 2, reacted: true }]);

    const removed = await desk.api('POST', `/api/v1/artifacts/${id}/reaction`, { emoji: '🎯' });
    expect(removed.body).toMatchObject({ reacted: false, reactions: [{ emoji: '🎯', count: 1, userIds: ['usr_ana'], reacted: false }] });

    const kinds = await desk.services.db.selectFrom('activity').select(['kind', 'detail']).where('entityId', '=', id).orderBy('id').execute();
    expect(kinds).toEqual([
      { kind: 'artifact.reaction_added', detail: 'Added 🎯 on output: Weekly brief' },
      { kind: 'artifact.reaction_added', detail: 'Added 🎯 on output: Weekly brief' },
      { kind: 'artifact.reaction_removed', detail: 'Removed 🎯 on output: Weekly brief' },
    ]);
  });

  it('rejects an emoji outside the set and a non-member, changing nothing', async () => {
    const { desk } = shared;
    const id = await insertArtifactRow(desk);
    await expectRejectedUnchanged(desk, { method: 'POST', path: `/api/v1/artifacts/${id}/reaction`, body: { emoji: '🔥' } }, { field: 'emoji' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: `/api/v1/artifacts/${id}/reaction`, body: { emoji: '👍', asUserId: 'usr_nobody' } }, { field: 'asUserId' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: `/api/v1/artifacts/${id}/reaction`, body: {} }, { field: 'emoji' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: `/api/v1/artifacts/${id}/reaction`, body: { emoji: '👍', extra: 1 } });
  });
});
