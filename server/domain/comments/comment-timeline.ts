import { afterKey } from '../../core/lists';
import type { TimelineSource } from '../tasks/task-timeline';
import { REMOVED_MEMBER_NAME } from './comment-service';

/**
 * The comments of a task as task-timeline entries (type `comment`, the author as actor), newest
 * first before the cursor, from the (task_id, created_at, id) index. startDesk hands it to the
 * TaskService.
 */
export const commentTimelineSource: TimelineSource = async (db, taskId, fetch, after) => {
  let q = db
    .selectFrom('taskComments')
    .leftJoin('users', 'users.id', 'taskComments.authorUserId')
    .select(['taskComments.id', 'taskComments.text', 'taskComments.createdAt', 'taskComments.authorUserId', 'users.name'])
    .where('taskComments.taskId', '=', taskId);
  if (after) q = q.where(afterKey(['task_comments.created_at', 'task_comments.id'], after, 'desc'));
  const rows = await q.orderBy('taskComments.createdAt', 'desc').orderBy('taskComments.id', 'desc').limit(fetch).execute();
  return rows.map((r) => ({ id: r.id, type: 'comment' as const, at: r.createdAt, text: r.text, actorLabel: r.name ?? REMOVED_MEMBER_NAME, actorUserId: r.authorUserId, activityKind: null }));
};
