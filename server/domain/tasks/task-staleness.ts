import { inTransaction } from '../../../db/transactions';
import { afterKey, pageRequest, toPage } from '../../core/lists';
import { calendarDaysSince, daysBefore } from '../../core/workspace-time';
import { SYSTEM_ACTOR } from '../activity/activity';
import { emit } from '../events/outbox';
import { ARCHIVE_WARNING_DAYS, AUTO_ARCHIVED_LIST, AUTO_ARCHIVED_SINCE_DAYS, checkIntIn, STALE_LIST, STALE_THRESHOLD_DAYS, SWEEP_BATCH } from './rules';
import { changeStatus, type TaskDeps } from './task-crud';
import { taskActivity, toTasks, updateTask, type Task } from './task-store';

export interface StaleTask extends Task {
  /** Whole days since updatedAt. */
  daysStale: number;
}

export interface StaleTaskList {
  tasks: StaleTask[];
  /** The threshold applied, in days. */
  thresholdDays: number;
  nextCursor: string | null;
}

export interface AutoArchivedList {
  tasks: Task[];
  sinceDays: number;
  nextCursor: string | null;
}

export interface SweepResult {
  /** Tasks warned this run (archive_warned_at set, activity `task.archive_warning`). */
  warned: string[];
  /** Tasks archived this run. */
  archived: string[];
}

/** The statuses the stale list and the sweep look at (spec: queued and in_progress only). */
const OPEN = ['queued', 'in_progress'] as const;

/** Stale tasks, the auto-archived list and the stale auto-archive sweep. */
export class TaskStaleness {
  constructor(private readonly d: TaskDeps) {}

  /**
   * Queued and in_progress tasks, not pinned, whose updatedAt is more than thresholdDays calendar
   * days (workspace timezone) before now; oldest first.
   */
  async stale(query: { thresholdDays?: number; assignedToUserId?: string; limit?: number; cursor?: string } = {}): Promise<StaleTaskList> {
    const thresholdDays = checkIntIn('thresholdDays', query.thresholdDays ?? STALE_THRESHOLD_DAYS.default, STALE_THRESHOLD_DAYS);
    const { limit, after } = pageRequest(STALE_LIST, query, ['string', 'string']);
    const { db, clock } = this.d;
    const { timezone } = await this.d.workspace.profile();
    const now = clock.now();
    const cutoff = daysBefore(now, timezone, thresholdDays).toISOString();
    let q = db.selectFrom('tasks').selectAll().where('status', 'in', OPEN).where('pinned', '=', 0).where('updatedAt', '<', cutoff);
    if (query.assignedToUserId !== undefined) q = q.where('assignedToUserId', '=', query.assignedToUserId);
    if (after) q = q.where(afterKey(['tasks.updated_at', 'tasks.id'], after, 'asc'));
    const rows = await q.orderBy('updatedAt', 'asc').orderBy('id', 'asc').limit(limit + 1).execute();
    const page = toPage(rows, limit, (r) => [r.updatedAt, r.id]);
    const tasks = await toTasks(db, page.rows);
    return {
      tasks: tasks.map((t) => ({ ...t, daysStale: calendarDaysSince(new Date(t.updatedAt), now, timezone) })),
      thresholdDays,
      nextCursor: page.nextCursor,
    };
  }

  /** Tasks archived by the sweep within the last sinceDays (default 30), newest archive first. */
  async autoArchived(query: { sinceDays?: number; limit?: number; cursor?: string } = {}): Promise<AutoArchivedList> {
    const sinceDays = checkIntIn('sinceDays', query.sinceDays ?? AUTO_ARCHIVED_SINCE_DAYS.default, AUTO_ARCHIVED_SINCE_DAYS);
    const { limit, after } = pageRequest(AUTO_ARCHIVED_LIST, query, ['string', 'string']);
    const { db, clock } = this.d;
    const { timezone } = await this.d.workspace.profile();
    const since = daysBefore(clock.now(), timezone, sinceDays).toISOString();
    let q = db.selectFrom('tasks').selectAll().where('archivedBySweep', '=', 1).where('status', '=', 'archived').where('archivedAt', '>=', since);
    if (after) q = q.where(afterKey(['tasks.archived_at', 'tasks.id'], after, 'desc'));
    const rows = await q.orderBy('archivedAt', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
    const page = toPage(rows, limit, (r) => [r.archivedAt ?? '', r.id]);
    return { tasks: await toTasks(db, page.rows), sinceDays, nextCursor: page.nextCursor };
  }

  /**
   * The stale auto-archive sweep (workspace staleTaskAutoArchiveDays N; off when null). Queued and
   * in_progress tasks, not pinned: a task untouched for N-1 days is warned (archive_warned_at,
   * activity and event `task.archive_warning`); a warned task untouched for N days whose warning is
   * at least a day old is archived (status archived, archived_by_sweep; `task.status_changed` with
   * cause sweep). Any change or renew bumps updatedAt and clears the warning. At most 200 tasks per
   * run and kind, each in its own short transaction.
   */
  async sweep(): Promise<SweepResult> {
    const { db, clock } = this.d;
    const p = await this.d.workspace.profile();
    const result: SweepResult = { warned: [], archived: [] };
    const n = p.staleTaskAutoArchiveDays;
    if (n === null) return result;
    const now = clock.now();
    const archiveCutoff = daysBefore(now, p.timezone, n).toISOString();
    const warnCutoff = daysBefore(now, p.timezone, n - ARCHIVE_WARNING_DAYS).toISOString();
    const warnedBefore = daysBefore(now, p.timezone, ARCHIVE_WARNING_DAYS).toISOString();

    const toArchive = await db
      .selectFrom('tasks')
      .selectAll()
      .where('status', 'in', OPEN)
      .where('pinned', '=', 0)
      .where('updatedAt', '<', archiveCutoff)
      .where('archiveWarnedAt', 'is not', null)
      .where('archiveWarnedAt', '<=', warnedBefore)
      .orderBy('updatedAt')
      .limit(SWEEP_BATCH)
      .execute();
    for (const found of toArchive) {
      const done = await inTransaction(db, async (trx) => {
        // Read again inside the transaction: a renew or a change since the scan keeps the task.
        const row = await trx.selectFrom('tasks').selectAll().where('id', '=', found.id).executeTakeFirst();
        if (!row || row.updatedAt !== found.updatedAt || row.archiveWarnedAt === null || row.pinned !== 0 || !(OPEN as readonly string[]).includes(row.status)) return false;
        await changeStatus(trx, clock, SYSTEM_ACTOR, row, 'archived', 'sweep');
        return true;
      });
      if (done) result.archived.push(found.id);
    }

    const toWarn = await db
      .selectFrom('tasks')
      .selectAll()
      .where('status', 'in', OPEN)
      .where('pinned', '=', 0)
      .where('updatedAt', '<', warnCutoff)
      .where('archiveWarnedAt', 'is', null)
      .orderBy('updatedAt')
      .limit(SWEEP_BATCH)
      .execute();
    for (const row of toWarn) {
      const warned = await inTransaction(db, async (trx) => {
        const at = now.toISOString();
        const fresh = await trx.selectFrom('tasks').select(['updatedAt', 'archiveWarnedAt']).where('id', '=', row.id).executeTakeFirst();
        if (!fresh || fresh.updatedAt !== row.updatedAt || fresh.archiveWarnedAt !== null) return false;
        const archivesAfter = new Date(Math.max(Date.parse(daysBefore(new Date(row.updatedAt), p.timezone, -n).toISOString()), Date.parse(daysBefore(now, p.timezone, -ARCHIVE_WARNING_DAYS).toISOString()))).toISOString();
        await updateTask(trx, row.id, { archiveWarnedAt: at });
        await taskActivity(trx, clock, SYSTEM_ACTOR, row, 'task.archive_warning', `${row.title} will be archived after ${archivesAfter} unless renewed`);
        await emit(trx, clock, 'task.archive_warning', { taskId: row.id, title: row.title, updatedAt: row.updatedAt, archivesAfter });
        return true;
      });
      if (warned) result.warned.push(row.id);
    }
    return result;
  }
}
