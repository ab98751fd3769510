import { describe, expect, it } from 'vitest';
import { bucketOf, groupByBucket } from './buckets';
import { sortCostRows } from './cost-layout';
import { arrange, move, moveTo, toggle } from './layout';

const PANELS = ['today', 'whats-new', 'inbox', 'insights', 'reactions'] as const;

describe('arrange, move, toggle', () => {
  it('lays out the stored order, dropping unknown and repeated ids and adding missing ones at their default place', () => {
    expect(arrange(PANELS, ['inbox', 'gone', 'today', 'inbox'])).toEqual(['inbox', 'today', 'whats-new', 'insights', 'reactions']);
    expect(arrange(PANELS, [])).toEqual([...PANELS]);
    expect(arrange(PANELS, null)).toEqual([...PANELS]);
  });

  it('moves by one place, clamped at the ends, and onto another panel', () => {
    expect(move(PANELS, 'inbox', -1)).toEqual(['today', 'inbox', 'whats-new', 'insights', 'reactions']);
    expect(move(PANELS, 'today', -1)).toEqual([...PANELS]);
    expect(move(PANELS, 'reactions', 1)).toEqual([...PANELS]);
    expect(moveTo(PANELS, 'reactions', 'whats-new')).toEqual(['today', 'reactions', 'whats-new', 'inbox', 'insights']);
    expect(moveTo(PANELS, 'today', 'inbox')).toEqual(['whats-new', 'inbox', 'today', 'insights', 'reactions']);
  });

  it('toggles membership without duplicates', () => {
    expect(toggle(['a', 'b'], 'b', true)).toEqual(['a', 'b']);
    expect(toggle(['a'], 'b', true)).toEqual(['a', 'b']);
    expect(toggle(['a', 'b'], 'a', false)).toEqual(['b']);
  });
});

describe('activity buckets', () => {
  // 00:30 on Monday 9 March 2026 in New York (EDT began on Sunday 8 March): still Sunday evening in Los Angeles.
  const now = new Date('2026-03-09T04:30:00.000Z');

  it('buckets by the calendar day of the workspace timezone, across a DST change', () => {
    expect(bucketOf('2026-03-09T04:10:00.000Z', now, 'America/New_York')).toBe('today');
    expect(bucketOf('2026-03-09T03:50:00.000Z', now, 'America/New_York')).toBe('yesterday');
    expect(bucketOf('2026-03-09T03:50:00.000Z', now, 'America/Los_Angeles')).toBe('today');
    expect(bucketOf('2026-03-03T12:00:00.000Z', now, 'America/New_York')).toBe('this-week');
    expect(bucketOf('2026-03-02T12:00:00.000Z', now, 'America/New_York')).toBe('earlier');
  });

  it('groups rows in bucket order, keeping their order, leaving empty buckets out', () => {
    const rows = ['2026-03-09T04:00:00.000Z', '2026-03-01T00:00:00.000Z', '2026-03-09T04:20:00.000Z'];
    expect(groupByBucket(rows, (r) => r, now, 'UTC')).toEqual([
      { bucket: 'today', rows: ['2026-03-09T04:00:00.000Z', '2026-03-09T04:20:00.000Z'] },
      { bucket: 'earlier', rows: ['2026-03-01T00:00:00.000Z'] },
    ]);
  });
});

describe('sortCostRows', () => {
  const rows = [
    { key: '1', label: 'beta', usd: 2 },
    { key: '2', label: 'Alpha', usd: 5 },
    { key: '3', label: 'gamma', usd: 2 },
  ];
  it('orders by cost either way (ties by name) and by name either way', () => {
    expect(sortCostRows(rows, 'cost-desc').map((r) => r.key)).toEqual(['2', '1', '3']);
    expect(sortCostRows(rows, 'cost-asc').map((r) => r.key)).toEqual(['1', '3', '2']);
    expect(sortCostRows(rows, 'name-asc').map((r) => r.key)).toEqual(['2', '1', '3']);
    expect(sortCostRows(rows, 'name-desc').map((r) => r.key)).toEqual(['3', '1', '2']);
  });
});
