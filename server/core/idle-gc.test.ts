import { afterEach, describe, expect, it, vi } from 'vitest';
import { GROWTH_BYTES, IDLE_GC_EVERY_MS, IDLE_UTILIZATION, idleGcLook, startIdleGc, type IdleGcProbe } from './idle-gc';

const MiB = 1024 * 1024;

/** A heap that grows by what the test says and drops to `live` when collected. */
function fakeProbe(live: number) {
  const state = { committed: live, busy: 0, collections: 0 };
  const probe: IdleGcProbe = {
    utilization: () => state.busy,
    heapCommitted: () => state.committed,
    collect: () => {
      state.collections += 1;
      state.committed = live;
    },
  };
  return { state, probe };
}

describe('idleGcLook', () => {
  it('collects (twice: the second compacts what the first left) once the loop is idle and the heap grew past the threshold, then measures from what is left', () => {
    const { state, probe } = fakeProbe(40 * MiB);
    state.committed = 40 * MiB + GROWTH_BYTES + MiB;
    expect(idleGcLook(probe, 40 * MiB)).toBe(40 * MiB);
    expect(state.collections).toBe(2);
    // Nothing grew since: no more.
    expect(idleGcLook(probe, 40 * MiB)).toBe(40 * MiB);
    expect(state.collections).toBe(2);
  });

  it('does not collect while the loop is busy, however much the heap grew', () => {
    const { state, probe } = fakeProbe(40 * MiB);
    state.committed = 200 * MiB;
    state.busy = IDLE_UTILIZATION;
    expect(idleGcLook(probe, 40 * MiB)).toBe(40 * MiB);
    expect(state.collections).toBe(0);
  });

  it('does not collect an idle heap that grew less than the threshold, and follows it down when V8 collected by itself', () => {
    const { state, probe } = fakeProbe(40 * MiB);
    state.committed = 40 * MiB + GROWTH_BYTES - MiB;
    expect(idleGcLook(probe, 40 * MiB)).toBe(40 * MiB);
    state.committed = 30 * MiB;
    expect(idleGcLook(probe, 40 * MiB)).toBe(30 * MiB);
    expect(state.collections).toBe(0);
  });
});

describe('startIdleGc', () => {
  afterEach(() => vi.useRealTimers());

  it('looks every interval while any desk uses it, and stops with the last one', () => {
    vi.useFakeTimers();
    const { state, probe } = fakeProbe(40 * MiB);
    const stopA = startIdleGc(probe);
    const stopB = startIdleGc(probe);
    state.committed = 40 * MiB + GROWTH_BYTES + MiB;
    vi.advanceTimersByTime(IDLE_GC_EVERY_MS);
    expect(state.collections).toBe(2);
    stopA();
    stopA(); // twice is once
    state.committed = 40 * MiB + GROWTH_BYTES + MiB;
    vi.advanceTimersByTime(IDLE_GC_EVERY_MS);
    expect(state.collections).toBe(4);
    stopB();
    state.committed = 40 * MiB + GROWTH_BYTES + MiB;
    vi.advanceTimersByTime(10 * IDLE_GC_EVERY_MS);
    expect(state.collections).toBe(4);
  });
});
