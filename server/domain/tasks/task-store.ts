import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import { insertRow, runStatement } from '../../../db/compiled';
import type { Db } from '../../../db/connection';
import type { TaskNoteTable, TaskTable, TaskWorkLogTable } from '../../../db/schema';
import type { Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { notFound } from '../../core/errors';
import { recordActivity, type Actor } from '../activity/activity';
import { readCostHistory, type CostPoint } from '../cost/cost-series';
import type { TaskCharge } from '../cost/cost-ledger';
import type { CostAmount } from '../cost/rules';
import type { ActivityKind } from '../catalog/activity-kinds';
import { usd, type TaskDeliverableType, type TaskKind, type TaskPriority, type TaskStatus } from './rules';

/** SQL of the tasks, task_tags, task_blockers, task_notes and task_work_log tables (their one writer), and the task the API shows. */

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

/** Inserts a new task's row and its tags, each statement compiled once per shape (an AI cycle creates up to a thousand tasks in one apply). */
export async function insertTaskRow(trx: Trx, row: Insertable<TaskTable>, tags: readonly string[]): Promise<void> {
  await insertRow(trx, 'tasks', row);
  // A new id has no tags to replace (setTags' delete would find nothing).
  for (const tag of tags) await insertRow(trx, 'taskTags', { taskId: row.id, tag });
}

/** Inserts whole task rows as given (the bench and fixtures: explicit ids and times), one statement. */
export async function insertTaskRows(trx: Trx, rows: Insertable<TaskTable>[]): Promise<void> {
  await trx.insertInto('tasks').values(rows).execute();
}

/** Inserts tag rows of new tasks, one statement. */
export async function insertTaskTagRows(trx: Trx, rows: { taskId: string; tag: string }[]): Promise<void> {
  await trx.insertInto('taskTags').values(rows).execute();
}

export async function addTaskTag(trx: Trx, taskId: string, tag: string): Promise<void> {
  await trx.insertInto('taskTags').values({ taskId, tag }).execute();
}

export async function removeTaskTag(trx: Trx, taskId: string, tag: string): Promise<void> {
  await trx.deleteFrom('taskTags').where('taskId', '=', taskId).where('tag', '=', tag).execute();
}

/** Renames a tag on every task: tasks carrying both first lose `from` (merged), the rest are renamed. */
export async function renameTaskTag(trx: Trx, from: string, to: string): Promise<{ renamed: number; merged: number }> {
  const merged = await sql`DELETE FROM task_tags WHERE tag = ${from} AND task_id IN (SELECT task_id FROM task_tags WHERE tag = ${to})`.execute(trx);
  const renamed = await sql`UPDATE task_tags SET tag = ${to} WHERE tag = ${from}`.execute(trx);
  return { renamed: Number(renamed.numAffectedRows ?? 0), merged: Number(merged.numAffectedRows ?? 0) };
}

/** Sets columns of one task as given (no updatedAt bump: touchTask for a change the operator sees). */
export async function updateTask(trx: Trx, id: string, change: Updateable<TaskTable>): Promise<void> {
  await trx.updateTable('tasks').set(change).where('id', '=', id).execute();
}

/**
 * touchTask's update with a new status, as a template: an AI cycle moves dozens of tasks in one
 * apply, and the query builder cost more than the update.
 */
export async function setTaskStatus(trx: Trx, id: string, status: TaskStatus, now: string): Promise<void> {
  await sql`update tasks set status = ${status}, updated_at = ${now}, archive_warned_at = null where id = ${id}`.execute(trx);
}

/** Archives a task without bumping updatedAt (the task stays as old as it was). */
export async function archiveTaskRow(trx: Trx, id: string, now: string, bySweep: boolean): Promise<void> {
  await trx.updateTable('tasks').set({ status: 'archived', archivedAt: now, archivedBySweep: bySweep ? 1 : 0, archiveWarnedAt: null }).where('id', '=', id).execute();
}

export async function deleteTaskRow(trx: Trx, id: string): Promise<void> {
  await trx.deleteFrom('tasks').where('id', '=', id).execute();
}

/** What touchTask writes for a task an AI cycle touched (inputs, updatedAt, the archive warning cleared), as fixed SQL. */
const TOUCH = 'update tasks set source_signal_ids = ?, source_memory_ids = ?, updated_at = ?, archive_warned_at = null where id = ?';
const TOUCH_WITH_PRIORITY = 'update tasks set source_signal_ids = ?, source_memory_ids = ?, updated_at = ?, archive_warned_at = null, priority = ? where id = ?';

/** A cycle's inputs of a task (JSON id lists) and its priority when the cycle set one. */
export async function touchTaskInputs(trx: Trx, id: string, signalIds: string, memoryIds: string, now: string, priority: TaskPriority | null): Promise<void> {
  if (priority) await runStatement(trx, TOUCH_WITH_PRIORITY, [signalIds, memoryIds, now, priority, id]);
  else await runStatement(trx, TOUCH, [signalIds, memoryIds, now, id]);
}

/** The cost ledger's running totals of a task, as fixed SQL (one per task a cycle charged). */
const ADD_TO_TASK =
  'update tasks set total_input_tokens = total_input_tokens + ?, total_output_tokens = total_output_tokens + ?, cost_micro_usd = cost_micro_usd + ?, session_count = session_count + ? where id = ?';

export async function addTaskCost(trx: Trx, id: string, amount: CostAmount, worked: boolean): Promise<void> {
  await runStatement(trx, ADD_TO_TASK, [amount.inputTokens, amount.outputTokens, amount.costMicroUsd, worked ? 1 : 0, id]);
}

/** A cycle's charges on the tasks' running totals and session counts (the ledger writes the daily buckets). */
export async function addTaskCharges(trx: Trx, breathe: () => Promise<void>, charges: readonly TaskCharge[]): Promise<void> {
  for (const t of charges) {
    await breathe();
    await addTaskCost(trx, t.taskId, t.amount, t.worked);
  }
}

/** Replaces what a task waits on. */
export async function replaceBlockers(trx: Trx, taskId: string, blockerIds: readonly string[]): Promise<void> {
  await trx.deleteFrom('taskBlockers').where('taskId', '=', taskId).execute();
  if (blockerIds.length) await insertBlockerRows(trx, blockerIds.map((b) => ({ taskId, blockerTaskId: b })));
}

export async function insertBlockerRows(trx: Trx, rows: { taskId: string; blockerTaskId: string }[]): Promise<void> {
  await trx.insertInto('taskBlockers').values(rows).execute();
}

export async function insertTaskNote(trx: Trx, row: Insertable<TaskNoteTable>): Promise<void> {
  await trx.insertInto('taskNotes').values(row).execute();
}

/** Notes a cycle read are consumed by it (those already consumed keep their run). */
export async function consumeNotes(trx: Trx, ids: string[], at: string, runId: string): Promise<void> {
  await trx.updateTable('taskNotes').set({ consumedAt: at, consumedRunId: runId }).where('id', 'in', ids).where('consumedAt', 'is', null).execute();
}

/** A cycle's work-log line, compiled once per shape (one per task a cycle touched). */
export async function insertWorkLogEntry(trx: Trx, row: Insertable<TaskWorkLogTable>): Promise<void> {
  await insertRow(trx, 'taskWorkLog', row);
}
