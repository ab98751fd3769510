import { describe, expect, it } from 'vitest';
import { approvalAgeHours, attentionAt, reviewClock } from './attention';
import { approvalCapacity, CAPACITY_COVERAGE, type Reviewer } from './capacity';
import { approvalAging, approvalOwnership, type WaitingReview } from './queue-stats';
import { approvalThroughput, median, p90, type Decision } from './throughput';

const NOW = new Date('2026-03-20T12:00:00.000Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString();
const DAILY = { watchHours: 24, overdueHours: 72 };
const FAST = { watchHours: 4, overdueHours: 12 };

describe('attention', () => {
  it.each([
    [DAILY, 23.999, 'fresh'],
    [DAILY, 24, 'watch'],
    [DAILY, 71.999, 'watch'],
    [DAILY, 72, 'overdue'],
    [FAST, 3.999, 'fresh'],
    [FAST, 4, 'watch'],
    [FAST, 11.999, 'watch'],
    [FAST, 12, 'overdue'],
  ] as const)('under %o a wait of %s hours is %s', (policy, hours, expected) => {
    expect(attentionAt(hoursAgo(hours), NOW, policy)).toBe(expected);
  });

  it('reads the age in hours to two decimals and never negative', () => {
    expect(approvalAgeHours(hoursAgo(25.5), NOW)).toBe(25.5);
    expect(approvalAgeHours(new Date(NOW.getTime() + 60_000).toISOString(), NOW)).toBe(0);
  });

  it('falls back to the created time for rows without readyAt, as an inferred sample', () => {
    expect(reviewClock({ readyAt: null, createdAt: 'c', updatedAt: 'u' })).toEqual({ readyAt: 'c', inferred: true });
    expect(reviewClock({ readyAt: 'r', createdAt: 'c', updatedAt: 'u' })).toEqual({ readyAt: 'r', inferred: false });
  });
});

const waiting = (id: string, hours: number, ownerId: string | null): WaitingReview => ({ artifactId: id, readyAt: hoursAgo(hours), ownerId });

describe('aging and ownership', () => {
  const queue = [waiting('a1', 1, 'u1'), waiting('a2', 30, 'u1'), waiting('a3', 80, 'u2'), waiting('a4', 100, null), waiting('a5', 72, 'u1')];

  it('counts past each threshold and names the oldest wait', () => {
    expect(approvalAging(queue, NOW, DAILY)).toEqual({ waiting: 5, fresh: 1, pastWatch: 4, pastOverdue: 3, oldestWaitHours: 100, oldestArtifactId: 'a4' });
    expect(approvalAging([], NOW, DAILY)).toEqual({ waiting: 0, fresh: 0, pastWatch: 0, pastOverdue: 0, oldestWaitHours: null, oldestArtifactId: null });
  });

  it('counts assigned, unassigned, mine and mine overdue', () => {
    expect(approvalOwnership(queue, 'u1', NOW, DAILY)).toEqual({ assigned: 4, unassigned: 1, mine: 3, mineOverdue: 1 });
  });
});

describe('capacity', () => {
  const reviewers: Reviewer[] = [
    { userId: 'ann', name: 'Ann', available: true },
    { userId: 'bob', name: 'Bob', available: true },
    { userId: 'cat', name: 'Cat', available: false },
  ];

  it('balances among available reviewers only and suggests a bounded move of the oldest reviews', () => {
    // Ann owns 6, Bob 0, Cat (away) 0, 2 unassigned: 8 covered over 2 available reviewers -> target 4.
    const queue = [...Array.from({ length: 6 }, (_, i) => waiting(`ann${i}`, 10 + i, 'ann')), waiting('u1', 5, null), waiting('u2', 6, null)];
    const c = approvalCapacity(queue, reviewers, NOW, DAILY);
    expect(c.targetLoad).toBe(4);
    expect(c.queueSpread).toBe(6);
    expect(c.mostLoaded).toEqual({ userId: 'ann', name: 'Ann', load: 6 });
    expect(c.lightest).toEqual({ userId: 'bob', name: 'Bob', load: 0 });
    // floor(6 / 2) = 3 moves, Ann's oldest first.
    expect(c.suggestion).toEqual({ reason: 'rebalance', fromUserId: 'ann', toUserId: 'bob', artifactIds: ['ann5', 'ann4', 'ann3'] });
    expect(c.state).toBe('unbalanced');
    expect({ a: c.availableReviewers, u: c.unavailableReviewers, ao: c.availableOwned, aw: c.awayOwned, un: c.unassigned }).toEqual({ a: 2, u: 1, ao: 6, aw: 0, un: 2 });
    expect(c.reviewers.map((r) => [r.userId, r.load])).toEqual([['ann', 6], ['bob', 0], ['cat', 0]]);
  });

  it('suggests handing an away reviewer’s reviews to the lightest available one first', () => {
    const c = approvalCapacity([waiting('c1', 50, 'cat'), waiting('a1', 2, 'ann')], reviewers, NOW, DAILY);
    expect(c.awayOwned).toBe(1);
    expect(c.suggestion).toEqual({ reason: 'away', fromUserId: 'cat', toUserId: 'bob', artifactIds: ['c1'] });
  });

  it('says when no reviewer is available, and covers only the oldest 200 waiting reviews', () => {
    const all = Array.from({ length: 250 }, (_, i) => waiting(`x${String(i).padStart(3, '0')}`, i, 'cat'));
    const c = approvalCapacity(all, reviewers.map((r) => ({ ...r, available: false })), NOW, DAILY);
    expect(c.state).toBe('no_reviewer_available');
    expect(c.targetLoad).toBeNull();
    expect(c.suggestion).toBeNull();
    expect(c.coverage).toEqual({ considered: CAPACITY_COVERAGE, waiting: 250, bound: 200, complete: false });
    // The oldest 200 are x249..x050: x049 (49 h) is outside the bound.
    expect(c.reviewers.find((r) => r.userId === 'cat')?.load).toBe(200);
    expect(c.reviewers.find((r) => r.userId === 'cat')?.oldestWaitHours).toBe(249);
  });

  it('is balanced when loads differ by less than two', () => {
    const c = approvalCapacity([waiting('a', 1, 'ann')], reviewers, NOW, DAILY);
    expect(c.state).toBe('balanced');
    expect(c.suggestion).toBeNull();
  });
});

describe('throughput', () => {
  const decision = (readyHoursAgo: number, waitHours: number, status: Decision['status'] = 'approved', inferred = false): Decision => ({
    readyAt: hoursAgo(readyHoursAgo),
    decidedAt: hoursAgo(readyHoursAgo - waitHours),
    status,
    inferred,
  });

  it('computes median and nearest-rank p90', () => {
    expect(median([1, 2, 3, 10])).toBe(2.5);
    expect(median([1, 2, 9])).toBe(2);
    expect(p90([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])).toBe(9);
    expect(p90([5])).toBe(5);
    expect(median([])).toBeNull();
  });

  it('computes every share of the 7-day and 30-day windows by hand', () => {
    // Last 7 days (decided 2..100 hours ago): waits 2, 10, 30, 80 (approved, approved, archived, inferred approved).
    // Older (decided 10..20 days ago): waits 5 and 100.
    const ds = [
      decision(4, 2),
      decision(20, 10),
      decision(60, 30, 'archived'),
      decision(180, 80, 'approved', true),
      decision(10 * 24 + 5, 5),
      decision(20 * 24 + 100, 100, 'archived'),
    ];
    const t = approvalThroughput(ds, NOW, 'UTC', DAILY);
    expect(t.last7Days).toEqual({
      days: 7,
      decisions: 4,
      approved: 3,
      archived: 1,
      approvedShare: 0.75,
      medianHours: 20,
      past72hShare: 0.25,
      within24hShare: 0.5,
      withinWatchShare: 0.5,
      pastPolicyShare: 0.25,
      exactSamples: 3,
      inferredSamples: 1,
      sampleQuality: 'mixed',
    });
    // 30 days: waits 2, 5, 10, 30, 80, 100 -> median 20, p90 = 6th of 6 = 100.
    expect(t.last30Days.decisions).toBe(6);
    expect(t.last30Days.medianHours).toBe(20);
    expect(t.p90Hours30d).toBe(100);
    expect(t.last30Days.past72hShare).toBe(0.333);
  });

  it('reads the week-over-week trend only with enough samples', () => {
    const thisWeek = [decision(10, 2), decision(30, 4), decision(50, 6)];
    const lastWeek = [decision(8 * 24, 10), decision(9 * 24, 10), decision(10 * 24, 10)];
    const t = approvalThroughput([...thisWeek, ...lastWeek], NOW, 'UTC', DAILY);
    expect(t.trend).toEqual({ direction: 'faster', thisWeekMedianHours: 4, lastWeekMedianHours: 10, changeShare: -0.6 });
    expect(approvalThroughput(thisWeek, NOW, 'UTC', DAILY).trend.direction).toBe('insufficient');
  });

  it('keeps 14 zero-filled daily buckets of workspace days, oldest first', () => {
    // 23:30 New York on the 19th is 03:30 UTC on the 20th: it belongs to the 19th there.
    const t = approvalThroughput([{ readyAt: '2026-03-20T01:30:00.000Z', decidedAt: '2026-03-20T03:30:00.000Z', status: 'approved', inferred: false }], NOW, 'America/New_York', DAILY);
    expect(t.daily).toHaveLength(14);
    expect(t.daily[0].date).toBe('2026-03-07');
    expect(t.daily[13]).toEqual({ date: '2026-03-20', decisions: 0, medianHours: null });
    expect(t.daily[12]).toEqual({ date: '2026-03-19', decisions: 1, medianHours: 2 });
  });
});
