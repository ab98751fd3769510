import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { DeskError } from '../../core/errors';
import { addDays, type Day } from '../../core/workspace-time';
import { costOf } from '../../engine/pricing';
import { GPT_4O_MINI } from '../../testing/fixtures/engine-input';
import { useTestDatabase } from '../../testing/database';
import { insertTask, scriptedEngine } from '../../testing/fixtures/loop';
import type { EventEnvelope } from '../catalog/events';
import { LoopService } from '../loop/loop-service';
import type { CostAlert } from './alerts';
import { CostGuardService } from './cost-guard-service';

/**
 * 60 simulated days of real cycles (the loop service with a scripted engine reporting usage) in a
 * non-UTC workspace across a DST change, with injected spike days: the cap check stops each day's
 * spend within one cycle's cost of the cap, and the detector, run after every cycle, raises each
 * spike the day it starts, once, and the chronic warning on the third day in a row.
 */

const TZ = 'Europe/Berlin';
const t = useTestDatabase({ workspace: { plan: 'free', timezone: TZ } });
const FIRST: Day = '2026-03-10';
const DAYS = 60;
const CYCLES_PER_DAY = 12;
const NORMAL_TOKENS = 66_667; // ~0.01 USD a cycle at gpt-4o-mini input prices
const SPIKE_TOKENS = 10 * NORMAL_TOKENS;
const SPIKE_DAYS = new Set([20, 21, 22, 45].map((i) => addDays(FIRST, i)));

async function events(name: string) {
  const rows = await t.db.selectFrom('outboxEvents').selectAll().where('event', '=', name).orderBy('id').execute();
  return rows.map((r) => ({ createdAt: r.createdAt, data: (JSON.parse(r.payload) as EventEnvelope).data as unknown as Record<string, unknown> }));
}

describe('60 days of cycles with injected spikes', () => {
  it('never spends past the daily cap by more than one cycle, and raises each spike the same day, once', { timeout: 240_000 }, async () => {
    const clock = t.clock;
    const cap = 50 * 10_000; // the free plan's seeded cap: 50 cents
    expect((await t.db.selectFrom('workspace').select('dailyCostCapUsdCents').executeTakeFirstOrThrow()).dailyCostCapUsdCents).toBe(50);
    const task = await insertTask({ db: t.db, clock }, { title: 'Ops digest', createdAt: '2026-03-01T00:00:00.000Z' }, ['ops']);
    let tokens = NORMAL_TOKENS;
    const engine = scriptedEngine(() => ({
      workLog: [{ taskRef: task, entry: 'Digest refreshed', consumedNoteIds: [] }],
      usage: { inputTokens: tokens, outputTokens: 0 },
      usageByTask: { [task]: { inputTokens: tokens, outputTokens: 0 } },
    }));
    const loop = new LoopService({ db: t.db, clock, engineFor: () => engine });
    const alerts: CostAlert[] = [];
    const guard = new CostGuardService({ db: t.db, clock, onAlert: (a) => alerts.push(...a) });
    const spikeCycle = costOf(GPT_4O_MINI, { inputTokens: SPIKE_TOKENS, outputTokens: 0 });
    expect(spikeCycle).toBeGreaterThan(0);

    let capped = 0;
    for (let i = 0; i < DAYS; i += 1) {
      const day = addDays(FIRST, i);
      tokens = SPIKE_DAYS.has(day) ? SPIKE_TOKENS : NORMAL_TOKENS;
      for (let k = 0; k < CYCLES_PER_DAY; k += 1) {
        clock.set(DateTime.fromISO(`${day}T00:30`, { zone: TZ }).plus({ hours: 2 * k }).toJSDate());
        try {
          await loop.runNow();
        } catch (err) {
          if (!(err instanceof DeskError && err.code === 'cost_cap_reached')) throw err;
          capped += 1;
        }
        // The post-cycle hook: the detector runs after every cycle.
        await guard.detectSpikes();
      }
    }

    const spend = await t.db.selectFrom('costDaily').select(['day', 'costMicroUsd']).where('dimension', '=', 'workspace').orderBy('day').execute();
    expect(spend).toHaveLength(DAYS);
    for (const { day, costMicroUsd } of spend) {
      expect(costMicroUsd, day).toBeLessThan(cap + spikeCycle);
      if (SPIKE_DAYS.has(day)) expect(costMicroUsd, day).toBeGreaterThanOrEqual(cap);
      else expect(costMicroUsd, day).toBeLessThan(cap);
    }
    expect(capped).toBeGreaterThan(0);

    // Task, tag and assignee buckets spike on exactly the injected days, each raised once that day.
    const taskSpikes = await events('task.cost_spike');
    expect(taskSpikes.map((e) => e.data.day)).toEqual([...SPIKE_DAYS]);
    for (const e of taskSpikes) {
      expect(DateTime.fromISO(e.createdAt, { zone: TZ }).toISODate()).toBe(e.data.day);
      expect(e.data.todayUsd as number).toBeGreaterThanOrEqual(0.5);
    }
    expect((await events('tag.cost_spike')).map((e) => e.data.day)).toEqual([...SPIKE_DAYS]);
    // `__unassigned__` names no member: never an assignee spike.
    expect(await events('assignee.cost_spike')).toEqual([]);
    // Three spike days in a row: one chronic warning for the tag, on the third.
    const chronic = await events('tag.chronic_warning');
    expect(chronic.map((e) => [e.data.day, e.data.consecutiveSpikeDays])).toEqual([[addDays(FIRST, 22), 3]]);
    expect(alerts.filter((a) => a.kind === 'cost_spike')).toHaveLength(8);
    // The streak ended with the first day without a spike.
    expect(await t.db.selectFrom('costWatch').select(['key', 'consecutiveSpikeDays', 'lastSpikeDay']).where('dimension', '=', 'tag').execute()).toEqual([
      { key: 'ops', consecutiveSpikeDays: 0, lastSpikeDay: addDays(FIRST, 45) },
    ]);
  });
});
