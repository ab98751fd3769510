import type { Db } from '../../../db/connection';
import type { CsvColumn } from '../../core/csv';
import { calendarDaysSince, daysBefore } from '../../core/workspace-time';
import { checkIntIn, type TaskPriority, type TaskStatus } from '../tasks/rules';
import { toTasks } from '../tasks/task-store';
import { EXPORT_MAX_ROWS, joinCell, STALE_EXPORT_THRESHOLD } from './rules';

/** One row of GET /workspace/stale-tasks-export: a stale task and its cost so far. */
export interface StaleTaskExportRow {
  id: string;
  title: string;
  status: TaskStatus;
  priority: TaskPriority | null;
  assignedToUserId: string | null;
  /** The assignee's name; null when unassigned. */
  assigneeName: string | null;
  tags: string[];
  /** @format date-time */
  dueAt: string | null;
  /** @format date-time */
  createdAt: string;
  /** Staleness is measured from it. @format date-time */
  updatedAt: string;
  /** Whole days since updatedAt. @isInt */
  daysStale: number;
  /** @isInt */
  totalInputTokens: number;
  /** @isInt */
  totalOutputTokens: number;
  /** USD, 6 decimals. */
  estimatedCostUsd: number;
  /** AI cycles that worked on the task. @isInt */
  sessionCount: number;
  /** estimatedCostUsd / sessionCount; 0 before the first session. */
  costPerSessionUsd: number;
}

export interface StaleTasksExport {
  /** The threshold applied, in days. @isInt */
  thresholdDays: number;
  /** Longest untouched first, at most 5000. */
  rows: StaleTaskExportRow[];
  /** Stale tasks at this threshold. @isInt */
  total: number;
  /** true when total is above the 5000-row cap (the most recently touched are left out). */
  capped: boolean;
}

/**
 * The stale list's rule (task-staleness.ts): queued and in_progress tasks, not pinned, whose
 * updatedAt is more than thresholdDays calendar days (workspace timezone) before now.
 */
export async function exportStaleTasks(db: Db, now: Date, timezone: string, thresholdDays: number = STALE_EXPORT_THRESHOLD.default, cap = EXPORT_MAX_ROWS): Promise<StaleTasksExport> {
  checkIntIn('thresholdDays', thresholdDays, STALE_EXPORT_THRESHOLD);
  const cutoff = daysBefore(now, timezone, thresholdDays).toISOString();
  const stale = () => db.selectFrom('tasks').where('status', 'in', ['queued', 'in_progress']).where('pinned', '=', 0).where('updatedAt', '<', cutoff);
  const [rows, count] = await Promise.all([
    stale().selectAll().orderBy('updatedAt', 'asc').orderBy('id', 'asc').limit(cap).execute(),
    stale()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const tasks = [];
  for (let i = 0; i < rows.length; i += 500) tasks.push(...(await toTasks(db, rows.slice(i, i + 500))));
  const assignees = [...new Set(tasks.flatMap((t) => (t.assignedToUserId ? [t.assignedToUserId] : [])))];
  const names = new Map(assignees.length ? (await db.selectFrom('users').select(['id', 'name']).where('id', 'in', assignees).execute()).map((u) => [u.id, u.name]) : []);
  const total = Number(count.n);
  return {
    thresholdDays,
    rows: tasks.map((t) => ({
      id: t.id,
      title: t.title,
      status: t.status,
      priority: t.priority,
      assignedToUserId: t.assignedToUserId,
      assigneeName: t.assignedToUserId ? (names.get(t.assignedToUserId) ?? null) : null,
      tags: t.tags,
      dueAt: t.dueAt,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt,
      daysStale: calendarDaysSince(new Date(t.updatedAt), now, timezone),
      ...t.cost,
    })),
    total,
    capped: total > cap,
  };
}

export const STALE_TASK_CSV_COLUMNS: readonly CsvColumn<StaleTaskExportRow>[] = [
  { header: 'id', value: (r) => r.id },
  { header: 'title', value: (r) => r.title },
  { header: 'status', value: (r) => r.status },
  { header: 'priority', value: (r) => r.priority },
  { header: 'assignedToUserId', value: (r) => r.assignedToUserId },
  { header: 'assigneeName', value: (r) => r.assigneeName },
  { header: 'tags', value: (r) => joinCell(r.tags) },
  { header: 'dueAt', value: (r) => r.dueAt },
  { header: 'createdAt', value: (r) => r.createdAt },
  { header: 'updatedAt', value: (r) => r.updatedAt },
  { header: 'daysStale', value: (r) => r.daysStale },
  { header: 'totalInputTokens', value: (r) => r.totalInputTokens },
  { header: 'totalOutputTokens', value: (r) => r.totalOutputTokens },
  { header: 'estimatedCostUsd', value: (r) => r.estimatedCostUsd },
  { header: 'sessionCount', value: (r) => r.sessionCount },
  { header: 'costPerSessionUsd', value: (r) => r.costPerSessionUsd },
];
