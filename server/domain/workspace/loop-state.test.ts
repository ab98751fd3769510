import { beforeEach, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../testing/database';
import { DAY_MS, HOUR_MS, ManualClock } from '../../core/clock';
import type { EventEnvelope } from '../catalog/events';
import { WorkspaceService } from './workspace-service';

const t = useTestDatabase({ workspace: { plan: 'free', timezone: 'UTC' } });
let clock: ManualClock;
let service: WorkspaceService;

beforeEach(() => {
  clock = t.clock;
  service = new WorkspaceService(t.db, clock);
});

/** The payloads of the queued events named `name`, oldest first. */
async function events(name: string) {
  const rows = await t.db.selectFrom('outboxEvents').selectAll().where('event', '=', name).orderBy('id').execute();
  return rows.map((r) => (JSON.parse(r.payload) as EventEnvelope).data);
}

const at = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();

describe('workspace.loop_state_changed', () => {
  it('is queued once per change of the loop state, by hand, by schedule and when the schedule ends', async () => {
    await service.setLoopState('off');
    await service.setLoopState('off'); // a repeat changes nothing and emits nothing
    const until = at(2 * HOUR_MS);
    await service.setPauseUntil(until);
    const later = at(3 * HOUR_MS);
    await service.setPauseUntil(later); // moving the end of the pause is a change subscribers see
    await service.setPauseUntil(null);
    await service.setPauseUntil(null); // nothing scheduled: no change
    await service.setPauseUntil(at(HOUR_MS));
    clock.advance(HOUR_MS);
    expect(await service.resumeIfPauseExpired()).toBe(true);
    expect(await service.resumeIfPauseExpired()).toBe(false);

    expect(await events('workspace.loop_state_changed')).toEqual([
      { loopState: 'off', pauseUntilAt: null },
      { loopState: 'paused', pauseUntilAt: until },
      { loopState: 'paused', pauseUntilAt: later },
      { loopState: 'on', pauseUntilAt: null },
      { loopState: 'paused', pauseUntilAt: new Date(new Date('2026-03-10T12:00:00.000Z').getTime() + HOUR_MS).toISOString() },
      { loopState: 'on', pauseUntilAt: null },
    ]);
    // loop.state_changed reports the same changes with the state before each
    expect((await events('loop.state_changed')).map((e) => { const d = e as { previousLoopState: string; loopState: string }; return [d.previousLoopState, d.loopState]; })).toEqual([
      ['on', 'off'],
      ['off', 'paused'],
      ['paused', 'paused'],
      ['paused', 'on'],
      ['on', 'paused'],
      ['paused', 'on'],
    ]);
    // each event sits in the transaction of its activity row: as many events as loop activity rows
    const loopKinds = ['workspace.loop_state', 'workspace.pause_scheduled', 'workspace.pause_cleared', 'workspace.pause_expired'] as const;
    const rows = await t.db.selectFrom('activity').select('kind').where('kind', 'in', loopKinds).execute();
    expect(rows).toHaveLength(6);
  });

  it('a rejected pause queues nothing and changes nothing', async () => {
    const before = await service.profile();
    await expect(service.setPauseUntil(at(15 * DAY_MS))).rejects.toMatchObject({ status: 422 });
    await expect(service.setPauseUntil('tomorrow')).rejects.toMatchObject({ status: 422 });
    expect(await events('workspace.loop_state_changed')).toEqual([]);
    expect(await service.profile()).toEqual(before);
  });

  it('the expiry job leaves an unexpired pause alone and queues nothing', async () => {
    await service.setPauseUntil(at(DAY_MS));
    clock.advance(DAY_MS - 1);
    expect(await service.resumeIfPauseExpired()).toBe(false);
    expect(await events('workspace.loop_state_changed')).toHaveLength(1);
    expect((await service.profile()).loopState).toBe('paused');
  });
});

describe('workspace.cost_cap_changed', () => {
  it('carries the new and the previous cap; a repeat queues nothing', async () => {
    await service.setDailyCostCap(500);
    await service.setDailyCostCap(500);
    await service.setDailyCostCap(null);
    expect(await events('workspace.cost_cap_changed')).toEqual([
      { dailyCostCapUsdCents: 500, previousDailyCostCapUsdCents: 50 },
      { dailyCostCapUsdCents: null, previousDailyCostCapUsdCents: 500 },
    ]);
  });
});
