import { describe, expect, it } from 'vitest';
import { addDays } from '../../core/workspace-time';
import { useTestDatabase } from '../../testing/database';
import { readCostHistory, readCostSeries, toCents, toPoints } from './cost-series';
import type { CostDimension } from './rules';

/** The one series reader: zero-filled windows over cost_daily, many keys at once, and the recorded history. */

const t = useTestDatabase();

async function row(dimension: CostDimension, key: string, day: string, costMicroUsd: number, inputTokens = 0, outputTokens = 0) {
  await t.db.insertInto('costDaily').values({ dimension, key, day, inputTokens, outputTokens, costMicroUsd }).execute();
}

describe('readCostSeries', () => {
  it('zero-fills each key over the window, oldest first; other dimensions and days outside the window are not read', async () => {
    await row('tag', 'launch', '2026-03-01', 999); // before the window
    await row('tag', 'launch', '2026-03-02', 15_000, 10, 1);
    await row('tag', 'launch', '2026-03-04', 5_000);
    await row('task', 'launch', '2026-03-03', 7_000); // another dimension, same key
    const window = ['2026-03-02', '2026-03-03', '2026-03-04'];
    const series = await readCostSeries(t.db, 'tag', ['launch', 'quiet', 'launch'], window);
    expect([...series.keys()]).toEqual(['launch', 'quiet']);
    expect(series.get('launch')).toEqual([
      { day: '2026-03-02', inputTokens: 10, outputTokens: 1, costMicroUsd: 15_000 },
      { day: '2026-03-03', inputTokens: 0, outputTokens: 0, costMicroUsd: 0 },
      { day: '2026-03-04', inputTokens: 0, outputTokens: 0, costMicroUsd: 5_000 },
    ]);
    expect(toCents(series.get('launch')!)).toEqual([2, 0, 1]);
    expect(toPoints(series.get('quiet')!)).toEqual(window.map((date) => ({ date, inputTokens: 0, outputTokens: 0, estimatedCostUsd: 0 })));
    expect((await readCostSeries(t.db, 'tag', [], window)).size).toBe(0);
  });

  it('reads more keys than one query binds (1,200) and keeps each apart', async () => {
    const keys = Array.from({ length: 1200 }, (_, i) => `tsk_${String(i).padStart(4, '0')}`);
    await t.db.insertInto('costDaily').values(keys.slice(0, 400).map((key, i) => ({ dimension: 'task' as const, key, day: '2026-03-10', inputTokens: 0, outputTokens: 0, costMicroUsd: i + 1 }))).execute();
    await t.db.insertInto('costDaily').values(keys.slice(1000).map((key, i) => ({ dimension: 'task' as const, key, day: '2026-03-10', inputTokens: 0, outputTokens: 0, costMicroUsd: 1000 + i }))).execute();
    const series = await readCostSeries(t.db, 'task', keys, ['2026-03-10']);
    expect(series.size).toBe(1200);
    expect(series.get('tsk_0000')![0].costMicroUsd).toBe(1);
    expect(series.get('tsk_0700')![0].costMicroUsd).toBe(0);
    expect(series.get('tsk_1199')![0].costMicroUsd).toBe(1199);
  });
});

describe('readCostHistory', () => {
  it('the recorded days only, oldest first, at most the newest `max`', async () => {
    for (let i = 0; i < 5; i++) await row('task', 'tsk_h', addDays('2026-03-01', i * 2), (i + 1) * 1_000_000, i, i);
    const all = await readCostHistory(t.db, 'task', 'tsk_h');
    expect(all.map((p) => [p.date, p.estimatedCostUsd])).toEqual([
      ['2026-03-01', 1],
      ['2026-03-03', 2],
      ['2026-03-05', 3],
      ['2026-03-07', 4],
      ['2026-03-09', 5],
    ]);
    expect((await readCostHistory(t.db, 'task', 'tsk_h', 2)).map((p) => p.date)).toEqual(['2026-03-07', '2026-03-09']);
    expect(await readCostHistory(t.db, 'task', 'tsk_none')).toEqual([]);
  });
});
