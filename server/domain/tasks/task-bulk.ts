import { inTransaction } from '../../../db/transactions';
import { checkEnum, invalid } from '../../core/errors';
import { checkIdList } from '../../core/input';
import { emit } from '../events/outbox';
import { resolveActor } from '../members/resolve-actor';
import { checkTag, MAX_TASK_TAGS, priorityWords, TASK_BULK_ACTIONS, type TaskBulkAction, type TaskPriority } from './rules';
import { checkPriority, type TaskDeps } from './task-crud';
import { addTaskTag, deleteTaskRow, removeTaskTag, taskActivity, touchTask } from './task-store';

export interface TaskBulkInput {
  action: string;
  taskIds: string[];
  priority?: string | null;
  tag?: string;
}

export interface TaskBulkResult {
  action: TaskBulkAction;
  /** How many tasks the action changed. */
  affected: number;
  /** Tasks the action changed (deleted, re-prioritised, tagged, untagged). */
  changed: string[];
  /** Tasks already in the asked state (same priority, tag already there or not there). */
  unchanged: string[];
  /** Tasks the action does not apply to: `tag` on a task that already has 10 tags. */
  skipped: string[];
  /** Ids that matched no task; the action applied to the others. */
  notFound: string[];
}

/**
 * POST /tasks/bulk under the bulk policy of core/errors.ts: 1-50 ids (422), unknown ids in
 * `notFound`, the action applied to the rest in one transaction. `priority` needs `priority`,
 * `tag` and `untag` need `tag` (422 naming the field otherwise). Each changed task gets its
 * activity row; delete emits `task.deleted` per task.
 */
export async function bulkTasks(d: TaskDeps, input: TaskBulkInput): Promise<TaskBulkResult> {
  const action = checkEnum('action', TASK_BULK_ACTIONS, input.action);
  const ids = checkIdList(input.taskIds, 'taskIds');
  let priority: TaskPriority | null = null;
  let tag = '';
  if (action === 'priority') {
    if (input.priority === undefined) throw invalid('priority', `is required for action priority`);
    priority = checkPriority(input.priority);
  }
  if (action === 'tag' || action === 'untag') {
    if (input.tag === undefined) throw invalid('tag', `is required for action ${action}`);
    tag = checkTag(input.tag);
  }
  const { db, clock } = d;
  return inTransaction(db, async (trx) => {
    const actor = await resolveActor(trx);
    const rows = await trx.selectFrom('tasks').selectAll().where('id', 'in', ids).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const result: TaskBulkResult = { action, affected: 0, changed: [], unchanged: [], skipped: [], notFound: ids.filter((id) => !byId.has(id)) };
    const now = clock.now().toISOString();
    for (const id of ids) {
      const row = byId.get(id);
      if (!row) continue;
      if (action === 'delete') {
        await deleteTaskRow(trx, id);
        await taskActivity(trx, clock, actor, row, 'task.deleted', `Task ${row.title} deleted`);
        await emit(trx, clock, 'task.deleted', { taskId: id, title: row.title });
        result.changed.push(id);
      } else if (action === 'priority') {
        if (row.priority === priority) {
          result.unchanged.push(id);
          continue;
        }
        await touchTask(trx, id, now, { priority });
        await taskActivity(trx, clock, actor, row, 'task.priority', `Priority of ${row.title}: ${priorityWords(row.priority)} → ${priorityWords(priority ?? null)}`);
        result.changed.push(id);
      } else {
        const tags = (await trx.selectFrom('taskTags').select('tag').where('taskId', '=', id).execute()).map((t) => t.tag);
        const has = tags.includes(tag);
        if ((action === 'tag' && has) || (action === 'untag' && !has)) {
          result.unchanged.push(id);
          continue;
        }
        if (action === 'tag' && tags.length >= MAX_TASK_TAGS) {
          result.skipped.push(id);
          continue;
        }
        if (action === 'tag') await addTaskTag(trx, id, tag);
        else await removeTaskTag(trx, id, tag);
        await touchTask(trx, id, now);
        await taskActivity(trx, clock, actor, row, action === 'tag' ? 'task.tagged' : 'task.untagged', `${row.title} ${action === 'tag' ? 'tagged' : 'untagged'} ${tag}`);
        result.changed.push(id);
      }
    }
    result.affected = result.changed.length;
    return result;
  });
}
