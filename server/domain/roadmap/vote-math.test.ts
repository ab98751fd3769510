import { describe, expect, it } from 'vitest';
import { itemFigures, topLists, trendDays, type ItemVoteFigures } from './vote-math';

const fig = (key: string, votes: number, momentum7d: number): ItemVoteFigures => ({ key, votes, momentum7d, trend: [] });

describe('trend and momentum', () => {
  it('the trend is the 14 UTC days ending today, oldest first, across a month end', () => {
    const days = trendDays('2026-03-03');
    expect(days).toHaveLength(14);
    expect(days[0]).toBe('2026-02-18');
    expect(days.slice(-3)).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
  });

  it('counts per day, zero-fills empty days, ignores days outside the window, and sums the last 7 as momentum', () => {
    const perDay = new Map([
      [
        'a',
        new Map([
          ['2026-03-03', 2], // today
          ['2026-02-25', 1], // 6 days ago: inside the 7
          ['2026-02-24', 4], // 7 days ago: trend only
          ['2026-02-18', 1], // first trend day
          ['2026-02-17', 9], // outside the trend
        ]),
      ],
    ]);
    const [a, b] = itemFigures(['a', 'b'], '2026-03-03', new Map([['a', 20]]), perDay);
    expect(a.votes).toBe(20);
    expect(a.trend.map((p) => p.votes)).toEqual([1, 0, 0, 0, 0, 0, 4, 1, 0, 0, 0, 0, 0, 2]);
    expect(a.trend[13]).toEqual({ date: '2026-03-03', votes: 2 });
    expect(a.momentum7d).toBe(3);
    expect(b).toEqual({ key: 'b', votes: 0, momentum7d: 0, trend: expect.any(Array) });
    expect(b.trend.every((p) => p.votes === 0)).toBe(true);
  });
});

describe('mostRequested and mostTrending', () => {
  it('mostRequested: top 5 by votes, ties by momentum then roadmap order; no zero-vote items', () => {
    const items = [fig('a', 3, 0), fig('b', 5, 1), fig('c', 3, 2), fig('d', 0, 0), fig('e', 3, 0), fig('f', 1, 1), fig('g', 1, 0), fig('h', 2, 2)];
    expect(topLists(items).mostRequested).toEqual(['b', 'c', 'a', 'e', 'h']);
    expect(topLists([fig('a', 0, 0), fig('b', 0, 0)]).mostRequested).toEqual([]);
  });

  it('mostTrending: top 5 by momentum excluding mostRequested, ties by votes then roadmap order; no item without recent votes', () => {
    const items = [
      fig('r1', 50, 0),
      fig('r2', 40, 9),
      fig('r3', 30, 0),
      fig('r4', 20, 0),
      fig('r5', 10, 0),
      fig('t1', 4, 3),
      fig('t2', 5, 3),
      fig('t3', 2, 6),
      fig('t4', 1, 1),
      fig('t5', 1, 1),
      fig('t6', 2, 1),
      fig('z', 9, 0),
    ];
    const { mostRequested, mostTrending } = topLists(items);
    expect(mostRequested).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
    // r2 has the highest momentum but is already most requested; z has votes but none this week.
    expect(mostTrending).toEqual(['t3', 't2', 't1', 't6', 't4']);
  });
});
