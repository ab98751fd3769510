import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../testing/database';
import { newTaskDefaults } from '../tasks/task-store';
import { readWorkspace } from '../workspace/workspace-store';
import { gatherState } from './gather';
import { MAX_OPEN_TASKS_PER_CYCLE } from './rules';

const t = useTestDatabase({ workspace: { plan: 'free', timezone: 'UTC' } });

describe('gather', () => {
  it('takes the oldest open tasks of every open status up to the cap, ties on createdAt by id', async () => {
    const statuses = ['queued', 'in_progress', 'needs_input', 'done', 'archived'] as const;
    const rows = Array.from({ length: MAX_OPEN_TASKS_PER_CYCLE + 400 }, (_, i) => {
      // Pairs share a createdAt (the id decides), statuses interleave, and the newest are mostly queued.
      const createdAt = new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 2) * 60_000).toISOString();
      const status = i >= MAX_OPEN_TASKS_PER_CYCLE ? 'queued' : statuses[(i * 7) % statuses.length];
      return { ...newTaskDefaults(createdAt), id: `tsk_gather_${String(1000 - (i % 2) * 500 + i).padStart(5, '0')}`, title: `Task ${i}`, summary: '', kind: null, deliverableType: null, priority: null, dueAt: null, assignedToUserId: null, goal: '', context: '', status };
    });
    for (let s = 0; s < rows.length; s += 100) await t.db.insertInto('tasks').values(rows.slice(s, s + 100)).execute();
    const expected = rows
      .filter((r) => r.status === 'queued' || r.status === 'in_progress' || r.status === 'needs_input')
      .sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1))
      .slice(0, MAX_OPEN_TASKS_PER_CYCLE)
      .map((r) => r.id);
    const state = await gatherState(t.db, await readWorkspace(t.db));
    expect(state.tasks).toHaveLength(MAX_OPEN_TASKS_PER_CYCLE);
    // Ranked by the cycle rules (same priority here: oldest first), so the order is the expected one too.
    expect(state.tasks.map((task) => task.id)).toEqual(expected);
    expect(new Set(state.tasks.map((task) => task.status))).toEqual(new Set(['queued', 'in_progress', 'needs_input']));
  });
});
