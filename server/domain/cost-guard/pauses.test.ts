import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../core/clock';
import { FEED_POLL_JOB } from '../../jobs/feed-poller';
import { fixture, startFeedServer, type FeedServer } from '../../testing/fakes/feed-server';
import { addDailyCost, USD } from '../../testing/fixtures/cost-guard';
import { createFeedSource } from '../../testing/fixtures/sources';
import { insertTaskRow } from '../../testing/fixtures/tasks';
import { useTestDesk } from '../../testing/use-test-desk';
import { gatherState } from '../loop/gather';
import { readWorkspace } from '../workspace/workspace-store';

/** The pause actions: the loop's ranking (the order a cycle hands its engine) and the feed poller, lifted by acks. */

const shared = useTestDesk();
const DAY = '2026-03-10';
let feeds: FeedServer;
let n = 0;

beforeAll(async () => {
  feeds = await startFeedServer();
});
afterAll(async () => {
  await feeds.close();
});

const db = () => shared.desk.services.db;
const guard = () => shared.desk.services.costGuard;
const setActions = (set: Partial<{ taskCostSpikeAction: 'pause' | 'none'; tagCostSpikeAction: 'pause' | 'none'; sourceCostSpikeAction: 'pause' | 'none'; sourceChronicSpikeAction: 'pause' | 'none' }>) =>
  db().updateTable('workspace').set(set).execute();
/** Titles in the order the next cycle would hand them to its engine. */
const cycleOrder = async () => (await gatherState(db(), await readWorkspace(db()))).tasks.map((t) => t.title);

describe('task and tag pauses: the loop ranks paused tasks last until acknowledged', () => {
  it('taskCostSpikeAction pause: a spiking task goes last, an ack lifts it at once, action none releases it', async () => {
    const desk = shared.desk;
    await setActions({ taskCostSpikeAction: 'pause' });
    const urgent = await insertTaskRow(desk, { title: 'Urgent', priority: 'urgent', createdAt: '2026-03-01T00:00:00.000Z' });
    await insertTaskRow(desk, { title: 'Normal', createdAt: '2026-03-02T00:00:00.000Z' });
    expect(await cycleOrder()).toEqual(['Urgent', 'Normal']);
    await addDailyCost(db(), 'task', urgent, DAY, USD);
    const [alert] = await guard().detectSpikes();
    expect(alert).toMatchObject({ kind: 'cost_spike', key: urgent, paused: true });
    expect(await cycleOrder()).toEqual(['Normal', 'Urgent']);
    expect((await guard().spikeList('task', {})).spikes[0]).toMatchObject({ key: urgent, paused: true, ackedAt: null });

    const ack = await desk.api('POST', `/api/v1/tasks/${urgent}/cost-spike-ack`);
    expect(ack.status).toBe(200);
    expect(await cycleOrder()).toEqual(['Urgent', 'Normal']);
    // Still spiking and acked today: the detector neither alerts nor pauses again.
    await addDailyCost(db(), 'task', urgent, DAY, USD);
    expect(await guard().detectSpikes()).toEqual([]);
    expect(await cycleOrder()).toEqual(['Urgent', 'Normal']);

    // A pause only acts while the action is `pause`.
    desk.clock.advance(24 * HOUR_MS);
    await addDailyCost(db(), 'task', urgent, '2026-03-11', 10 * USD);
    await guard().detectSpikes();
    expect(await cycleOrder()).toEqual(['Normal', 'Urgent']);
    await setActions({ taskCostSpikeAction: 'none' });
    expect(await cycleOrder()).toEqual(['Urgent', 'Normal']);
  });

  it('tagCostSpikeAction pause: every task carrying the spiking tag goes last until the tag is acknowledged', async () => {
    const desk = shared.desk;
    await setActions({ tagCostSpikeAction: 'pause' });
    const a = await insertTaskRow(desk, { title: 'Launch post', priority: 'urgent', createdAt: '2026-03-01T00:00:00.000Z' });
    const b = await insertTaskRow(desk, { title: 'Launch mail', priority: 'high', createdAt: '2026-03-01T01:00:00.000Z' });
    await insertTaskRow(desk, { title: 'Other', createdAt: '2026-03-02T00:00:00.000Z' });
    await db()
      .insertInto('taskTags')
      .values([
        { taskId: a, tag: 'launch' },
        { taskId: b, tag: 'launch' },
      ])
      .execute();
    await addDailyCost(db(), 'tag', 'launch', DAY, 2 * USD);
    await guard().detectSpikes();
    expect(await cycleOrder()).toEqual(['Other', 'Launch post', 'Launch mail']);
    expect((await desk.api('POST', '/api/v1/cost/by-tag/launch/cost-spike-ack')).status).toBe(200);
    expect(await cycleOrder()).toEqual(['Launch post', 'Launch mail', 'Other']);
  });
});

describe('source pauses: the feed poller skips a paused source until acknowledged', () => {
  async function feedSource() {
    const path = `/guard-feed-${++n}`;
    feeds.set(path, { body: fixture('rss.xml') });
    const src = await createFeedSource(shared.desk, feeds.url(path), { label: 'Acme news' });
    return { src, hits: () => feeds.requests.filter((r) => r.path === path).length };
  }
  const poll = () => shared.desk.services.scheduler.runNow(FEED_POLL_JOB);

  it('sourceCostSpikeAction pause: not polled while paused, polled again right after the ack', async () => {
    const desk = shared.desk;
    await setActions({ sourceCostSpikeAction: 'pause' });
    const { src, hits } = await feedSource();
    await poll();
    expect(hits()).toBe(1);
    await addDailyCost(db(), 'source', src.id, DAY, USD);
    const [alert] = await guard().detectSpikes();
    expect(alert).toMatchObject({ kind: 'cost_spike', dimension: 'source', key: src.id, paused: true });
    desk.clock.advance(HOUR_MS);
    await poll();
    expect(hits()).toBe(1);
    expect((await desk.api('POST', `/api/v1/sources/${src.id}/cost-spike-ack`)).status).toBe(200);
    await poll();
    expect(hits()).toBe(2);
  });

  it('sourceChronicSpikeAction pause: a chronic source stops polling until the chronic ack', async () => {
    const desk = shared.desk;
    await setActions({ sourceChronicSpikeAction: 'pause' });
    await db().updateTable('workspace').set({ sourceChronicThresholdDays: 2 }).execute();
    const { src, hits } = await feedSource();
    await addDailyCost(db(), 'source', src.id, DAY, 2 * USD);
    await guard().detectSpikes();
    desk.clock.advance(24 * HOUR_MS);
    await addDailyCost(db(), 'source', src.id, '2026-03-11', 2 * USD);
    const raised = await guard().detectSpikes();
    expect(raised.map((a) => [a.kind, a.paused])).toEqual([
      ['cost_spike', false],
      ['chronic_warning', true],
    ]);
    await poll();
    expect(hits()).toBe(0);
    // A same-day spike ack does not lift a chronic pause; the chronic ack does.
    await desk.api('POST', `/api/v1/sources/${src.id}/cost-spike-ack`);
    await poll();
    expect(hits()).toBe(0);
    expect((await desk.api('POST', `/api/v1/sources/${src.id}/chronic-ack`)).status).toBe(200);
    await poll();
    expect(hits()).toBe(1);
  });
});
