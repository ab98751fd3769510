import { describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../core/clock';
import type { EventEnvelope } from '../../domain/catalog/events';
import { addBaseline, addDailyCost, USD } from '../../testing/fixtures/cost-guard';
import { insertMemoryRow } from '../../testing/fixtures/memory';
import { insertSourceRow } from '../../testing/fixtures/sources';
import { insertTaskRow } from '../../testing/fixtures/tasks';
import { addMember } from '../../testing/fixtures/workspace';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { useTestDesk } from '../../testing/use-test-desk';

/** The cost-guard endpoints through HTTP: spike and chronic lists, acks single and bulk, chronic acks. */

const shared = useTestDesk();
const DAY = '2026-03-10';
const db = () => shared.desk.services.db;
const api = (method: string, path: string, body?: unknown) => shared.desk.api(method, path, body);

async function events(name: string) {
  const rows = await db().selectFrom('outboxEvents').selectAll().where('event', '=', name).orderBy('id').execute();
  return rows.map((r) => (JSON.parse(r.payload) as EventEnvelope).data as unknown as Record<string, unknown>);
}

describe('spike lists', () => {
  it('GET /tasks/cost-spikes: open tasks over 2x and 0.50 USD today, highest spend first, paged with a cursor', async () => {
    const desk = shared.desk;
    const ids: string[] = [];
    for (const [title, usd] of [
      ['Two', 2],
      ['Three', 3],
      ['One', 1],
    ] as const) {
      const id = await insertTaskRow(desk, { title });
      ids.push(id);
      await addBaseline(db(), 'task', id, DAY, 0.25 * USD);
      await addDailyCost(db(), 'task', id, DAY, usd * USD);
    }
    const done = await insertTaskRow(desk, { title: 'Done', status: 'done' });
    await addDailyCost(db(), 'task', done, DAY, 9 * USD);
    const quiet = await insertTaskRow(desk, { title: 'Steady' });
    await addBaseline(db(), 'task', quiet, DAY, 3 * USD);
    await addDailyCost(db(), 'task', quiet, DAY, 3 * USD);

    const first = await api('GET', '/api/v1/tasks/cost-spikes?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.spikes).toEqual([
      {
        key: ids[1],
        label: 'Three',
        todayUsd: 3,
        todayCents: 300,
        baselineUsd: 0.25,
        baselineCents: 25,
        spikeRatio: 12,
        consecutiveSpikeDays: 1,
        ackedAt: null,
        ackExpiresAt: null,
        paused: false,
      },
      expect.objectContaining({ key: ids[0], label: 'Two' }),
    ]);
    const second = await api('GET', `/api/v1/tasks/cost-spikes?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ spikes: [expect.objectContaining({ label: 'One' })], nextCursor: null });
    expect((await api('GET', '/api/v1/tasks/cost-spikes')).body.spikes).toHaveLength(3);
    await expectRejectedUnchanged(desk, { method: 'GET', path: '/api/v1/tasks/cost-spikes?limit=101' }, { field: 'limit' });
    await expectRejectedUnchanged(desk, { method: 'GET', path: '/api/v1/tasks/cost-spikes?cursor=nope' }, { field: 'cursor' });
  });

  it('acked rows stay listed after the unacked ones, with their ack until the workspace midnight', async () => {
    const desk = shared.desk;
    const a = await insertTaskRow(desk, { title: 'Big' });
    const b = await insertTaskRow(desk, { title: 'Small' });
    await addDailyCost(db(), 'task', a, DAY, 5 * USD);
    await addDailyCost(db(), 'task', b, DAY, USD);
    const ack = await api('POST', `/api/v1/tasks/${a}/cost-spike-ack`);
    expect(ack.body).toEqual({ key: a, ackedAt: '2026-03-10T12:00:00.000Z', expiresAt: '2026-03-11T00:00:00.000Z' });
    const list = (await api('GET', '/api/v1/tasks/cost-spikes')).body.spikes;
    expect(list.map((r: { label: string; ackedAt: string | null }) => [r.label, r.ackedAt])).toEqual([
      ['Small', null],
      ['Big', '2026-03-10T12:00:00.000Z'],
    ]);
  });

  it('sources, tags (untagged excluded), assignees (unassigned excluded) and memory (pinned, importance 9+ excluded)', async () => {
    const desk = shared.desk;
    await insertSourceRow(desk, { id: 'src_a', label: 'Acme feed' });
    await addMember(desk, 'usr_ada', 'Ada');
    const task = await insertTaskRow(desk, { title: 'Tagged' });
    await db().insertInto('taskTags').values({ taskId: task, tag: 'launch' }).execute();
    const live = await insertMemoryRow(desk, { title: 'Live' });
    const pinned = await insertMemoryRow(desk, { title: 'Pinned', pinned: 1 });
    const rated = await insertMemoryRow(desk, { title: 'Rated', importance: 9 });
    for (const [d, k] of [
      ['source', 'src_a'],
      ['tag', 'launch'],
      ['tag', 'untagged'],
      ['assignee', 'usr_ada'],
      ['assignee', '__unassigned__'],
      ['memory', live],
      ['memory', pinned],
      ['memory', rated],
    ] as const) {
      await addDailyCost(db(), d, k, DAY, USD);
    }
    const keys = async (path: string) => (await api('GET', path)).body.spikes.map((r: { key: string }) => r.key);
    expect(await keys('/api/v1/sources/cost-spikes')).toEqual(['src_a']);
    expect(await keys('/api/v1/cost/by-tag/spikes')).toEqual(['launch']);
    expect(await keys('/api/v1/cost/by-assignee/spikes')).toEqual(['usr_ada']);
    const memory = (await api('GET', '/api/v1/memory/cost-spikes')).body.spikes;
    expect(memory).toEqual([expect.objectContaining({ key: live, label: 'Live', costSpikeAckedAt: null, ackedAt: null })]);

    await api('POST', `/api/v1/memory/${live}/cost-spike-ack`);
    const after = (await api('GET', '/api/v1/memory/cost-spikes')).body.spikes[0];
    expect(after).toMatchObject({ costSpikeAckedAt: '2026-03-10T12:00:00.000Z', ackedAt: '2026-03-10T12:00:00.000Z' });
    expect((await api('GET', `/api/v1/memory/${live}`)).body).toMatchObject({ costSpikeAckedAt: '2026-03-10T12:00:00.000Z', chronicAckedAt: null, consecutiveSpikeDays: 0 });
    desk.clock.advance(12 * HOUR_MS);
    expect((await api('GET', `/api/v1/memory/${live}`)).body.costSpikeAckedAt).toBeNull();
  });
});

describe('acks', () => {
  it('single acks answer 404 for what names nothing and change nothing', async () => {
    const desk = shared.desk;
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/tasks/tsk_nope/cost-spike-ack' }, { status: 404, error: 'task_not_found' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/sources/src_nope/cost-spike-ack' }, { status: 404, error: 'source_not_found' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/sources/src_nope/chronic-ack' }, { status: 404, error: 'source_not_found' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/memory/mem_nope/cost-spike-ack' }, { status: 404, error: 'memory_not_found' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/memory/mem_nope/chronic-ack' }, { status: 404, error: 'memory_not_found' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/cost/by-assignee/usr_nope/cost-spike-ack' }, { status: 404, error: 'member_not_found' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/cost/by-assignee/__unassigned__/chronic-ack' }, { status: 404, error: 'member_not_found' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/cost/by-tag/nothing/cost-spike-ack' }, { status: 404, error: 'not_found' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/cost/by-tag/untagged/chronic-ack' }, { status: 404, error: 'not_found' });
  });

  it('bulk acks: unknown ids in notFound, one event per call (memory and the rest), an activity row per entity', async () => {
    const desk = shared.desk;
    const m1 = await insertMemoryRow(desk, { title: 'One' });
    const m2 = await insertMemoryRow(desk, { title: 'Two' });
    const spike = await api('POST', '/api/v1/memory/cost-spike-ack/bulk', { memoryIds: [m1, 'mem_nope', m2, m1] });
    expect(spike.status).toBe(200);
    expect(spike.body).toEqual({ acked: [m1, m2], affected: 2, notFound: ['mem_nope'], ackedAt: '2026-03-10T12:00:00.000Z', expiresAt: '2026-03-11T00:00:00.000Z' });
    expect(await events('memory.cost_spike_acked')).toEqual([{ dimension: 'memory', keys: [m1, m2], ackedAt: '2026-03-10T12:00:00.000Z', expiresAt: '2026-03-11T00:00:00.000Z' }]);
    const chronic = await api('POST', '/api/v1/memory/chronic-ack/bulk', { memoryIds: [m1, m2] });
    expect(chronic.body).toMatchObject({ affected: 2, expiresAt: '2026-03-17T12:00:00.000Z' });
    expect(await events('memory.chronic_warning_acked')).toHaveLength(1);
    const rows = await db().selectFrom('activity').select(['kind', 'entityId']).where('kind', 'in', ['cost.spike_acked', 'cost.chronic_acked']).orderBy('id').execute();
    expect(rows).toEqual([
      { kind: 'cost.spike_acked', entityId: m1 },
      { kind: 'cost.spike_acked', entityId: m2 },
      { kind: 'cost.chronic_acked', entityId: m1 },
      { kind: 'cost.chronic_acked', entityId: m2 },
    ]);

    const none = await api('POST', '/api/v1/tasks/cost-spike-ack/bulk', { taskIds: ['tsk_nope'] });
    expect(none.body).toMatchObject({ acked: [], affected: 0, notFound: ['tsk_nope'] });
    expect(await events('task.cost_spike_acked')).toEqual([]);

    await addMember(desk, 'usr_ada', 'Ada');
    const tag = await insertTaskRow(desk, { title: 'Tagged' });
    await db().insertInto('taskTags').values({ taskId: tag, tag: 'launch' }).execute();
    await insertSourceRow(desk, { id: 'src_a' });
    for (const [path, body, event] of [
      ['/api/v1/cost/by-assignee/cost-spike-ack/bulk', { assigneeUserIds: ['usr_ada'] }, 'assignee.cost_spike_acked'],
      ['/api/v1/cost/by-assignee/chronic-ack/bulk', { assigneeUserIds: ['usr_ada'] }, 'assignee.chronic_warning_acked'],
      ['/api/v1/cost/by-tag/cost-spike-ack/bulk', { tags: ['launch'] }, 'tag.cost_spike_acked'],
      ['/api/v1/cost/by-tag/chronic-ack/bulk', { tags: ['launch'] }, 'tag.chronic_warning_acked'],
      ['/api/v1/sources/cost-spike-ack/bulk', { sourceIds: ['src_a'] }, 'source.cost_spike_acked'],
      ['/api/v1/sources/chronic-ack/bulk', { sourceIds: ['src_a'] }, 'source.chronic_warning_acked'],
      ['/api/v1/tasks/cost-spike-ack/bulk', { taskIds: [tag] }, 'task.cost_spike_acked'],
    ] as const) {
      const res = await api('POST', path, body);
      expect(res.status, path).toBe(200);
      expect(res.body.affected, path).toBe(1);
      expect(await events(event), path).toHaveLength(1);
    }
    const acks = (await api('GET', '/api/v1/cost/chronic-acks')).body.acks;
    expect(acks.map((a: { dimension: string; key: string }) => [a.dimension, a.key]).sort()).toEqual([
      ['assignee', 'usr_ada'],
      ['source', 'src_a'],
      ['tag', 'launch'],
    ]);
    desk.clock.advance(7 * 24 * HOUR_MS);
    expect((await api('GET', '/api/v1/cost/chronic-acks')).body.acks).toEqual([]);
  });

  it('a bulk call takes 1-50 ids, else 422 naming the field and nothing changes', async () => {
    const desk = shared.desk;
    const ids = Array.from({ length: 51 }, (_, i) => `mem_${i}`);
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/memory/cost-spike-ack/bulk', body: { memoryIds: ids } }, { field: 'memoryIds' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/memory/chronic-ack/bulk', body: { memoryIds: [] } }, { field: 'memoryIds' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/tasks/cost-spike-ack/bulk', body: { taskIds: ids } }, { field: 'taskIds' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/cost/by-tag/cost-spike-ack/bulk', body: { tags: ids } }, { field: 'tags' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/cost/by-assignee/chronic-ack/bulk', body: { assigneeUserIds: ids } }, { field: 'assigneeUserIds' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/sources/chronic-ack/bulk', body: { sourceIds: ids } }, { field: 'sourceIds' });
  });
});

describe('chronic lists', () => {
  /** Days of doubling spend (a spike every day) for each entity, from March 10, the detector run each day. */
  async function streak(entities: ['tag' | 'source' | 'assignee' | 'memory', string][], days: number, from = 0) {
    const desk = shared.desk;
    for (let i = from; i < days; i += 1) {
      const day = `2026-03-${String(10 + i).padStart(2, '0')}`;
      desk.clock.set(`${day}T12:00:00.000Z`);
      for (const [dimension, key] of entities) await addDailyCost(db(), dimension, key, day, 2 ** i * USD);
      await desk.services.costGuard.detectSpikes();
    }
  }

  it('GET /memory/chronic-warnings lists streaks of 3 days and hides chronic-acked entries', async () => {
    const desk = shared.desk;
    const m = await insertMemoryRow(desk, { title: 'Hot' });
    await streak([['memory', m]], 2);
    expect((await api('GET', '/api/v1/memory/chronic-warnings')).body.chronic).toEqual([]);
    await streak([['memory', m]], 3, 2);
    const list = (await api('GET', '/api/v1/memory/chronic-warnings')).body;
    expect(list.chronic).toEqual([expect.objectContaining({ key: m, label: 'Hot', consecutiveSpikeDays: 3, thresholdDays: 3, chronicAckedAt: null })]);
    expect((await api('GET', `/api/v1/memory/${m}`)).body.consecutiveSpikeDays).toBe(3);
    await api('POST', `/api/v1/memory/${m}/chronic-ack`);
    expect((await api('GET', '/api/v1/memory/chronic-warnings')).body.chronic).toEqual([]);
  });

  it('GET /cost/by-tag, by-assignee and by-source chronic-spikes keep acked rows with their ack; sources carry today figures', async () => {
    const desk = shared.desk;
    const task = await insertTaskRow(desk, { title: 'Tagged' });
    await db().insertInto('taskTags').values({ taskId: task, tag: 'launch' }).execute();
    await addMember(desk, 'usr_ada', 'Ada');
    await insertSourceRow(desk, { id: 'src_a', label: 'Acme feed' });
    await streak(
      [
        ['tag', 'launch'],
        ['assignee', 'usr_ada'],
        ['source', 'src_a'],
      ],
      3,
    );
    expect((await api('GET', '/api/v1/cost/by-tag/chronic-spikes')).body.chronic.map((r: { key: string }) => r.key)).toEqual(['launch']);
    expect((await api('GET', '/api/v1/cost/by-assignee/chronic-spikes')).body.chronic.map((r: { label: string }) => r.label)).toEqual(['Ada']);
    const src = (await api('GET', '/api/v1/cost/by-source/chronic-spikes')).body.chronic[0];
    expect(src).toMatchObject({ key: 'src_a', consecutiveSpikeDays: 3, todayUsd: 4, baselineUsd: 0.428571, spikeRatio: 9.33 });
    await api('POST', '/api/v1/cost/by-tag/launch/chronic-ack');
    const tags = (await api('GET', '/api/v1/cost/by-tag/chronic-spikes')).body.chronic;
    expect(tags[0]).toMatchObject({ key: 'launch', chronicAckedAt: desk.clock.now().toISOString() });
    // The next day without spend: the streak still holds (today may spike) but today's figures are null.
    desk.clock.advance(24 * HOUR_MS);
    expect((await api('GET', '/api/v1/cost/by-source/chronic-spikes')).body.chronic[0]).toMatchObject({ key: 'src_a', todayUsd: null, spikeRatio: null });
  });
});
