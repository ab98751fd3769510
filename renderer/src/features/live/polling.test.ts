import { describe, expect, it } from 'vitest';
import { someStats } from '../runs/testing';
import { STATS_POLL_MS, STATS_POLL_RUNNING_MS, statsRefetchInterval } from '../runs/api';
import { pollWhenStreamDown, useLiveStream } from './live-store';

const at = Date.parse('2026-03-10T12:00:00.000Z');

describe('polling as the fallback of the event stream', () => {
  it('a query polls while the stream is down or connecting, and not while it is open', () => {
    const interval = pollWhenStreamDown(15_000);
    expect(interval()).toBe(15_000);
    useLiveStream.getState().setStatus('open');
    expect(interval()).toBe(false);
    useLiveStream.getState().setStatus('down');
    expect(interval()).toBe(15_000);
  });

  it("the header's figures: every second during a cycle; with the stream open only when the next cycle is due; every half minute without it", () => {
    const idle = someStats({ phase: 'idle', nextCycleAt: '2026-03-10T12:10:00.000Z' });
    expect(statsRefetchInterval(someStats({ phase: 'running' }), true, at)).toBe(STATS_POLL_RUNNING_MS);
    expect(statsRefetchInterval(idle, false, at)).toBe(STATS_POLL_MS);
    expect(statsRefetchInterval(idle, true, at)).toBe(10 * 60_000);
    // Due already (the scheduler has not started it yet): soon, not in a tight loop.
    expect(statsRefetchInterval(someStats({ phase: 'idle', nextCycleAt: '2026-03-10T11:59:00.000Z' }), true, at)).toBe(STATS_POLL_RUNNING_MS);
    // Days away: within the hour (a longer timer would overflow).
    expect(statsRefetchInterval(someStats({ phase: 'idle', nextCycleAt: '2026-04-10T12:00:00.000Z' }), true, at)).toBe(3_600_000);
    expect(statsRefetchInterval(someStats({ phase: 'off', nextCycleAt: null }), true, at)).toBe(false);
  });
});
