import { describe, expect, it } from 'vitest';
import { chronicAckActive, currentStreak, isSpiking, nextStreak, spikeAckActive, spikeRatio, SPIKE_MIN_MICRO_USD } from './rules';

const USD = 1_000_000;

describe('the spike rule', () => {
  it('is inclusive at 2 times the trailing 7-day daily average: 1.99x is not a spike, 2x is', () => {
    const previous7 = 7 * USD; // average 1.00 USD a day
    expect(isSpiking(1.99 * USD, previous7)).toBe(false);
    expect(isSpiking(2 * USD - 1, previous7)).toBe(false);
    expect(isSpiking(2 * USD, previous7)).toBe(true);
  });

  it('needs at least 0.50 USD today: 0.49 is not a spike, 0.50 is, even from nothing', () => {
    expect(SPIKE_MIN_MICRO_USD).toBe(500_000);
    expect(isSpiking(490_000, 0)).toBe(false);
    expect(isSpiking(499_999, 0)).toBe(false);
    expect(isSpiking(500_000, 0)).toBe(true);
    // both conditions: 0.50 against an average of 0.25 is exactly 2x
    expect(isSpiking(500_000, 7 * 250_000)).toBe(true);
    expect(isSpiking(500_000, 7 * 250_001)).toBe(false);
  });

  it('reports the ratio with two decimals, null without a baseline', () => {
    expect(spikeRatio(2 * USD, 7 * USD)).toBe(2);
    expect(spikeRatio(1.99 * USD, 7 * USD)).toBe(1.99);
    expect(spikeRatio(USD, 0)).toBeNull();
  });
});

describe('the streak', () => {
  it('grows on a day following a spike day, restarts after a gap, and counts a day once', () => {
    expect(nextStreak(null, 0, '2026-03-10')).toBe(1);
    expect(nextStreak('2026-03-09', 1, '2026-03-10')).toBe(2);
    expect(nextStreak('2026-03-10', 2, '2026-03-10')).toBe(2);
    expect(nextStreak('2026-03-08', 5, '2026-03-10')).toBe(1);
    // across a month end
    expect(nextStreak('2026-02-28', 3, '2026-03-01')).toBe(4);
  });

  it('holds while the last spike was today or yesterday and reads 0 after a day without one', () => {
    expect(currentStreak('2026-03-10', 3, '2026-03-10')).toBe(3);
    expect(currentStreak('2026-03-09', 3, '2026-03-10')).toBe(3);
    expect(currentStreak('2026-03-08', 3, '2026-03-10')).toBe(0);
    expect(currentStreak(null, 0, '2026-03-10')).toBe(0);
  });
});

describe('acks', () => {
  it('a same-day ack holds on the workspace day it was given on only', () => {
    expect(spikeAckActive('2026-03-10', '2026-03-10')).toBe(true);
    expect(spikeAckActive('2026-03-09', '2026-03-10')).toBe(false);
    expect(spikeAckActive(null, '2026-03-10')).toBe(false);
  });

  it('a chronic ack holds for 7 days to the millisecond', () => {
    const at = '2026-03-10T12:00:00.000Z';
    expect(chronicAckActive(at, new Date('2026-03-17T11:59:59.999Z'))).toBe(true);
    expect(chronicAckActive(at, new Date('2026-03-17T12:00:00.000Z'))).toBe(false);
    expect(chronicAckActive(null, new Date(at))).toBe(false);
  });
});
