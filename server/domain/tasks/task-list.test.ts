import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../testing/database';
import { checkBlockerIds, copyTitle, MAX_TASK_TITLE, normaliseTaskTags, parseStatusFilter } from './rules';
import { taskListQuery } from './task-crud';
import { OPEN_TASK_STATUSES, taskOrder } from './task-sort';
import { invalidFieldOf } from '../../testing/errors';

const t = useTestDatabase({ workspace: { plan: 'free', timezone: 'UTC' } });

describe('the GET /tasks page query', () => {
  it('serves every filter from an index without a sort step', async () => {
    const cases = [
      { statuses: parseStatusFilter(undefined), index: 'tasks_created' },
      { statuses: parseStatusFilter('queued,in_progress'), index: 'tasks_created' },
      { statuses: parseStatusFilter('queued'), index: 'tasks_status_created' },
    ];
    for (const c of cases) {
      for (const after of [undefined, ['2026-03-10T12:00:00.000Z', 'tsk_x'] as const]) {
        const compiled = taskListQuery(t.db, c.statuses, 50, after).compile();
        const { rows } = await t.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]));
        const plan = rows.map((r) => r.detail).join('\n');
        expect(plan, c.statuses.join(',')).toContain(`USING INDEX ${c.index}`);
        expect(plan).not.toMatch(/TEMP B-TREE/);
      }
    }
  });
});

describe('the smart order\'s open-work page', () => {
  it('reads the open statuses from the status index, never walking every task', async () => {
    const compiled = taskListQuery(t.db, OPEN_TASK_STATUSES, 50, undefined, undefined, undefined, taskOrder('smart', ['launch']), true).compile();
    const { rows } = await t.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]));
    const plan = rows.map((r) => r.detail).join('\n');
    expect(plan).toMatch(/SEARCH tasks USING INDEX tasks_status_\w+ \(status=\?/);
    expect(plan).not.toMatch(/SCAN tasks/);
  });
});

describe('task rules', () => {
  it('tags, blockers, status filter, copy title', async () => {
    expect(normaliseTaskTags([' a-b ', 'a-b', 'c1'])).toEqual(['a-b', 'c1']);
    expect(invalidFieldOf(() => normaliseTaskTags(['a_b']))).toBe('tags[0]');
    expect(invalidFieldOf(() => checkBlockerIds('tsk_1', ['tsk_1']))).toBe('blockedByTaskIds');
    expect(checkBlockerIds('tsk_1', Array.from({ length: 8 }, (_, i) => `b${i}`))).toHaveLength(8);
    expect(invalidFieldOf(() => checkBlockerIds('tsk_1', Array.from({ length: 9 }, (_, i) => `b${i}`)))).toBe('blockedByTaskIds');
    expect(invalidFieldOf(() => parseStatusFilter('queued,nope'))).toBe('status');
    expect(copyTitle('Plan')).toBe('Plan (copy)');
    expect([...copyTitle('é'.repeat(MAX_TASK_TITLE))].length).toBe(MAX_TASK_TITLE);
  });
});
