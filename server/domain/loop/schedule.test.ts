import type { Updateable } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import type { WorkspaceTable } from '../../../db/schema';
import { HOUR_MS, MINUTE_MS, ManualClock } from '../../core/clock';
import { useTestDatabase } from '../../testing/database';
import { insertTask, scriptedEngine } from '../../testing/fixtures/loop';
import type { EventEnvelope } from '../catalog/events';
import { MICRO_USD_PER_CENT, WORKSPACE_KEY } from '../cost/rules';
import { IDLE_RECHECK_MS } from './rules';
import { LoopService } from './loop-service';
import { nextCycleAt } from './schedule';

const t = useTestDatabase({ workspace: { plan: 'free', timezone: 'UTC' } });
let clock: ManualClock;
let loop: LoopService;
beforeEach(async () => {
  clock = t.clock;
  loop = new LoopService({ db: t.db, clock, engineFor: () => scriptedEngine(() => ({})) });
  // Work for every cycle: a task without an output always has new input (the script drafts none).
  await insertTask({ db: t.db, clock }, { title: 'Always to do' });
});

const setWorkspace = (changes: Updateable<WorkspaceTable>) => t.db.updateTable('workspace').set(changes).execute();
const advance = (ms: number) => clock.set(new Date(clock.now().getTime() + ms));
async function events(name: string) {
  const rows = await t.db.selectFrom('outboxEvents').selectAll().where('event', '=', name).orderBy('id').execute();
  return rows.map((r) => (JSON.parse(r.payload) as EventEnvelope).data as unknown as Record<string, unknown>);
}
const spend = (day: string, costMicroUsd: number) =>
  t.db
    .insertInto('costDaily')
    .values({ dimension: 'workspace', key: WORKSPACE_KEY, day, inputTokens: 0, outputTokens: 0, costMicroUsd })
    .onConflict((oc) => oc.columns(['dimension', 'key', 'day']).doUpdateSet({ costMicroUsd }))
    .execute();

describe('scheduling', () => {
  it('runs once per effective interval, with the plan floor applied to the requested interval', async () => {
    await setWorkspace({ loopIntervalMinutes: 1 }); // free plan: floor 15 minutes
    expect((await loop.tick())?.trigger).toBe('schedule');
    advance(14 * MINUTE_MS);
    expect(await loop.tick()).toBeNull();
    advance(MINUTE_MS);
    expect((await loop.tick())?.status).toBe('completed');
    await setWorkspace({ plan: 'pro' }); // floor 5
    advance(5 * MINUTE_MS);
    expect((await loop.tick())?.status).toBe('completed');
    advance(4 * MINUTE_MS);
    expect(await loop.tick()).toBeNull();
  });

  it('a look with nothing to do writes nothing and looks again a minute later; new signals then start a cycle; Run now still runs', async () => {
    await t.db.updateTable('tasks').set({ status: 'done' }).execute();
    const before = await t.db.selectFrom('activity').select('id').execute();
    expect(await loop.tick()).toBeNull();
    expect(await t.db.selectFrom('runs').select('id').execute()).toEqual([]);
    expect(await t.db.selectFrom('activity').select('id').execute()).toEqual(before);
    expect((await loop.runtime()).nextCycleAt).toBe(new Date(clock.now().getTime() + IDLE_RECHECK_MS).toISOString());
    await t.db.insertInto('signals').values({ id: 'sig_new', kind: 'news', priority: 'normal', title: 'New', detail: 'd', sourceUrl: null, sourceId: null, pinned: 0, createdAt: clock.now().toISOString() }).execute();
    advance(IDLE_RECHECK_MS - 1000);
    expect(await loop.tick()).toBeNull();
    advance(1000);
    expect((await loop.tick())?.read.signalIds).toEqual(['sig_new']);
    // The interval now runs from that cycle: the next one waits 30 minutes even with new work.
    await t.db.insertInto('signals').values({ id: 'sig_next', kind: 'news', priority: 'normal', title: 'Next', detail: 'd', sourceUrl: null, sourceId: null, pinned: 0, createdAt: clock.now().toISOString() }).execute();
    advance(29 * MINUTE_MS);
    expect(await loop.tick()).toBeNull();
    expect((await loop.runNow()).status).toBe('completed');
  });

  it('a manual cycle restarts the interval', async () => {
    await loop.runNow();
    advance(29 * MINUTE_MS); // default interval 30
    expect(await loop.tick()).toBeNull();
    advance(MINUTE_MS);
    expect(await loop.tick()).not.toBeNull();
  });

  it('does not run while paused, off, or during a scheduled pause', async () => {
    await setWorkspace({ loopState: 'paused' });
    expect(await loop.tick()).toBeNull();
    await setWorkspace({ loopState: 'off' });
    expect(await loop.tick()).toBeNull();
    const until = new Date(clock.now().getTime() + 2 * HOUR_MS).toISOString();
    await setWorkspace({ loopState: 'on', pauseUntilAt: until });
    expect(await loop.tick()).toBeNull();
    expect((await loop.runtime()).nextCycleAt).toBe(until);
    advance(2 * HOUR_MS);
    expect(await loop.tick()).not.toBeNull();
    expect(await t.db.selectFrom('runs').select('id').execute()).toHaveLength(1);
  });

  it('tells the next cycle time and the phase', async () => {
    expect(await loop.runtime()).toMatchObject({ phase: 'idle', nextCycleAt: clock.now().toISOString() });
    const run = await loop.tick();
    expect((await loop.runtime()).nextCycleAt).toBe(new Date(new Date(run!.startedAt).getTime() + 30 * MINUTE_MS).toISOString());
    await setWorkspace({ loopState: 'off' });
    expect(await loop.runtime()).toMatchObject({ phase: 'off', nextCycleAt: null });
    await setWorkspace({ loopState: 'paused' });
    expect(await loop.runtime()).toMatchObject({ phase: 'paused', nextCycleAt: null });
  });

  it('at the cap the next cycle is not before the next workspace day', () => {
    const ws = { loopState: 'on' as const, pauseUntilAt: null, loopIntervalMinutes: 30, plan: 'free' as const, timezone: 'Europe/Paris' };
    expect(nextCycleAt(ws, '2026-03-10T12:00:00.000Z', new Date('2026-03-10T12:10:00.000Z'), true)).toBe('2026-03-10T23:00:00.000Z');
  });
});

describe('the daily cost cap', () => {
  it('runs just below the cap; at the cap records a skipped cycle and announces it once a day', async () => {
    await setWorkspace({ dailyCostCapUsdCents: 50 });
    await spend('2026-03-10', 50 * MICRO_USD_PER_CENT - 1);
    expect((await loop.tick())?.status).toBe('completed');
    await spend('2026-03-10', 50 * MICRO_USD_PER_CENT);
    advance(30 * MINUTE_MS);
    const skipped = await loop.tick();
    expect(skipped).toMatchObject({ status: 'skipped', trigger: 'schedule', skipReason: 'cost_cap_reached', inputTokens: 0 });
    expect(await events('cost.cap_reached')).toEqual([{ day: '2026-03-10', dailyCostCapUsdCents: 50, spentUsd: 0.5, runId: skipped!.id }]);
    expect(await loop.runtime()).toMatchObject({ phase: 'capped', capped: true });
    // Run now at the cap: 409 and nothing written
    const runsBefore = await t.db.selectFrom('runs').select('id').execute();
    await expect(loop.runNow()).rejects.toMatchObject({ status: 409, code: 'cost_cap_reached' });
    expect(await t.db.selectFrom('runs').select('id').execute()).toEqual(runsBefore);
    // still capped later the same day: another skipped record, no second announcement
    advance(30 * MINUTE_MS);
    expect((await loop.tick())?.status).toBe('skipped');
    expect(await events('cost.cap_reached')).toHaveLength(1);
    const kinds = (await t.db.selectFrom('activity').select('kind').where('kind', 'in', ['run.skipped', 'cost.cap_reached']).orderBy('id').execute()).map((a) => a.kind);
    expect(kinds).toEqual(['run.skipped', 'cost.cap_reached', 'run.skipped']);
    // the next workspace day: capped again (spend at the cap) and announced again
    clock.set(new Date('2026-03-11T00:00:30.000Z'));
    await spend('2026-03-11', 60 * MICRO_USD_PER_CENT);
    expect((await loop.tick())?.status).toBe('skipped');
    expect((await events('cost.cap_reached')).map((e) => e.day)).toEqual(['2026-03-10', '2026-03-11']);
    // a new day with nothing spent runs
    clock.set(new Date('2026-03-12T00:00:30.000Z'));
    expect((await loop.tick())?.status).toBe('completed');
  });

  it('the cap day is the workspace-timezone day', async () => {
    await setWorkspace({ timezone: 'America/New_York', dailyCostCapUsdCents: 10 });
    // 2026-03-10T02:00Z is still 2026-03-09 in New York
    clock.set(new Date('2026-03-10T02:00:00.000Z'));
    await spend('2026-03-10', 10 * MICRO_USD_PER_CENT);
    expect((await loop.tick())?.status).toBe('completed');
    await spend('2026-03-09', 10 * MICRO_USD_PER_CENT);
    advance(HOUR_MS); // 23:00 in New York: still the 9th
    expect((await loop.tick())?.status).toBe('skipped');
  });

  it('no cap: never skipped', async () => {
    await setWorkspace({ dailyCostCapUsdCents: null });
    await spend('2026-03-10', 10_000 * MICRO_USD_PER_CENT);
    expect((await loop.tick())?.status).toBe('completed');
  });
});
