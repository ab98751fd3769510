import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../core/clock';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { buildDataset, DATASET_START, planFor } from './dataset';

/** The generator builds what it promises, at a tiny scale (so it cannot silently rot). */
describe('full-size dataset generator (scale 0.001)', () => {
  let desk: TestDesk;
  const plan = planFor(0.001);
  const count = async (table: string, where = sql`1 = 1`) =>
    Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where ${where}`.execute(desk.services.db)).rows[0].n);

  beforeAll(async () => {
    desk = await startTestDesk({ clock: new ManualClock(DATASET_START) });
    await buildDataset(desk, plan);
  }, 120_000);
  afterAll(async () => {
    const dir = desk.dataDir;
    await desk.stop();
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('plans the counts of the issue scaled down', () => {
    expect(plan).toEqual({ scale: 0.001, sources: 1, signals: 100, tasks: 20, artifacts: 10, memory: 5, subscriptions: 1, members: 5 });
    expect(planFor(1)).toMatchObject({ sources: 200, signals: 100_000, tasks: 20_000, artifacts: 10_000, memory: 5_000, subscriptions: 20 });
  });

  it('writes every planned row through the services', async () => {
    expect(await count('sources')).toBe(plan.sources);
    expect(await count('signals')).toBe(plan.signals);
    expect(await count('signals', sql`source_id is not null`)).toBe(plan.signals);
    expect(await count('signals', sql`triaged_at is null`)).toBe(0);
    expect(await count('tasks')).toBe(plan.tasks);
    expect(await count('artifacts')).toBe(plan.artifacts);
    expect(await count('memory')).toBe(plan.memory);
    expect(await count('users')).toBe(1 + plan.members);
    expect(await count('outbound_subscriptions')).toBe(plan.subscriptions);
    expect(await count('runs', sql`status = 'completed'`)).toBe(180);
  });

  it('has the team work, decisions, retrievals, cost and deliveries a year of use leaves', async () => {
    expect(await count('task_notes')).toBeGreaterThan(0);
    expect(await count('task_comments')).toBeGreaterThan(0);
    expect(await count('artifacts', sql`status in ('approved', 'archived')`)).toBeGreaterThan(0);
    expect(await count('memory_retrieval_daily')).toBeGreaterThan(0);
    expect(await count('outbound_deliveries', sql`state = 'succeeded'`)).toBeGreaterThan(0);
    const dims = await sql<{ dimension: string }>`select distinct dimension from cost_daily order by dimension`.execute(desk.services.db);
    expect(dims.rows.map((r) => r.dimension)).toEqual(expect.arrayContaining(['workspace', 'task', 'source', 'tag', 'assignee']));
    const days = await sql<{ n: number }>`select count(distinct day) as n from cost_daily`.execute(desk.services.db);
    expect(Number(days.rows[0].n)).toBe(90);
    // Activity rows come from the changes: every signal batch, task, output, note, comment and decision.
    expect(await count('activity')).toBeGreaterThan(plan.tasks + plan.artifacts);
  });
});
