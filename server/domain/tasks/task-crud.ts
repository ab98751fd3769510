import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import { inTransaction, type Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { checkEnum, invalid } from '../../core/errors';
import { newId } from '../../core/ids';
import { afterKeyOf, pageRequest, toPage, type CursorKey } from '../../core/lists';
import { parseIso } from '../../core/workspace-time';
import type { Actor } from '../activity/activity';
import { emit } from '../events/outbox';
import { resolveActor } from '../members/resolve-actor';
import type { WorkspaceService } from '../workspace/workspace-service';
import {
  checkBlockerIds,
  checkStatusMove,
  checkText,
  copyTitle,
  MAX_TASK_GOAL,
  MAX_TASK_SUMMARY,
  MAX_TASK_TITLE,
  normaliseTaskTags,
  parseStatusFilter,
  TASK_DELIVERABLE_TYPES,
  TASK_KINDS,
  TASK_LIST,
  TASK_PRIORITIES,
  TASK_STATUS_WORDS,
  checkTag,
  type TaskStatus,
} from './rules';
import { checkTaskSort, DEFAULT_TASK_SORT, OPEN_TASK_STATUSES, taskOrder, type TaskOrder, type TaskSort } from './task-sort';
import { archiveTaskRow, getTaskRow, insertTaskRow, newTaskDefaults, readTask, readTaskDetail, replaceBlockers, setTags, setTaskStatus, taskActivity, toTasks, touchTask, type Task, type TaskDetail, type TaskRow } from './task-store';

/** What every tasks module needs. */
export interface TaskDeps {
  db: Db;
  clock: Clock;
  workspace: WorkspaceService;
}

export interface CreateTaskInput {
  title: string;
  summary: string;
  kind?: string | null;
  deliverableType?: string | null;
  priority?: string | null;
  dueAt?: string | null;
  tags?: string[];
  goal?: string;
  context?: string;
  asUserId?: string;
}

export interface TaskListQuery {
  status?: string;
  assignedToUserId?: string;
  /** Only tasks carrying this tag. */
  tag?: string;
  /** The order (task-sort.ts); default created, newest first. */
  sort?: string;
  limit?: number;
  cursor?: string;
}

export interface TaskList {
  tasks: Task[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

/**
 * The page query of GET /tasks: newest first, a keyset on (created_at, id); served by tasks_created,
 * tasks_status_created or tasks_assignee_created (exported for the plan test and the bench).
 */
export function taskListQuery(
  db: Db,
  statuses: readonly TaskStatus[],
  limit: number,
  after?: CursorKey,
  assignedToUserId?: string,
  tag?: string,
  order: TaskOrder = taskOrder(DEFAULT_TASK_SORT, []),
  byStatus = false,
) {
  // One status: the range of tasks_status_created. Several: walk tasks_created in list order and
  // filter (`+status` keeps SQLite off the status index, whose IN ranges would need a sort of every match),
  // unless `byStatus`: a few statuses of few rows, sorted anyway (smart's open work).
  let q =
    statuses.length === 1
      ? db.selectFrom('tasks').selectAll().where('status', '=', statuses[0])
      : byStatus
        ? db.selectFrom('tasks').selectAll().where('status', 'in', statuses)
        : db.selectFrom('tasks').selectAll().where(sql<string>`+tasks.status`, 'in', statuses);
  if (assignedToUserId !== undefined) q = q.where('assignedToUserId', '=', assignedToUserId);
  // A tag filters the walk through task_tags' primary key (task_id, tag): one lookup per task.
  if (tag !== undefined) q = q.where(({ exists, selectFrom }) => exists(selectFrom('taskTags').select('taskTags.taskId').whereRef('taskTags.taskId', '=', 'tasks.id').where('taskTags.tag', '=', tag)));
  const keys = [...order.keys, sql`tasks.id`];
  if (after) q = q.where(afterKeyOf(keys, after, order.order));
  // The keys are selected too (sk0, sk1...): the page's cursor is the last row's keys.
  let ordered = q.select(order.keys.map((k, i) => k.as(`sk${i}`)));
  for (const k of keys) ordered = ordered.orderBy(k, order.order);
  return ordered.limit(limit + 1);
}

export const checkKind = (v: unknown) => (v === undefined || v === null ? null : checkEnum('kind', TASK_KINDS, v));
export const checkDeliverableType = (v: unknown) => (v === undefined || v === null ? null : checkEnum('deliverableType', TASK_DELIVERABLE_TYPES, v));
export const checkPriority = (v: unknown, field = 'priority') => (v === undefined || v === null ? null : checkEnum(field, TASK_PRIORITIES, v));

/** Tasks one at a time: list, read, create, status moves, assignee, tags, blockers, duplicate. */
export class TaskCrud {
  constructor(private readonly d: TaskDeps) {}

  async list(query: TaskListQuery = {}): Promise<TaskList> {
    const statuses = parseStatusFilter(query.status);
    const sort = checkTaskSort(query.sort);
    const order = taskOrder(sort, sort === 'smart' ? (await this.d.workspace.profile()).focusTags : []);
    const { limit, after } = pageRequest(TASK_LIST, query, order.shape);
    const tag = query.tag === undefined ? undefined : checkTag(query.tag, 'tag');
    const rows = (await this.openWorkPage(sort, statuses, limit, after, query.assignedToUserId, tag, order)) ?? (await taskListQuery(this.d.db, statuses, limit, after, query.assignedToUserId, tag, order).execute());
    const page = toPage(rows, limit, (r) => [...order.keys.map((_, i) => (r as unknown as Record<string, string | number>)[`sk${i}`]), r.id]);
    return { tasks: await toTasks(this.d.db, page.rows), nextCursor: page.nextCursor };
  }

  /**
   * smart puts open work first (its first key): while a page lies wholly among the open tasks, they
   * alone are read, a few hundred rows from the status index, instead of sorting every task (20k at
   * full size, most of them done). The same rows in the same order, as the open ones all come first;
   * null when the page reaches past them (or holds no open status), and the whole list is read.
   */
  private async openWorkPage(sort: TaskSort, statuses: readonly TaskStatus[], limit: number, after: CursorKey | undefined, assignedToUserId: string | undefined, tag: string | undefined, order: TaskOrder) {
    if (sort !== 'smart' || (after !== undefined && after[0] !== 0)) return null;
    const open = statuses.filter((s) => (OPEN_TASK_STATUSES as readonly string[]).includes(s));
    if (open.length === 0 || open.length === statuses.length) return null;
    const rows = await taskListQuery(this.d.db, open, limit, after, assignedToUserId, tag, order, true).execute();
    // limit + 1 rows: a full page and the next one exists among the open tasks too.
    return rows.length > limit ? rows : null;
  }

  get(id: string): Promise<TaskDetail> {
    return readTaskDetail(this.d.db, id);
  }

  async create(input: CreateTaskInput): Promise<TaskDetail> {
    const { db, clock } = this.d;
    const title = checkText('title', input.title, MAX_TASK_TITLE);
    const summary = checkText('summary', input.summary, MAX_TASK_SUMMARY);
    const kind = checkKind(input.kind);
    const deliverableType = checkDeliverableType(input.deliverableType);
    const priority = checkPriority(input.priority);
    const goal = input.goal === undefined ? '' : checkText('goal', input.goal, MAX_TASK_GOAL, false);
    const context = input.context === undefined ? '' : checkText('context', input.context, MAX_TASK_GOAL, false);
    const { timezone } = await this.d.workspace.profile();
    const dueAt = input.dueAt === undefined || input.dueAt === null ? null : parseIso('dueAt', input.dueAt, timezone).toISOString();
    const tags = normaliseTaskTags(input.tags ?? []);
    const id = await inTransaction(db, async (trx) => {
      const actor = await resolveActor(trx, input.asUserId);
      return insertTask(trx, clock, actor, { title, summary, kind, deliverableType, priority, dueAt, goal, context, assignedToUserId: null }, tags, null);
    });
    return readTaskDetail(db, id);
  }

  /**
   * PATCH {status}: free moves among queued, in_progress, needs_input and done; an archived task is
   * restored by any move. The same status is a no-op (no activity). A move to done makes eligible
   * every task whose last unfinished blocker this was (`task.unblocked`, once each).
   */
  async setStatus(id: string, status: unknown): Promise<TaskDetail> {
    const to = checkStatusMove(status);
    const { db, clock } = this.d;
    await inTransaction(db, async (trx) => {
      const row = await getTaskRow(trx, id);
      if (row.status === to) return;
      const actor = await resolveActor(trx);
      await changeStatus(trx, clock, actor, row, to, 'operator');
    });
    return readTaskDetail(db, id);
  }

  /** Assigns the task to a member (422 naming assignedToUserId for a non-member) or, with null, unassigns it. */
  async assign(id: string, assignedToUserId: string | null): Promise<TaskDetail> {
    const { db, clock } = this.d;
    await inTransaction(db, async (trx) => {
      const row = await getTaskRow(trx, id);
      const member = assignedToUserId === null ? null : await resolveActor(trx, assignedToUserId, 'assignedToUserId');
      const to = member?.userId ?? null;
      if (row.assignedToUserId === to) return;
      const actor = await resolveActor(trx);
      await touchTask(trx, id, clock.now().toISOString(), { assignedToUserId: to });
      await taskActivity(trx, clock, actor, row, 'task.assigned', member ? `Assigned ${row.title} to ${member.label}` : `Unassigned ${row.title}`);
      await emit(trx, clock, 'task.assigned', { taskId: id, title: row.title, assignedToUserId: to, previousAssignedToUserId: row.assignedToUserId });
    });
    return readTaskDetail(db, id);
  }

  /** Pins or unpins the task: pinned tasks stay out of the stale list and the auto-archive sweep. */
  async setPinned(id: string, pinned: unknown): Promise<TaskDetail> {
    if (typeof pinned !== 'boolean') throw invalid('pinned', 'must be true or false');
    const { db, clock } = this.d;
    await inTransaction(db, async (trx) => {
      const row = await getTaskRow(trx, id);
      if ((row.pinned === 1) === pinned) return;
      const actor = await resolveActor(trx);
      await touchTask(trx, id, clock.now().toISOString(), { pinned: pinned ? 1 : 0 });
      await taskActivity(trx, clock, actor, row, pinned ? 'task.pinned' : 'task.unpinned', `${pinned ? 'Pinned' : 'Unpinned'} ${row.title}`);
    });
    return readTaskDetail(db, id);
  }

  /** Replaces the tags (at most 10, lowercase-hyphen). */
  async setTags(id: string, tagsIn: unknown): Promise<TaskDetail> {
    const tags = normaliseTaskTags(tagsIn);
    const { db, clock } = this.d;
    await inTransaction(db, async (trx) => {
      const row = await getTaskRow(trx, id);
      const actor = await resolveActor(trx);
      await setTags(trx, id, tags);
      await touchTask(trx, id, clock.now().toISOString());
      await taskActivity(trx, clock, actor, row, 'task.tags', tags.length ? `Tags of ${row.title}: ${tags.join(', ')}` : `Tags of ${row.title} cleared`);
    });
    return readTaskDetail(db, id);
  }

  /**
   * Replaces the blockers: at most 8 known tasks, not the task itself, and no cycle (no blocker may
   * itself wait, directly or through others, on this task). Every rejection is a 422 naming
   * blockedByTaskIds.
   */
  async setBlockers(id: string, idsIn: unknown): Promise<TaskDetail> {
    const ids = checkBlockerIds(id, idsIn);
    const { db, clock } = this.d;
    await inTransaction(db, async (trx) => {
      const row = await getTaskRow(trx, id);
      if (ids.length > 0) {
        const known = new Set((await trx.selectFrom('tasks').select('id').where('id', 'in', ids).execute()).map((t) => t.id));
        const unknown = ids.filter((b) => !known.has(b));
        if (unknown.length) throw invalid('blockedByTaskIds', `names no task: ${unknown.join(', ')}`);
        const cyclic = await waitsOn(trx, ids, id);
        if (cyclic.length) throw invalid('blockedByTaskIds', `would make a cycle: ${cyclic.join(', ')} already wait(s) on ${id}`);
      }
      const actor = await resolveActor(trx);
      await replaceBlockers(trx, id, ids);
      await touchTask(trx, id, clock.now().toISOString());
      await taskActivity(trx, clock, actor, row, 'task.blockers', ids.length ? `${row.title} waits on ${ids.join(', ')}` : `${row.title} waits on nothing`);
    });
    return readTaskDetail(db, id);
  }

  /**
   * A new queued task copying kind, deliverableType, priority, assignee, tags, goal, context (and
   * title + ` (copy)`, summary); work log, notes, comments, blockers, source ids, dueAt, pin, share
   * links and cost start empty.
   */
  async duplicate(id: string, asUserId?: string): Promise<TaskDetail> {
    const { db, clock } = this.d;
    const newIdOf = await inTransaction(db, async (trx) => {
      const actor = await resolveActor(trx, asUserId);
      const row = await getTaskRow(trx, id);
      const tags = (await trx.selectFrom('taskTags').select('tag').where('taskId', '=', id).orderBy('tag').execute()).map((t) => t.tag);
      const copy = await insertTask(
        trx,
        clock,
        actor,
        {
          title: copyTitle(row.title),
          summary: row.summary,
          kind: row.kind,
          deliverableType: row.deliverableType,
          priority: row.priority,
          dueAt: null,
          goal: row.goal,
          context: row.context,
          assignedToUserId: row.assignedToUserId,
        },
        tags,
        id,
      );
      await taskActivity(trx, clock, actor, row, 'task.duplicated', `${row.title} duplicated as ${copy}`);
      return copy;
    });
    return readTaskDetail(db, newIdOf);
  }

  read(id: string): Promise<Task> {
    return readTask(this.d.db, id);
  }
}

type NewTaskFields = Pick<TaskRow, 'title' | 'summary' | 'kind' | 'deliverableType' | 'priority' | 'dueAt' | 'goal' | 'context' | 'assignedToUserId'>;

/** Inserts a queued task with its tags, its activity row and `task.created`; returns its id. */
export async function insertTask(trx: Trx, clock: Clock, actor: Actor, fields: NewTaskFields, tags: string[], duplicateOf: string | null): Promise<string> {
  const id = newId('tsk', clock);
  const now = clock.now().toISOString();
  await insertTaskRow(trx, { id, ...fields, ...newTaskDefaults(now) }, tags);
  await taskActivity(trx, clock, actor, { id }, 'task.created', duplicateOf ? `Task ${fields.title} created as a copy of ${duplicateOf}` : `Task ${fields.title} created`);
  await emit(trx, clock, 'task.created', { taskId: id, title: fields.title, status: 'queued', duplicateOfTaskId: duplicateOf });
  return id;
}

/** What moved a task: the operator, a note on a needs_input task, the stale sweep, or an AI cycle. */
export type StatusCause = 'operator' | 'note' | 'sweep' | 'cycle';

/**
 * Moves a task to `to` (bumping updatedAt; leaving archived clears the archive stamps) with its
 * activity row and `task.status_changed`; a move to done unblocks the tasks it was the last
 * unfinished blocker of.
 */
export async function changeStatus(trx: Trx, clock: Clock, actor: Actor, row: TaskRow, to: TaskStatus, cause: StatusCause): Promise<void> {
  const now = clock.now().toISOString();
  const restore = row.status === 'archived' && to !== 'archived' ? { archivedAt: null, archivedBySweep: 0 } : {};
  if (to === 'archived') {
    await archiveTaskRow(trx, row.id, now, cause === 'sweep');
  } else if (row.status !== 'archived') {
    await setTaskStatus(trx, row.id, to, now);
  } else {
    await touchTask(trx, row.id, now, { status: to, ...restore });
  }
  const kind = cause === 'sweep' ? 'task.auto_archived' : 'task.status_changed';
  const why = cause === 'note' ? ' (a note answered its question)' : cause === 'sweep' ? ' by the stale sweep' : cause === 'cycle' ? ' by an AI cycle' : '';
  await taskActivity(trx, clock, actor, row, kind, `${row.title}: ${TASK_STATUS_WORDS[row.status]} → ${TASK_STATUS_WORDS[to]}${why}`);
  await emit(trx, clock, 'task.status_changed', { taskId: row.id, title: row.title, from: row.status, to, cause });
  if (to === 'done' && row.status !== 'done') await unblockWaiters(trx, clock, actor, row);
}

/** Each task waiting on `blocker` whose blockers are now all done becomes eligible: activity and `task.unblocked`, once each. */
async function unblockWaiters(trx: Trx, clock: Clock, actor: Actor, blocker: TaskRow): Promise<void> {
  // A template, not the builder: a cycle that moves tasks to done runs this for each of them.
  const { rows: eligible } = await sql<{ id: string; title: string }>`
    SELECT t.id, t.title FROM task_blockers w JOIN tasks t ON t.id = w.task_id
    WHERE w.blocker_task_id = ${blocker.id}
      AND NOT EXISTS (SELECT 1 FROM task_blockers o JOIN tasks ob ON ob.id = o.blocker_task_id WHERE o.task_id = t.id AND ob.status != 'done')
    ORDER BY t.id`.execute(trx);
  for (const t of eligible) {
    await taskActivity(trx, clock, actor, t, 'task.unblocked', `${t.title} is unblocked: its last blocker ${blocker.title} is done`);
    await emit(trx, clock, 'task.unblocked', { taskId: t.id, title: t.title, lastBlockerTaskId: blocker.id });
  }
}

/** Which of `from` wait, directly or through other tasks, on `target` (a recursive walk of task_blockers). */
async function waitsOn(trx: Trx, from: string[], target: string): Promise<string[]> {
  const out: string[] = [];
  for (const start of from) {
    const hit = await sql<{ id: string }>`
      WITH RECURSIVE reach(id) AS (
        SELECT ${start}
        UNION
        SELECT b.blocker_task_id FROM task_blockers b JOIN reach r ON b.task_id = r.id
      )
      SELECT id FROM reach WHERE id = ${target} LIMIT 1`.execute(trx);
    if (hit.rows.length) out.push(start);
  }
  return out;
}
