import { beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, ManualClock } from '../../core/clock';
import { addDays, type Day } from '../../core/workspace-time';
import { useTestDatabase } from '../../testing/database';
import { dbFingerprint } from '../../testing/db-fingerprint';
import { addBaseline, addDailyCost, USD } from '../../testing/fixtures/cost-guard';
import { insertMemoryRow, insertTask } from '../../testing/fixtures/loop';
import type { EventEnvelope } from '../catalog/events';
import type { CostAlert } from './alerts';
import { CostGuardService } from './cost-guard-service';

/** The detector over simulated days: cost_daily rows written as the ledger would, the clock moved by hand. */

const t = useTestDatabase({ workspace: { plan: 'team', timezone: 'UTC' } });
let clock: ManualClock;
let guard: CostGuardService;
let alerts: CostAlert[];
const DAY1: Day = '2026-03-10';

beforeEach(() => {
  clock = t.clock;
  alerts = [];
  guard = new CostGuardService({ db: t.db, clock, onAlert: (a) => alerts.push(...a) });
});

const ctx = () => ({ db: t.db, clock });
/** Noon UTC of `day`. */
const noonOf = (day: Day) => `${day}T12:00:00.000Z`;

async function events(name: string) {
  const rows = await t.db.selectFrom('outboxEvents').selectAll().where('event', '=', name).orderBy('id').execute();
  return rows.map((r) => (JSON.parse(r.payload) as EventEnvelope).data as unknown as Record<string, unknown>);
}

async function insertSource(id: string, label: string) {
  await t.db
    .insertInto('sources')
    .values({ id, type: 'rss', label, url: 'https://example.com/feed', notes: null, status: 'connected', pausedAt: null, pausedUntilAt: null, includeKeywords: '[]', excludeKeywords: '[]', consecutiveFailures: 0, createdAt: noonOf(DAY1), updatedAt: noonOf(DAY1) })
    .execute();
}

const watch = (dimension: string, key: string) =>
  t.db
    .selectFrom('costWatch')
    .selectAll()
    .where('dimension', '=', dimension as never)
    .where('key', '=', key)
    .executeTakeFirst();

describe('the spike rule through the detector', () => {
  it('raises a spike at 2x the 7-day average and 0.50 USD, not at 1.99x or 0.49 USD', async () => {
    const under = await insertTask(ctx(), { title: 'Under 2x' });
    const at2x = await insertTask(ctx(), { title: 'At 2x' });
    const small = await insertTask(ctx(), { title: 'Small' });
    const minimum = await insertTask(ctx(), { title: 'Minimum' });
    await addBaseline(t.db, 'task', under, DAY1, USD);
    await addDailyCost(t.db, 'task', under, DAY1, 1.99 * USD);
    await addBaseline(t.db, 'task', at2x, DAY1, USD);
    await addDailyCost(t.db, 'task', at2x, DAY1, 2 * USD);
    await addDailyCost(t.db, 'task', small, DAY1, 490_000);
    await addDailyCost(t.db, 'task', minimum, DAY1, 500_000);

    const raised = await guard.detectSpikes();
    expect(raised.map((a) => [a.kind, a.label]).sort()).toEqual([
      ['cost_spike', 'At 2x'],
      ['cost_spike', 'Minimum'],
    ]);
    expect(alerts).toEqual(raised);
    const spikes = await events('task.cost_spike');
    expect(spikes.find((e) => e.key === at2x)).toEqual({
      dimension: 'task',
      key: at2x,
      label: 'At 2x',
      day: DAY1,
      todayUsd: 2,
      todayCents: 200,
      baselineUsd: 1,
      baselineCents: 100,
      spikeRatio: 2,
      consecutiveSpikeDays: 1,
      paused: false,
    });
    expect(spikes.find((e) => e.key === minimum)).toMatchObject({ todayUsd: 0.5, baselineUsd: 0, spikeRatio: null });
    const activity = await t.db.selectFrom('activity').select(['kind', 'entityType', 'entityId']).where('kind', '=', 'cost.spike').execute();
    expect(activity.map((a) => a.entityId).sort()).toEqual([at2x, minimum].sort());
  });

  it('watches task, source, tag, assignee and memory with one rule, skipping buckets and exempt entries', async () => {
    await insertSource('src_a', 'Acme feed');
    await t.db.insertInto('users').values({ id: 'usr_ada', name: 'Ada', email: null, role: 'editor', createdAt: noonOf(DAY1) }).execute();
    await insertTask(ctx(), { title: 'Launch post' }, ['launch']);
    const live = await insertMemoryRow(ctx(), { title: 'Live', content: 'x' });
    const pinned = await insertMemoryRow(ctx(), { title: 'Pinned', content: 'x', pinned: 1 });
    const important = await insertMemoryRow(ctx(), { title: 'Important', content: 'x', importance: 9 });
    const archived = await insertMemoryRow(ctx(), { title: 'Archived', content: 'x', archivedAt: noonOf(DAY1) });
    for (const [dimension, key] of [
      ['source', 'src_a'],
      ['source', 'src_gone'],
      ['tag', 'launch'],
      ['tag', 'untagged'],
      ['assignee', 'usr_ada'],
      ['assignee', '__unassigned__'],
      ['memory', live],
      ['memory', pinned],
      ['memory', important],
      ['memory', archived],
    ] as const) {
      await addDailyCost(t.db, dimension, key, DAY1, USD);
    }
    await guard.detectSpikes();
    expect((await events('source.cost_spike')).map((e) => e.label)).toEqual(['Acme feed']);
    expect((await events('tag.cost_spike')).map((e) => e.key)).toEqual(['launch']);
    expect((await events('assignee.cost_spike')).map((e) => e.label)).toEqual(['Ada']);
    expect((await events('memory.cost_spike')).map((e) => e.key)).toEqual([live]);
  });

  it('raises a spike once per entity per day, however often it runs, and again the next spiking day', async () => {
    const task = await insertTask(ctx(), { title: 'Costly' });
    await addDailyCost(t.db, 'task', task, DAY1, USD);
    await guard.detectSpikes();
    await addDailyCost(t.db, 'task', task, DAY1, USD);
    clock.advance(HOUR_MS);
    await guard.detectSpikes();
    // A look that changes nothing writes nothing (other jobs, such as the backup, meet no write).
    const before = await dbFingerprint(t.db);
    await guard.detectSpikes();
    expect(await dbFingerprint(t.db)).toEqual(before);
    expect(await events('task.cost_spike')).toHaveLength(1);

    clock.set(noonOf(addDays(DAY1, 1)));
    await addDailyCost(t.db, 'task', task, addDays(DAY1, 1), 3 * USD);
    await guard.detectSpikes();
    const spikes = await events('task.cost_spike');
    expect(spikes.map((e) => [e.day, e.consecutiveSpikeDays])).toEqual([
      [DAY1, 1],
      [addDays(DAY1, 1), 2],
    ]);
  });
});

describe('chronic streaks', () => {
  /** 2 USD a day is a spike against a growing baseline on the first four days of spend. */
  async function spendOn(day: Day, dimension: 'tag' | 'source' | 'memory', key: string, usd = 2) {
    clock.set(noonOf(day));
    await addDailyCost(t.db, dimension, key, day, usd * USD);
    return guard.detectSpikes();
  }

  it('warns at 3 consecutive days, once a day while the streak lasts, and a day without a spike resets it', async () => {
    await insertTask(ctx(), { title: 'Launch' }, ['launch']);
    await spendOn(DAY1, 'tag', 'launch');
    await spendOn(addDays(DAY1, 1), 'tag', 'launch');
    expect(await events('tag.chronic_warning')).toEqual([]);
    const third = await spendOn(addDays(DAY1, 2), 'tag', 'launch');
    expect(third.map((a) => a.kind)).toEqual(['cost_spike', 'chronic_warning']);
    expect(await events('tag.chronic_warning')).toEqual([expect.objectContaining({ key: 'launch', day: addDays(DAY1, 2), consecutiveSpikeDays: 3, thresholdDays: 3 })]);
    await guard.detectSpikes();
    expect(await events('tag.chronic_warning')).toHaveLength(1);
    await spendOn(addDays(DAY1, 3), 'tag', 'launch');
    expect((await events('tag.chronic_warning')).map((e) => e.consecutiveSpikeDays)).toEqual([3, 4]);
    expect((await guard.chronicList('tag', {})).chronic.map((r) => [r.key, r.consecutiveSpikeDays])).toEqual([['launch', 4]]);

    // Day 5: no spend. The streak still holds during day 5 (it may still spike), and ends with it.
    clock.set(noonOf(addDays(DAY1, 4)));
    await guard.detectSpikes();
    expect((await guard.chronicList('tag', {})).chronic).toHaveLength(1);
    clock.set(noonOf(addDays(DAY1, 5)));
    await guard.detectSpikes();
    expect((await guard.chronicList('tag', {})).chronic).toEqual([]);
    expect(await watch('tag', 'launch')).toMatchObject({ consecutiveSpikeDays: 0, lastSpikeDay: addDays(DAY1, 3) });
    await spendOn(addDays(DAY1, 5), 'tag', 'launch', 50);
    expect(await watch('tag', 'launch')).toMatchObject({ consecutiveSpikeDays: 1, lastSpikeDay: addDays(DAY1, 5) });
  });

  it('uses the workspace chronic threshold for sources', async () => {
    await t.db.updateTable('workspace').set({ sourceChronicThresholdDays: 2 }).execute();
    await insertSource('src_a', 'Acme feed');
    await spendOn(DAY1, 'source', 'src_a');
    await spendOn(addDays(DAY1, 1), 'source', 'src_a');
    expect(await events('source.chronic_warning')).toEqual([expect.objectContaining({ key: 'src_a', consecutiveSpikeDays: 2, thresholdDays: 2 })]);
    const list = await guard.chronicList('source', {});
    expect(list.chronic[0]).toMatchObject({ key: 'src_a', thresholdDays: 2, todayUsd: 2, spikeRatio: 7 });
  });

  it('catches up the days a stopped desk missed, once each', async () => {
    await insertTask(ctx(), { title: 'Launch' }, ['launch']);
    clock.set(`${DAY1}T08:00:00.000Z`);
    await guard.detectSpikes();
    // Spend after the last look of day 1 and on day 2, while the desk was off.
    await addDailyCost(t.db, 'tag', 'launch', DAY1, 2 * USD);
    await addDailyCost(t.db, 'tag', 'launch', addDays(DAY1, 1), 2 * USD);
    clock.set(`${addDays(DAY1, 2)}T08:00:00.000Z`);
    const caughtUp = await guard.detectSpikes();
    expect(caughtUp.map((a) => [a.kind, a.day, a.consecutiveSpikeDays])).toEqual([
      ['cost_spike', DAY1, 1],
      ['cost_spike', addDays(DAY1, 1), 2],
    ]);
    expect(await guard.detectSpikes()).toEqual([]);
    expect(await watch('tag', 'launch')).toMatchObject({ consecutiveSpikeDays: 2, lastSpikeDay: addDays(DAY1, 1) });
    // Today spikes too: the third day in a row, counted once.
    await addDailyCost(t.db, 'tag', 'launch', addDays(DAY1, 2), 2 * USD);
    await guard.detectSpikes();
    await guard.detectSpikes();
    expect((await events('tag.chronic_warning')).map((e) => e.consecutiveSpikeDays)).toEqual([3]);
    expect((await events('tag.cost_spike')).map((e) => e.day)).toEqual([DAY1, addDays(DAY1, 1), addDays(DAY1, 2)]);
  });
});

describe('acknowledgements', () => {
  it('a same-day ack mutes the spike until the workspace midnight (America/Los_Angeles), not longer', async () => {
    await t.db.updateTable('workspace').set({ timezone: 'America/Los_Angeles' }).execute();
    const task = await insertTask(ctx(), { title: 'Costly' });
    // 2026-03-10T12:00Z is 05:00 on March 10 in Los Angeles (PDT, UTC-7).
    const ack = await guard.ackOne('task', 'spike', task);
    expect(ack).toEqual({ key: task, ackedAt: '2026-03-10T12:00:00.000Z', expiresAt: '2026-03-11T07:00:00.000Z' });
    await addDailyCost(t.db, 'task', task, DAY1, USD);
    clock.set('2026-03-11T06:59:59.999Z');
    expect(await guard.detectSpikes()).toEqual([]);
    expect((await guard.spikeList('task', {})).spikes[0]).toMatchObject({ key: task, ackedAt: '2026-03-10T12:00:00.000Z', ackExpiresAt: '2026-03-11T07:00:00.000Z' });
    // Midnight in Los Angeles: a new workspace day, the ack is over.
    clock.set('2026-03-11T07:00:00.000Z');
    await addDailyCost(t.db, 'task', task, '2026-03-11', 3 * USD);
    const raised = await guard.detectSpikes();
    expect(raised.map((a) => [a.key, a.day])).toEqual([[task, '2026-03-11']]);
    expect((await guard.spikeList('task', {})).spikes[0]).toMatchObject({ key: task, ackedAt: null });
  });

  it('a chronic ack mutes chronic warnings for 7 days; the streak keeps counting', async () => {
    await insertTask(ctx(), { title: 'Launch' }, ['launch']);
    // Doubling spend spikes every day against any baseline it built.
    const spend = async (i: number) => {
      const day = addDays(DAY1, i);
      clock.set(noonOf(day));
      await addDailyCost(t.db, 'tag', 'launch', day, 2 ** i * USD);
      await guard.detectSpikes();
    };
    for (let i = 0; i < 3; i += 1) await spend(i);
    expect(await events('tag.chronic_warning')).toHaveLength(1);
    const ack = await guard.ackOne('tag', 'chronic', 'launch');
    expect(ack.expiresAt).toBe(new Date(new Date(ack.ackedAt).getTime() + 7 * DAY_MS).toISOString());
    for (let i = 3; i < 9; i += 1) await spend(i);
    expect(await events('tag.chronic_warning')).toHaveLength(1);
    expect((await guard.chronicList('tag', {})).chronic[0]).toMatchObject({ consecutiveSpikeDays: 9, chronicAckedAt: ack.ackedAt });
    expect((await guard.chronicAcks()).map((r) => [r.dimension, r.key])).toEqual([['tag', 'launch']]);
    // Day 10 (exactly 7 days after the ack): the ack has run out.
    await spend(9);
    expect((await events('tag.chronic_warning')).map((e) => e.consecutiveSpikeDays)).toEqual([3, 10]);
    expect(await guard.chronicAcks()).toEqual([]);
  });

  it('spike alerts are skipped while acked, chronic ones still count the day', async () => {
    await insertTask(ctx(), { title: 'Launch' }, ['launch']);
    for (let i = 0; i < 3; i += 1) {
      const day = addDays(DAY1, i);
      clock.set(noonOf(day));
      await guard.ackOne('tag', 'spike', 'launch');
      await addDailyCost(t.db, 'tag', 'launch', day, 2 * USD);
      await guard.detectSpikes();
    }
    expect(await events('tag.cost_spike')).toEqual([]);
    expect(await events('tag.cost_spike_acked')).toHaveLength(3);
    expect((await events('tag.chronic_warning')).map((e) => e.consecutiveSpikeDays)).toEqual([3]);
  });
});

describe('the scheduled look', () => {
  it('runs the detector when a cycle finished since the last look or the day turned, else does nothing', async () => {
    const task = await insertTask(ctx(), { title: 'Costly' });
    await guard.detectIfChanged();
    await addDailyCost(t.db, 'task', task, DAY1, USD);
    expect(await guard.detectIfChanged()).toEqual([]);
    await t.db
      .insertInto('runs')
      .values({ id: 'run_1', trigger: 'schedule', status: 'completed', engine: 'local', model: 'gpt-4o-mini', startedAt: noonOf(DAY1), finishedAt: noonOf(DAY1), durationMs: 1, engineMs: 1 })
      .execute();
    expect((await guard.detectIfChanged()).map((a) => a.key)).toEqual([task]);
    expect(await guard.detectIfChanged()).toEqual([]);
    clock.set(noonOf(addDays(DAY1, 1)));
    await addDailyCost(t.db, 'task', task, addDays(DAY1, 1), 5 * USD);
    expect((await guard.detectIfChanged()).map((a) => a.day)).toEqual([addDays(DAY1, 1)]);
  });
});
