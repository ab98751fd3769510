import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import { inTransaction } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { notFound } from '../../core/errors';
import { lastDays, today, type Day } from '../../core/workspace-time';
import { recordActivity } from '../activity/activity';
import type { SharePage } from '../catalog/events';
import { commentTimelineItems } from '../comments/comment-service';
import { emit } from '../events/outbox';
import { resolveActor } from '../members/resolve-actor';
import type { TaskStatus } from '../tasks/rules';
import { updateTask } from '../tasks/task-store';
import type { WorkspaceService } from '../workspace/workspace-service';

export type { SharePage } from '../catalog/events';

/** Days GET /tasks/{id}/work-log-views answers: the trailing 14 workspace days, today included. */
export const WORK_LOG_VIEW_DAYS = 14;

/** A share token: 32 random bytes (256 bits), base64url, 43 characters. */
export const newShareToken = (): string => randomBytes(32).toString('base64url');
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const COLUMN = { work_log: 'publicWorkLogToken', timeline: 'publicTimelineToken' } as const;
/** Where a shared page is served (relative to the desk's address). */
export const SHARE_PATHS: Record<SharePage, string> = { work_log: '/share/work-log/', timeline: '/share/timeline/' };
const LABEL: Record<SharePage, string> = { work_log: 'work log', timeline: 'timeline' };

export interface ShareState {
  /** The page's token, or null when the page is not shared. */
  token: string | null;
  /** The page's path (`/share/work-log/<token>`), or null. */
  sharePath: string | null;
}

/** One entry of a public page, oldest first. */
export type SharedEntry =
  | { type: 'created'; at: string }
  | { type: 'work_log'; at: string; text: string }
  | { type: 'comment'; at: string; text: string; authorName: string; isReply: boolean };

/** What a public page shows: nothing but the task's title, status, summary and its entries. */
export interface SharedTaskPage {
  page: SharePage;
  title: string;
  summary: string;
  status: TaskStatus;
  timezone: string;
  entries: SharedEntry[];
}

export interface ViewDay {
  /** Workspace-timezone day, YYYY-MM-DD. */
  date: string;
  /** @isInt */
  count: number;
}

/** Public share links of a task's work log and timeline: tokens, the pages' content, view counts. */
export class ShareService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly workspace: WorkspaceService,
  ) {}

  /**
   * Shares (enable) or unshares a page of a task. Enabling a shared page keeps its token (to get a
   * new link, disable then enable); disabling clears the token, so the link stops working at once.
   * A change is logged (`task.share_enabled` / `task.share_disabled`, by the owner) and emits
   * `task.share_changed`; a call that changes nothing writes nothing.
   */
  async setShared(taskId: string, page: SharePage, enable: boolean): Promise<ShareState> {
    return inTransaction(this.db, async (trx) => {
      const column = COLUMN[page];
      const task = await trx.selectFrom('tasks').select(['id', 'title', column]).where('id', '=', taskId).executeTakeFirst();
      if (!task) throw notFound('task', taskId);
      const current = (task as Record<string, string | null>)[column];
      if (enable === (current !== null)) return this.state(page, current);
      const token = enable ? newShareToken() : null;
      await updateTask(trx, taskId, { [column]: token });
      await recordActivity(trx, this.clock, {
        kind: enable ? 'task.share_enabled' : 'task.share_disabled',
        detail: `${enable ? 'Shared' : 'Stopped sharing'} the ${LABEL[page]} of task: ${task.title}`,
        actor: await resolveActor(trx),
        entityType: 'task',
        entityId: taskId,
      });
      await emit(trx, this.clock, 'task.share_changed', { taskId, page, enabled: enable });
      return this.state(page, token);
    });
  }

  /**
   * The public page a token opens, counted as one view on today's workspace day; null when no task
   * shares that page with that token (unknown or revoked).
   */
  async openShared(page: SharePage, token: string): Promise<SharedTaskPage | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const { timezone } = await this.workspace.profile();
    return inTransaction(this.db, async (trx) => {
      const task = await trx.selectFrom('tasks').select(['id', 'title', 'summary', 'status', 'createdAt']).where(COLUMN[page], '=', token).executeTakeFirst();
      if (!task) return null;
      await trx
        .insertInto('taskViews')
        .values({ taskId: task.id, kind: page, day: today(this.clock, timezone), count: 1 })
        .onConflict((oc) => oc.columns(['taskId', 'kind', 'day']).doUpdateSet({ count: sql<number>`count + 1` }))
        .execute();
      const workLog = await trx.selectFrom('taskWorkLog').select(['entry', 'createdAt']).where('taskId', '=', task.id).orderBy('createdAt').orderBy('id').execute();
      const entries: SharedEntry[] = workLog.map((w) => ({ type: 'work_log', at: w.createdAt, text: w.entry }));
      if (page === 'timeline') {
        entries.push({ type: 'created', at: task.createdAt });
        for (const c of await commentTimelineItems(trx, task.id)) entries.push({ type: 'comment', at: c.at, text: c.text, authorName: c.authorName, isReply: c.parentCommentId !== null });
        // Stable: the creation first among equals, then work log, then comments in their order.
        const rank = { created: 0, work_log: 1, comment: 2 } as const;
        entries.sort((a, b) => a.at.localeCompare(b.at) || rank[a.type] - rank[b.type]);
      }
      return { page, title: task.title, summary: task.summary, status: task.status, timezone, entries };
    });
  }

  /** Views of the task's public work-log page per workspace day: the trailing 14 days, oldest first, zero-filled. */
  async workLogViews(taskId: string): Promise<{ days: ViewDay[] }> {
    const task = await this.db.selectFrom('tasks').select('id').where('id', '=', taskId).executeTakeFirst();
    if (!task) throw notFound('task', taskId);
    const { timezone } = await this.workspace.profile();
    const days: Day[] = lastDays(this.clock.now(), timezone, WORK_LOG_VIEW_DAYS);
    const rows = await this.db
      .selectFrom('taskViews')
      .select(['day', 'count'])
      .where('taskId', '=', taskId)
      .where('kind', '=', 'work_log')
      .where('day', '>=', days[0])
      .where('day', '<=', days[days.length - 1])
      .execute();
    const counts = new Map(rows.map((r) => [r.day, r.count]));
    return { days: days.map((date) => ({ date, count: counts.get(date) ?? 0 })) };
  }

  private state(page: SharePage, token: string | null): ShareState {
    return { token, sharePath: token === null ? null : SHARE_PATHS[page] + token };
  }
}
