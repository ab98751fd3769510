import { describe, expect, it } from 'vitest';
import { HOUR_MS, ManualClock } from '../../core/clock';
import { overdueFrom, watchOverdue, type OverdueWatchState, type WaitingOutput } from './overdue-watch';

const DAILY = { watchHours: 24, overdueHours: 72 };
const FAST = { watchHours: 4, overdueHours: 12 };
const START = '2026-03-10T12:00:00.000Z';

/** Outputs made `hours` before START. */
const made = (id: string, hours: number): WaitingOutput => ({ id, readyAt: new Date(Date.parse(START) - hours * HOUR_MS).toISOString() });

describe('watchOverdue', () => {
  it.each([
    ['Daily', DAILY],
    ['Fast', FAST],
  ] as const)('under the %s policy an output crosses watch -> overdue by time alone and is reported once', (_name, policy) => {
    const clock = new ManualClock(START);
    const queue = [made('a', policy.watchHours)];
    let step = watchOverdue(null, queue, clock.now(), policy, null);
    expect(step).toMatchObject({ changed: true, newlyOverdue: [], state: { counts: { ready: 1, watch: 1, overdue: 0 } } });

    // One millisecond short of the overdue threshold (the attention module's exact-ms rule): still watch.
    clock.advance((policy.overdueHours - policy.watchHours) * HOUR_MS - 1);
    step = watchOverdue(step.state, queue, clock.now(), policy, null);
    expect(step).toMatchObject({ changed: false, newlyOverdue: [] });

    clock.advance(1);
    step = watchOverdue(step.state, queue, clock.now(), policy, null);
    expect(step).toMatchObject({ changed: true, newlyOverdue: ['a'], state: { counts: { ready: 1, watch: 0, overdue: 1 } } });

    // Later looks do not report it again.
    clock.advance(HOUR_MS / 2);
    step = watchOverdue(step.state, queue, clock.now(), policy, null);
    expect(step).toMatchObject({ changed: false, newlyOverdue: [] });
  });

  it('a decided output leaves the counts (a change) and is never reported', () => {
    const now = new Date(START);
    const first = watchOverdue(null, [made('a', 80), made('b', 30), made('c', 1)], now, DAILY, null);
    expect(first.state.counts).toEqual({ ready: 3, watch: 1, overdue: 1 });
    const after = watchOverdue(first.state, [made('b', 30), made('c', 1)], now, DAILY, null);
    expect(after).toMatchObject({ changed: true, newlyOverdue: [], state: { counts: { ready: 2, watch: 1, overdue: 0 } } });
    expect([...after.state.known]).toEqual([]);
  });

  it('counts a new ready output as a change; nothing new and the same counts is no change', () => {
    const now = new Date(START);
    const first = watchOverdue(null, [made('a', 1)], now, DAILY, null);
    const same = watchOverdue(first.state, [made('a', 1)], now, DAILY, null);
    expect(same.changed).toBe(false);
    const more = watchOverdue(same.state, [made('a', 1), made('b', 0)], now, DAILY, null);
    expect(more).toMatchObject({ changed: true, state: { counts: { ready: 2, watch: 0, overdue: 0 } } });
  });

  it('several crossing between two looks are all reported, oldest first', () => {
    const clock = new ManualClock(START);
    const queue = [made('old', 70), made('mid', 69), made('young', 10)];
    const first = watchOverdue(null, queue, clock.now(), DAILY, null);
    clock.advance(3 * HOUR_MS);
    const step = watchOverdue(first.state, queue, clock.now(), DAILY, null);
    expect(step.newlyOverdue).toEqual(['old', 'mid']);
    expect(step.state.counts).toEqual({ ready: 3, watch: 0, overdue: 2 });
  });

  it('a policy change that makes outputs overdue reports them; flipping back and forth reports nobody twice', () => {
    const now = new Date(START);
    const queue = [made('a', 20)];
    const daily = watchOverdue(null, queue, now, DAILY, null);
    expect(daily.state.counts.overdue).toBe(0);
    const fast = watchOverdue(daily.state, queue, now, FAST, null);
    expect(fast).toMatchObject({ changed: true, newlyOverdue: ['a'] });
    const back = watchOverdue(fast.state, queue, now, DAILY, null);
    expect(back).toMatchObject({ changed: true, newlyOverdue: [], state: { counts: { overdue: 0, watch: 0 } } });
    const again = watchOverdue(back.state, queue, now, FAST, null);
    expect(again).toMatchObject({ changed: true, newlyOverdue: [] });
  });

  describe('the first look of a process', () => {
    const queue = [made('long-ago', 100), made('overnight', 75), made('soon', 70)];
    const now = new Date(START);

    it('reports the outputs that crossed since the previous process last looked, not those overdue before', () => {
      const lastLooked = new Date(Date.parse(START) - 8 * HOUR_MS); // 'overnight' crossed 3 h ago, 'long-ago' 28 h ago
      const step = watchOverdue(null, queue, now, DAILY, lastLooked);
      expect(step).toMatchObject({ changed: true, newlyOverdue: ['overnight'], state: { counts: { ready: 3, watch: 1, overdue: 2 } } });
      // Both are known from now on.
      const next = watchOverdue(step.state, queue, new Date(Date.parse(START) + 60_000), DAILY, null);
      expect(next.newlyOverdue).toEqual([]);
    });

    it('reports nothing without an earlier look (a fresh desk): the counts show them', () => {
      expect(watchOverdue(null, queue, now, DAILY, null)).toMatchObject({ newlyOverdue: [], state: { counts: { overdue: 2 } } });
    });

    it('an output that crossed exactly at the last look was already overdue then', () => {
      const exactly = new Date(overdueFrom(queue[1].readyAt, DAILY));
      expect(watchOverdue(null, queue, now, DAILY, exactly).newlyOverdue).toEqual([]);
      expect(watchOverdue(null, queue, now, DAILY, new Date(exactly.getTime() - 1)).newlyOverdue).toEqual(['overnight']);
    });
  });

  it('keeps only outputs still waiting in its state', () => {
    const now = new Date(START);
    const step: OverdueWatchState = watchOverdue(null, [made('a', 80), made('b', 90)], now, DAILY, null).state;
    expect([...step.known].sort()).toEqual(['a', 'b']);
    expect([...watchOverdue(step, [made('b', 90)], now, DAILY, null).state.known]).toEqual(['b']);
  });
});
