import { describe, expect, it } from 'vitest';
import { peakWindow, topWeeks, weeklyBuckets, windowDays } from './cadence';
import { releaseDateOf, type ReleaseRecord } from './releases';

const rel = (n: number, date: string): ReleaseRecord => ({ n, date, title: `r${n}`, highlights: [] });

describe('cadence bucketing', () => {
  it('windows are whole UTC days ending on now’s UTC date', () => {
    expect(windowDays(new Date('2026-03-01T23:59:59.999Z'), 3)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
    expect(windowDays(new Date('2026-03-02T00:00:00.000Z'), 1)).toEqual(['2026-03-02']);
  });

  it('weekly buckets count back from the last day; the oldest is short when the window is not whole weeks', () => {
    const window = windowDays(new Date('2026-01-10T12:00:00Z'), 10);
    const weeks = weeklyBuckets([rel(1, '2026-01-01'), rel(2, '2026-01-03'), rel(3, '2026-01-04'), rel(4, '2026-01-10')], window);
    expect(weeks).toEqual([
      { weekStart: '2026-01-01', weekEnd: '2026-01-03', days: 3, revCount: 2, revs: ['rev 1', 'rev 2'] },
      { weekStart: '2026-01-04', weekEnd: '2026-01-10', days: 7, revCount: 2, revs: ['rev 3', 'rev 4'] },
    ]);
    // a tie on revCount goes to the earlier weekStart
    expect(topWeeks(weeks).map((w) => w.weekStart)).toEqual(['2026-01-01', '2026-01-04']);
  });

  it('the peak week starts on a release day, is clipped at the window end, and the earliest wins a tie', () => {
    const window = windowDays(new Date('2026-01-20T00:00:00Z'), 20);
    const releases = [rel(1, '2026-01-02'), rel(2, '2026-01-05'), rel(3, '2026-01-12'), rel(4, '2026-01-18'), rel(5, '2026-01-20')];
    expect(peakWindow(releases, window)).toEqual({ peakWeek: { start: '2026-01-02', end: '2026-01-08', revCount: 2 }, peakWeekRevs: ['rev 1', 'rev 2'] });
    expect(peakWindow(releases, windowDays(new Date('2026-01-20T00:00:00Z'), 4))).toEqual({ peakWeek: { start: '2026-01-18', end: '2026-01-20', revCount: 2 }, peakWeekRevs: ['rev 4', 'rev 5'] });
    expect(peakWindow([], window)).toEqual({ peakWeek: null, peakWeekRevs: [] });
  });

  it('releaseDateOf answers a release label’s date, null otherwise', () => {
    expect(releaseDateOf('rev 12')).toBe('2026-03-20');
    expect(releaseDateOf('rev 49')).toBeNull();
    expect(releaseDateOf('12')).toBeNull();
  });
});
