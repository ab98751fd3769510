import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import { HOUR_MS, type Clock } from '../../core/clock';
import { daysBefore } from '../../core/workspace-time';
import { hueOf, initialsOf } from '../comments/comment-rules';
import { REMOVED_MEMBER_NAME } from '../comments/comment-service';
import { resolveActor } from '../members/resolve-actor';
import type { TaskStatus } from '../tasks/rules';
import type { TaskService } from '../tasks/task-service';
import { readWorkspace } from '../workspace/workspace-store';
import { DUE_SOON_HOURS, INBOX_SECTION_LIMIT, INBOX_STALE_DAYS, intParam } from './rules';

/**
 * GET /workspace/personal-inbox: what waits on one member (default the owner).
 * - mentions: `@name` mentions of the member in comments written by someone else (a member who
 *   mentions themselves is not told about it), not yet acknowledged (POST /mentions/{id}/ack);
 * - staleTasks: the tasks area's stale rule (queued or in_progress, not pinned, no updatedAt bump
 *   for more than thresholdDays workspace days) restricted to tasks assigned to the member;
 * - dueSoon: the member's open tasks (queued, in_progress, needs_input) whose dueAt is before now
 *   plus 48 hours, overdue ones included, soonest first.
 * Each section lists at most 20 rows and carries its full total.
 */

export interface InboxMention {
  /** The mention's id: POST /mentions/{mentionId}/ack acknowledges it. */
  mentionId: string;
  commentId: string;
  taskId: string;
  taskTitle: string;
  authorId: string;
  authorName: string;
  authorInitials: string;
  authorHue: number;
  /** The comment's text, at most 140 characters (longer ones end with …). */
  excerpt: string;
  /** @format date-time */
  createdAt: string;
}

export interface InboxTask {
  id: string;
  title: string;
  status: TaskStatus;
  /** @format date-time */
  dueAt: string | null;
  /** @format date-time */
  updatedAt: string;
}

export interface InboxStaleTask extends InboxTask {
  /** Whole days since updatedAt. */
  daysStale: number;
}

export interface InboxDueTask extends InboxTask {
  /** dueAt has passed. */
  overdue: boolean;
  /** Hours from now to dueAt, one decimal; negative once overdue. */
  hoursUntilDue: number;
}

export interface PersonalInbox {
  userId: string;
  userName: string;
  mentions: { total: number; items: InboxMention[] };
  staleTasks: { total: number; thresholdDays: number; items: InboxStaleTask[] };
  dueSoon: { total: number; windowHours: number; items: InboxDueTask[] };
}

const OPEN_FOR_DUE: TaskStatus[] = ['queued', 'in_progress', 'needs_input'];
const STALE_STATUSES: TaskStatus[] = ['queued', 'in_progress'];
const EXCERPT_CHARS = 140;
const count = sql<number>`count(*)`.as('n');

const excerpt = (text: string) => {
  const chars = Array.from(text);
  return chars.length <= EXCERPT_CHARS ? text : `${chars.slice(0, EXCERPT_CHARS - 1).join('')}…`;
};

export async function personalInbox(db: Db, clock: Clock, tasks: TaskService, query: { userId?: string; thresholdDays?: number }): Promise<PersonalInbox> {
  const thresholdDays = intParam('thresholdDays', query.thresholdDays, INBOX_STALE_DAYS);
  const member = await resolveActor(db, query.userId, 'userId');
  const userId = member.userId;
  const now = clock.now();
  const { timezone } = await readWorkspace(db);
  const staleCutoff = daysBefore(now, timezone, thresholdDays).toISOString();
  const dueBefore = new Date(now.getTime() + DUE_SOON_HOURS * HOUR_MS).toISOString();

  const mentions = db
    .selectFrom('commentMentions')
    .innerJoin('taskComments', 'taskComments.id', 'commentMentions.commentId')
    .where('commentMentions.userId', '=', userId)
    .where('commentMentions.acknowledgedAt', 'is', null)
    .where('taskComments.authorUserId', '!=', userId);
  const due = db.selectFrom('tasks').where('assignedToUserId', '=', userId).where('status', 'in', OPEN_FOR_DUE).where('dueAt', 'is not', null).where('dueAt', '<', dueBefore);

  const [mentionTotal, mentionRows, staleTotal, stale, dueTotal, dueRows] = await Promise.all([
    mentions.select(count).executeTakeFirstOrThrow(),
    mentions
      .innerJoin('tasks', 'tasks.id', 'taskComments.taskId')
      .leftJoin('users', 'users.id', 'taskComments.authorUserId')
      .select([
        'commentMentions.id as mentionId',
        'commentMentions.commentId',
        'taskComments.taskId',
        'tasks.title as taskTitle',
        'taskComments.authorUserId as authorId',
        'users.name as authorName',
        'taskComments.text',
        'commentMentions.createdAt',
      ])
      .orderBy('commentMentions.createdAt', 'desc')
      .orderBy('commentMentions.id', 'desc')
      .limit(INBOX_SECTION_LIMIT)
      .execute(),
    // The same predicate as the tasks area's stale list (TaskStaleness.stale), counted.
    db
      .selectFrom('tasks')
      .select(count)
      .where('assignedToUserId', '=', userId)
      .where('status', 'in', STALE_STATUSES)
      .where('pinned', '=', 0)
      .where('updatedAt', '<', staleCutoff)
      .executeTakeFirstOrThrow(),
    tasks.stale({ thresholdDays, assignedToUserId: userId, limit: INBOX_SECTION_LIMIT }),
    due.select(count).executeTakeFirstOrThrow(),
    due.select(['id', 'title', 'status', 'dueAt', 'updatedAt']).orderBy('dueAt', 'asc').orderBy('id', 'asc').limit(INBOX_SECTION_LIMIT).execute(),
  ]);

  return {
    userId,
    userName: member.label,
    mentions: {
      total: Number(mentionTotal.n),
      items: mentionRows.map((r) => {
        const name = r.authorName ?? REMOVED_MEMBER_NAME;
        return {
          mentionId: r.mentionId,
          commentId: r.commentId,
          taskId: r.taskId,
          taskTitle: r.taskTitle,
          authorId: r.authorId,
          authorName: name,
          authorInitials: initialsOf(name),
          authorHue: hueOf(r.authorId),
          excerpt: excerpt(r.text),
          createdAt: r.createdAt,
        };
      }),
    },
    staleTasks: {
      total: Number(staleTotal.n),
      thresholdDays: stale.thresholdDays,
      items: stale.tasks.map((t) => ({ id: t.id, title: t.title, status: t.status, dueAt: t.dueAt, updatedAt: t.updatedAt, daysStale: t.daysStale })),
    },
    dueSoon: {
      total: Number(dueTotal.n),
      windowHours: DUE_SOON_HOURS,
      items: dueRows.map((r) => {
        const dueAt = r.dueAt ?? '';
        const hours = (Date.parse(dueAt) - now.getTime()) / HOUR_MS;
        return { id: r.id, title: r.title, status: r.status, dueAt, updatedAt: r.updatedAt, overdue: hours < 0, hoursUntilDue: Math.round(hours * 10) / 10 };
      }),
    },
  };
}

