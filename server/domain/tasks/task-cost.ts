/**
 * What tasks have cost: one task so far and day by day, and the tasks that cost most. The tasks
 * area reads the cost ledger's daily rows (cost/), which know nothing of tasks.
 */
import { lastDays, type Day } from '../../core/workspace-time';
import { countedStatuses } from '../cost/cost-breakdowns';
import { readCostSeries, readKeySeries, toCents, toPoints } from '../cost/cost-series';
import type { TaskCostTrajectory } from '../cost/cost-views';
import { checkCostParam, COST_TRAJECTORY_DAYS, TOP_COST_TASKS_LIMIT, TOP_COST_TRAJECTORY_DAYS } from '../cost/rules';
import type { TaskDeps } from './task-crud';
import { costOf, getTaskRow, toTasks, type Task, type TaskCost } from './task-store';

export interface TopCostTask extends Task {
  /**
   * Daily spend of the task over the last 7 workspace days in whole cents, oldest first, today last, zero-filled.
   * @isInt
   */
  trajectory7d: number[];
}

export interface TopCostTaskList {
  includeDone: boolean;
  /** Most cumulative cost first (ties: id); tasks without cost are left out. */
  tasks: TopCostTask[];
}

export class TaskCosts {
  constructor(private readonly deps: TaskDeps) {}

  async cost(taskId: string): Promise<TaskCost> {
    return costOf(await getTaskRow(this.deps.db, taskId));
  }

  async trajectory(taskId: string, daysIn?: number): Promise<TaskCostTrajectory> {
    const days = checkCostParam('days', daysIn, COST_TRAJECTORY_DAYS);
    await getTaskRow(this.deps.db, taskId);
    return { taskId, days, points: toPoints(await readKeySeries(this.deps.db, 'task', taskId, await this.window(days))) };
  }

  /** Tasks by cumulative cost (open ones unless includeDone), each with its last 7 days in cents. */
  async top(query: { limit?: number; includeDone?: boolean } = {}): Promise<TopCostTaskList> {
    const limit = checkCostParam('limit', query.limit, TOP_COST_TASKS_LIMIT);
    const includeDone = query.includeDone ?? false;
    const { db } = this.deps;
    const rows = await db
      .selectFrom('tasks')
      .selectAll()
      .where('status', 'in', countedStatuses(includeDone))
      .where('costMicroUsd', '>', 0)
      .orderBy('costMicroUsd', 'desc')
      .orderBy('id')
      .limit(limit)
      .execute();
    const tasks = await toTasks(db, rows);
    const window = await this.window(TOP_COST_TRAJECTORY_DAYS);
    const series = await readCostSeries(db, 'task', tasks.map((t) => t.id), window);
    return { includeDone, tasks: tasks.map((t) => ({ ...t, trajectory7d: toCents(series.get(t.id) ?? []) })) };
  }

  /** The last `days` workspace days, today last. */
  private async window(days: number): Promise<Day[]> {
    const { timezone } = await this.deps.workspace.profile();
    return lastDays(this.deps.clock.now(), timezone, days);
  }
}
