import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../core/clock';
import { costOf } from '../../engine/pricing';
import { GPT_4O_MINI } from '../../testing/fixtures/engine-input';
import { useTestDatabase } from '../../testing/database';
import { insertMemoryRow, insertSignalRow, insertTask, scriptedEngine } from '../../testing/fixtures/loop';
import { LoopService } from '../loop/loop-service';
import { cycleBuckets } from './cost-ledger';
import { equalSplit, splitInteger, UNASSIGNED_KEY, UNTAGGED_KEY, WORKSPACE_KEY, type CostAmount } from './rules';

const amount = (inputTokens: number, outputTokens: number, costMicroUsd: number): CostAmount => ({ inputTokens, outputTokens, costMicroUsd });

describe('equal split arithmetic', () => {
  it('splits integers exactly, the remainder one unit each to the first parts', () => {
    expect(splitInteger(10, 3)).toEqual([4, 3, 3]);
    expect(splitInteger(2, 3)).toEqual([1, 1, 0]);
    expect(splitInteger(9, 3)).toEqual([3, 3, 3]);
    expect(splitInteger(0, 2)).toEqual([0, 0]);
    expect(splitInteger(5, 0)).toEqual([]);
  });

  it('splits an amount across sorted distinct keys, summing to the amount exactly', () => {
    const shares = equalSplit(amount(100, 7, 1001), ['mem_c', 'mem_a', 'mem_b', 'mem_a']);
    expect([...shares.keys()]).toEqual(['mem_a', 'mem_b', 'mem_c']);
    expect([...shares.values()]).toEqual([amount(34, 3, 334), amount(33, 2, 334), amount(33, 2, 333)]);
    expect(equalSplit(amount(5, 5, 5), []).size).toBe(0);
  });
});

describe('the buckets of one cycle', () => {
  const { buckets, memory } = cycleBuckets({
    day: '2026-03-10',
    total: amount(1000, 100, 5000),
    tasks: [
      { taskId: 'tsk_a', amount: amount(300, 30, 900), retrievedMemoryIds: ['mem_1', 'mem_2', 'mem_1'], sourceIds: ['src_x', 'src_y'], tags: ['launch', 'pricing'], assignedToUserId: 'usr_1', worked: true },
      { taskId: 'tsk_b', amount: amount(101, 11, 301), retrievedMemoryIds: ['mem_2'], sourceIds: [], tags: [], assignedToUserId: null, worked: true },
    ],
  });
  const get = (dimension: string, key: string) => [...buckets.values()].find((b) => b.dimension === dimension && b.key === key)?.amount;

  it('workspace: the cycle total (triage work included)', () => expect(get('workspace', WORKSPACE_KEY)).toEqual(amount(1000, 100, 5000)));
  it('task: each task its own amount', () => {
    expect(get('task', 'tsk_a')).toEqual(amount(300, 30, 900));
    expect(get('task', 'tsk_b')).toEqual(amount(101, 11, 301));
  });
  it('memory: each task split equally across the distinct entries it pulled', () => {
    expect(memory.get('mem_1')).toEqual(amount(150, 15, 450));
    expect(memory.get('mem_2')).toEqual(amount(150 + 101, 15 + 11, 450 + 301));
    expect(get('memory', 'mem_2')).toEqual(memory.get('mem_2'));
  });
  it('source: each task split equally across its sources; no source, no bucket', () => {
    expect(get('source', 'src_x')).toEqual(amount(150, 15, 450));
    expect(get('source', 'src_y')).toEqual(amount(150, 15, 450));
    expect([...buckets.values()].filter((b) => b.dimension === 'source')).toHaveLength(2);
  });
  it('tag: the full amount to every tag; untagged when none', () => {
    expect(get('tag', 'launch')).toEqual(amount(300, 30, 900));
    expect(get('tag', 'pricing')).toEqual(amount(300, 30, 900));
    expect(get('tag', UNTAGGED_KEY)).toEqual(amount(101, 11, 301));
  });
  it('assignee: the full amount to the assignee; unassigned when none', () => {
    expect(get('assignee', 'usr_1')).toEqual(amount(300, 30, 900));
    expect(get('assignee', UNASSIGNED_KEY)).toEqual(amount(101, 11, 301));
  });
});

describe('a cycle charges its cost', () => {
  const t = useTestDatabase({ workspace: { plan: 'free', timezone: 'America/New_York' } });
  let clock: ManualClock;
  beforeEach(() => {
    clock = t.clock;
  });
  const ctx = () => ({ db: t.db, clock });

  async function cycleAt(iso: string, taskId: string) {
    clock.set(new Date(iso));
    const engine = scriptedEngine(() => ({ usage: { inputTokens: 3000, outputTokens: 300 }, usageByTask: { [taskId]: { inputTokens: 1000, outputTokens: 100 } } }));
    const loop = new LoopService({ db: t.db, clock, engineFor: () => engine });
    return loop.runNow();
  }

  it('onto the task, its sources, tags, assignee and memory, in the day of the workspace timezone', async () => {
    const src = 'src_1';
    await t.db.insertInto('sources').values({ id: src, type: 'manual', label: 'Manual', url: null, notes: null, status: 'connected', pausedAt: null, pausedUntilAt: null, pollIntervalMinutes: null, includeKeywords: '[]', excludeKeywords: '[]', lastSyncedAt: null, lastPolledAt: null, lastErrorMessage: null, lastSignalAt: null, consecutiveFailures: 0, nextRetryAt: null, etag: null, lastModified: null, quietnessAckedAt: null, quietnessWarnedAt: null, createdAt: clock.now().toISOString(), updatedAt: clock.now().toISOString(), filePath: null }).execute();
    const sig = await insertSignalRow(ctx(), { sourceId: src });
    const task = await insertTask(ctx(), { sourceSignalIds: JSON.stringify([sig]) }, ['launch']);
    await insertMemoryRow(ctx(), { title: 'Launch plan', content: 'launch on Tuesday' });
    await insertMemoryRow(ctx(), { title: 'Launch risks', content: 'launch may slip' });
    clock.set(new Date('2026-03-10T15:00:00.000Z'));
    const engine = scriptedEngine(async (input) => {
      await input.searchMemory(task, 'launch', 5);
      return { usage: { inputTokens: 3001, outputTokens: 301 }, usageByTask: { [task]: { inputTokens: 1001, outputTokens: 101 } } };
    });
    const run = await new LoopService({ db: t.db, clock, engineFor: () => engine }).runNow();
    const taskCost = costOf(GPT_4O_MINI, { inputTokens: 1001, outputTokens: 101 });
    expect(run.estimatedCostUsd * 1e6).toBeCloseTo(costOf(GPT_4O_MINI, { inputTokens: 3001, outputTokens: 301 }), 6);
    const rows = await t.db.selectFrom('costDaily').select(['dimension', 'key', 'day', 'inputTokens', 'outputTokens', 'costMicroUsd']).orderBy('dimension').orderBy('key').execute();
    const memIds = (await t.db.selectFrom('memory').select('id').orderBy('id').execute()).map((m) => m.id);
    const half = (n: number, first: boolean) => Math.floor(n / 2) + (first ? n % 2 : 0);
    expect(rows).toEqual([
      { dimension: 'assignee', key: UNASSIGNED_KEY, day: '2026-03-10', inputTokens: 1001, outputTokens: 101, costMicroUsd: taskCost },
      { dimension: 'memory', key: memIds[0], day: '2026-03-10', inputTokens: 501, outputTokens: 51, costMicroUsd: half(taskCost, true) },
      { dimension: 'memory', key: memIds[1], day: '2026-03-10', inputTokens: 500, outputTokens: 50, costMicroUsd: half(taskCost, false) },
      { dimension: 'source', key: src, day: '2026-03-10', inputTokens: 1001, outputTokens: 101, costMicroUsd: taskCost },
      { dimension: 'tag', key: 'launch', day: '2026-03-10', inputTokens: 1001, outputTokens: 101, costMicroUsd: taskCost },
      { dimension: 'task', key: task, day: '2026-03-10', inputTokens: 1001, outputTokens: 101, costMicroUsd: taskCost },
      { dimension: 'workspace', key: WORKSPACE_KEY, day: '2026-03-10', inputTokens: 3001, outputTokens: 301, costMicroUsd: Math.round(run.estimatedCostUsd * 1e6) },
    ]);
    const row = await t.db.selectFrom('tasks').select(['totalInputTokens', 'totalOutputTokens', 'costMicroUsd', 'sessionCount']).where('id', '=', task).executeTakeFirstOrThrow();
    expect(row).toEqual({ totalInputTokens: 1001, totalOutputTokens: 101, costMicroUsd: taskCost, sessionCount: 1 });
    const mem = await t.db.selectFrom('memory').select(['totalAttributedInputTokens', 'totalAttributedOutputTokens']).orderBy('id').execute();
    expect(mem).toEqual([
      { totalAttributedInputTokens: 501, totalAttributedOutputTokens: 51 },
      { totalAttributedInputTokens: 500, totalAttributedOutputTokens: 50 },
    ]);
  });

  it('buckets days across the workspace midnight and a DST change (one row per day, summed within it)', async () => {
    const task = await insertTask(ctx());
    // New York: 23:30 EST on Saturday 7 March, then 00:30 on Sunday 8 March (DST starts at 02:00),
    // then 23:30 EDT on Sunday 8 March (UTC-4 by then), then 00:10 on Monday 9 March.
    await cycleAt('2026-03-08T04:30:00.000Z', task);
    await cycleAt('2026-03-08T05:30:00.000Z', task);
    await cycleAt('2026-03-09T03:30:00.000Z', task);
    await cycleAt('2026-03-09T04:10:00.000Z', task);
    const days = await t.db.selectFrom('costDaily').select(['day', 'inputTokens']).where('dimension', '=', 'task').where('key', '=', task).orderBy('day').execute();
    expect(days).toEqual([
      { day: '2026-03-07', inputTokens: 1000 },
      { day: '2026-03-08', inputTokens: 2000 },
      { day: '2026-03-09', inputTokens: 1000 },
    ]);
    const ws = await t.db.selectFrom('costDaily').select(['day', 'inputTokens']).where('dimension', '=', 'workspace').orderBy('day').execute();
    expect(ws).toEqual([
      { day: '2026-03-07', inputTokens: 3000 },
      { day: '2026-03-08', inputTokens: 6000 },
      { day: '2026-03-09', inputTokens: 3000 },
    ]);
    expect((await t.db.selectFrom('tasks').select('sessionCount').where('id', '=', task).executeTakeFirstOrThrow()).sessionCount).toBe(4);
  });
});
