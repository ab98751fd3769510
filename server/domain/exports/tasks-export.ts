import type { Db } from '../../../db/connection';
import type { CsvColumn } from '../../core/csv';
import { afterKey, type CursorKey } from '../../core/lists';
import type { TaskDeliverableType, TaskKind, TaskPriority, TaskStatus } from '../tasks/rules';
import { pagedRows, type StreamedExport } from './paged';
import { EXPORT_MAX_ROWS, joinCell } from './rules';

/** One row of GET /workspace/tasks-export. */
export interface TaskExportRow {
  id: string;
  title: string;
  summary: string;
  kind: TaskKind | null;
  deliverableType: TaskDeliverableType | null;
  status: TaskStatus;
  priority: TaskPriority | null;
  assignedToUserId: string | null;
  /** The assignee's name; null when unassigned. */
  assigneeName: string | null;
  tags: string[];
  pinned: boolean;
  /** @format date-time */
  dueAt: string | null;
  /** Set when the stale sweep archived it. @format date-time */
  archivedAt: string | null;
  /** @isInt */
  totalInputTokens: number;
  /** @isInt */
  totalOutputTokens: number;
  /** USD, 6 decimals. */
  estimatedCostUsd: number;
  /** AI cycles that worked on the task. @isInt */
  sessionCount: number;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}

export interface TasksExport {
  /** Newest task first, at most 5000. */
  rows: TaskExportRow[];
  /** Every task (done and archived included). @isInt */
  total: number;
  /** true when total is above the 5000-row cap (the oldest tasks are left out). */
  capped: boolean;
}

/** Newest first, at most `cap`, a page at a time by keyset over index tasks_created (created_at, id). */
export async function streamTasks(db: Db, cap = EXPORT_MAX_ROWS): Promise<StreamedExport<TasksExport>> {
  const count = await db.selectFrom('tasks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const total = Number(count.n);
  const readPage = async (after: CursorKey | undefined, limit: number): Promise<TaskExportRow[]> => {
    let query = db
      .selectFrom('tasks')
      .leftJoin('users', 'users.id', 'tasks.assignedToUserId')
      .select([
        'tasks.id',
        'tasks.title',
        'tasks.summary',
        'tasks.kind',
        'tasks.deliverableType',
        'tasks.status',
        'tasks.priority',
        'tasks.assignedToUserId',
        'users.name as assigneeName',
        'tasks.pinned',
        'tasks.dueAt',
        'tasks.archivedAt',
        'tasks.totalInputTokens',
        'tasks.totalOutputTokens',
        'tasks.costMicroUsd',
        'tasks.sessionCount',
        'tasks.createdAt',
        'tasks.updatedAt',
      ]);
    if (after !== undefined) query = query.where(afterKey(['tasks.created_at', 'tasks.id'], after, 'desc'));
    const rows = await query.orderBy('tasks.createdAt', 'desc').orderBy('tasks.id', 'desc').limit(limit).execute();
    const tags = new Map<string, string[]>();
    if (rows.length > 0) {
      const found = await db.selectFrom('taskTags').select(['taskId', 'tag']).where('taskId', 'in', rows.map((r) => r.id)).orderBy('taskId').orderBy('tag').execute();
      for (const t of found) tags.set(t.taskId, [...(tags.get(t.taskId) ?? []), t.tag]);
    }
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      summary: r.summary,
      kind: r.kind,
      deliverableType: r.deliverableType,
      status: r.status,
      priority: r.priority,
      assignedToUserId: r.assignedToUserId,
      assigneeName: r.assignedToUserId === null ? null : (r.assigneeName ?? r.assignedToUserId),
      tags: tags.get(r.id) ?? [],
      pinned: r.pinned === 1,
      dueAt: r.dueAt,
      archivedAt: r.archivedAt,
      totalInputTokens: r.totalInputTokens,
      totalOutputTokens: r.totalOutputTokens,
      estimatedCostUsd: Math.round(r.costMicroUsd) / 1_000_000,
      sessionCount: r.sessionCount,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    }));
  };
  return { rows: pagedRows(readPage, (r) => [r.createdAt, r.id], cap), total, capped: total > cap };
}

/** CSV columns; tags joined with `; `. */
export const TASK_CSV_COLUMNS: readonly CsvColumn<TaskExportRow>[] = [
  { header: 'id', value: (r) => r.id },
  { header: 'title', value: (r) => r.title },
  { header: 'summary', value: (r) => r.summary },
  { header: 'kind', value: (r) => r.kind },
  { header: 'deliverableType', value: (r) => r.deliverableType },
  { header: 'status', value: (r) => r.status },
  { header: 'priority', value: (r) => r.priority },
  { header: 'assignedToUserId', value: (r) => r.assignedToUserId },
  { header: 'assigneeName', value: (r) => r.assigneeName },
  { header: 'tags', value: (r) => joinCell(r.tags) },
  { header: 'pinned', value: (r) => r.pinned },
  { header: 'dueAt', value: (r) => r.dueAt },
  { header: 'archivedAt', value: (r) => r.archivedAt },
  { header: 'totalInputTokens', value: (r) => r.totalInputTokens },
  { header: 'totalOutputTokens', value: (r) => r.totalOutputTokens },
  { header: 'estimatedCostUsd', value: (r) => r.estimatedCostUsd },
  { header: 'sessionCount', value: (r) => r.sessionCount },
  { header: 'createdAt', value: (r) => r.createdAt },
  { header: 'updatedAt', value: (r) => r.updatedAt },
];
