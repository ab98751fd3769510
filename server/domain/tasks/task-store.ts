import type { Selectable } from 'kysely';
import type { Db } from '../../../db/connection';
import type { TaskTable } from '../../../db/schema';
import type { Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { notFound } from '../../core/errors';
import { recordActivity, type Actor } from '../activity/activity';
import { readCostHistory, type CostPoint } from '../cost/cost-series';
import type { ActivityKind } from '../catalog/activity-kinds';
import { usd, type TaskDeliverableType, type TaskKind, type TaskPriority, type TaskStatus } from './rules';

export type TaskRow = Selectable<TaskTable>;

/** A task's cost so far (integer tokens; USD rounded to 6 decimals, from micro-USD). */
export interface TaskCost {
  totalInputTokens: number;
  totalOutputTokens: number;
  estimatedCostUsd: number;
  /** AI cycles that worked on the task. */
  sessionCount: number;
  /** estimatedCostUsd / sessionCount; 0 before the first session. */
  costPerSessionUsd: number;
}

/** A task as lists show it. */
export interface Task {
  id: string;
  title: string;
  summary: string;
  kind: TaskKind | null;
  deliverableType: TaskDeliverableType | null;
  priority: TaskPriority | null;
  /** @format date-time */
  dueAt: string | null;
  status: TaskStatus;
  /** null: unassigned. */
  assignedToUserId: string | null;
  goal: string;
  context: string;
  pinned: boolean;
  tags: string[];
  /** Tasks this one waits on (at most 8). */
  blockedByTaskIds: string[];
  /** true while any of blockedByTaskIds is not done: the AI cycle skips the task. */
  blocked: boolean;
  sourceSignalIds: string[];
  sourceMemoryIds: string[];
  /** Set when the stale sweep has warned that it will archive the task; cleared by any change or renew. @format date-time */
  archiveWarnedAt: string | null;
  /** @format date-time */
  archivedAt: string | null;
  /** true when the stale auto-archive sweep archived it. */
  archivedBySweep: boolean;
  cost: TaskCost;
  /** @format date-time */
  createdAt: string;
  /** Bumped by every change and by renew; staleness is measured from it. @format date-time */
  updatedAt: string;
}

export interface TaskMember {
  id: string;
  name: string;
}

export interface TaskBlockerRef {
  id: string;
  title: string;
  status: TaskStatus;
}

/** Whether the public pages of the task are shared (the tokens are the links' secrets). */
export interface TaskShareState {
  workLogShared: boolean;
  publicWorkLogToken: string | null;
  timelineShared: boolean;
  publicTimelineToken: string | null;
}

/** One task with what its page shows: assignee, blockers, notes count, share state, daily cost. */
export interface TaskDetail extends Task {
  assignee: TaskMember | null;
  blockers: TaskBlockerRef[];
  notesCount: number;
  share: TaskShareState;
  /**
   * The task's daily cost buckets: each workspace-timezone day an AI cycle charged it, oldest
   * first, at most the newest 90 such days (days without cost are not listed; GET
   * /tasks/{id}/cost-trajectory gives a zero-filled window).
   */
  dailyCostHistory: CostPoint[];
}

const parseIds = (json: string): string[] => {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
};

export function costOf(r: TaskRow): TaskCost {
  const total = usd(r.costMicroUsd);
  return {
    totalInputTokens: r.totalInputTokens,
    totalOutputTokens: r.totalOutputTokens,
    estimatedCostUsd: total,
    sessionCount: r.sessionCount,
    costPerSessionUsd: r.sessionCount > 0 ? usd(r.costMicroUsd / r.sessionCount) : 0,
  };
}

/** Tags and blockers of a page of tasks, in two queries (primary-key prefixes). */
export async function toTasks(db: Db, rows: TaskRow[]): Promise<Task[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [tags, blockers] = await Promise.all([
    db.selectFrom('taskTags').select(['taskId', 'tag']).where('taskId', 'in', ids).orderBy('taskId').orderBy('tag').execute(),
    db
      .selectFrom('taskBlockers')
      .innerJoin('tasks as b', 'b.id', 'taskBlockers.blockerTaskId')
      .select(['taskBlockers.taskId', 'taskBlockers.blockerTaskId', 'b.status'])
      .where('taskBlockers.taskId', 'in', ids)
      .orderBy('taskBlockers.taskId')
      .orderBy('taskBlockers.blockerTaskId')
      .execute(),
  ]);
  const tagsOf = new Map<string, string[]>();
  for (const t of tags) tagsOf.set(t.taskId, [...(tagsOf.get(t.taskId) ?? []), t.tag]);
  const blockersOf = new Map<string, { id: string; done: boolean }[]>();
  for (const b of blockers) blockersOf.set(b.taskId, [...(blockersOf.get(b.taskId) ?? []), { id: b.blockerTaskId, done: b.status === 'done' }]);
  return rows.map((r) => {
    const bl = blockersOf.get(r.id) ?? [];
    return {
      id: r.id,
      title: r.title,
      summary: r.summary,
      kind: r.kind,
      deliverableType: r.deliverableType,
      priority: r.priority,
      dueAt: r.dueAt,
      status: r.status,
      assignedToUserId: r.assignedToUserId,
      goal: r.goal,
      context: r.context,
      pinned: r.pinned === 1,
      tags: tagsOf.get(r.id) ?? [],
      blockedByTaskIds: bl.map((b) => b.id),
      blocked: bl.some((b) => !b.done),
      sourceSignalIds: parseIds(r.sourceSignalIds),
      sourceMemoryIds: parseIds(r.sourceMemoryIds),
      archiveWarnedAt: r.archiveWarnedAt,
      archivedAt: r.archivedAt,
      archivedBySweep: r.archivedBySweep === 1,
      cost: costOf(r),
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    };
  });
}

/** The task row, or 404 `task_not_found`. Pass the transaction when inside one. */
export async function getTaskRow(db: Db, id: string): Promise<TaskRow> {
  const row = await db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('task', id);
  return row;
}

export async function readTask(db: Db, id: string): Promise<Task> {
  return (await toTasks(db, [await getTaskRow(db, id)]))[0];
}

export async function readTaskDetail(db: Db, id: string): Promise<TaskDetail> {
  const row = await getTaskRow(db, id);
  const [task] = await toTasks(db, [row]);
  const [assignee, blockers, notes, dailyCostHistory] = await Promise.all([
    row.assignedToUserId ? db.selectFrom('users').select(['id', 'name']).where('id', '=', row.assignedToUserId).executeTakeFirst() : undefined,
    db
      .selectFrom('taskBlockers')
      .innerJoin('tasks as b', 'b.id', 'taskBlockers.blockerTaskId')
      .select(['b.id', 'b.title', 'b.status'])
      .where('taskBlockers.taskId', '=', id)
      .orderBy('b.id')
      .execute(),
    db.selectFrom('taskNotes').select((eb) => eb.fn.countAll<number>().as('n')).where('taskId', '=', id).executeTakeFirstOrThrow(),
    readCostHistory(db, 'task', id),
  ]);
  return {
    ...task,
    assignee: assignee ?? null,
    blockers,
    notesCount: Number(notes.n),
    share: {
      workLogShared: row.publicWorkLogToken !== null,
      publicWorkLogToken: row.publicWorkLogToken,
      timelineShared: row.publicTimelineToken !== null,
      publicTimelineToken: row.publicTimelineToken,
    },
    dailyCostHistory,
  };
}

/** Bumps updatedAt (staleness restarts) and clears any archive warning: every change to a task does this. */
export async function touchTask(trx: Trx, id: string, now: string, extra: Partial<Omit<TaskRow, 'id'>> = {}): Promise<void> {
  await trx
    .updateTable('tasks')
    .set({ ...extra, updatedAt: now, archiveWarnedAt: null })
    .where('id', '=', id)
    .execute();
}

/** One activity row about a task. */
export function taskActivity(trx: Trx, clock: Clock, actor: Actor, task: { id: string }, kind: ActivityKind, detail: string) {
  return recordActivity(trx, clock, { kind, detail, actor, entityType: 'task', entityId: task.id });
}

export async function setTags(trx: Trx, taskId: string, tags: string[]): Promise<void> {
  await trx.deleteFrom('taskTags').where('taskId', '=', taskId).execute();
  if (tags.length > 0) await trx.insertInto('taskTags').values(tags.map((tag) => ({ taskId, tag }))).execute();
}

/**
 * The columns of a new task that the operator does not choose: queued, unpinned, no inputs, not
 * shared, no cost. One place for them, used by task creation (and by fixtures and the bench).
 */
export function newTaskDefaults(now: string) {
  return {
    status: 'queued' as const,
    pinned: 0,
    sourceSignalIds: '[]',
    sourceMemoryIds: '[]',
    archiveWarnedAt: null,
    archivedAt: null,
    archivedBySweep: 0,
    publicWorkLogToken: null,
    publicTimelineToken: null,
    totalInputTokens: 0,
    totalOutputTokens: 0,
    costMicroUsd: 0,
    sessionCount: 0,
    createdAt: now,
    updatedAt: now,
  };
}
