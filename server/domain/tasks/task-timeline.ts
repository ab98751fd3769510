import type { Db } from '../../../db/connection';
import { afterKey, pageRequest, toPage, type CursorKey } from '../../core/lists';
import type { ActivityKind } from '../catalog/activity-kinds';
import { selectSignals, toSignals, type Signal } from '../signals/signal-view';
import { resolveActor } from '../members/resolve-actor';
import { TIMELINE_LIST } from './rules';
import type { TaskDeps } from './task-crud';
import { getTaskRow } from './task-store';

/** What a timeline entry records. `comment` entries arrive with the comments area. */
export type TimelineEntryType = 'created' | 'work_log' | 'note' | 'comment' | 'activity';

export interface TimelineEntry {
  /** The id of the underlying record (the task for `created`, a work-log entry, note, comment or activity row). */
  id: string;
  type: TimelineEntryType;
  /** @format date-time */
  at: string;
  /** The entry's text: the work-log entry, the note, the comment, the activity detail. */
  text: string;
  /** Who: a member's name, `system`, or null for AI-cycle entries. */
  actorLabel: string | null;
  actorUserId: string | null;
  /** For `activity`: its kind, e.g. `task.status_changed`. */
  activityKind: ActivityKind | null;
}

export interface TaskTimeline {
  taskId: string;
  /** Newest first. */
  entries: TimelineEntry[];
  nextCursor: string | null;
}

/**
 * One source of timeline entries: the newest `fetch` entries of a task strictly before the cursor
 * position (at, id), newest first. Sources of other areas (the comments') are handed to the
 * TaskService when it is built (server/start.ts), so every task timeline shows them.
 */
export type TimelineSource = (db: Db, taskId: string, fetch: number, after: CursorKey | undefined) => Promise<TimelineEntry[]>;

/** Activity rows already shown as their own entries (creation, notes). */
const SHOWN_ELSEWHERE: ActivityKind[] = ['task.created', 'task.note_added'];

const createdSource: TimelineSource = async (db, taskId, _fetch, after) => {
  const t = await db.selectFrom('tasks').select(['id', 'title', 'createdAt']).where('id', '=', taskId).executeTakeFirst();
  if (!t) return [];
  const created = await db.selectFrom('activity').select(['actorLabel', 'actorUserId']).where('entityType', '=', 'task').where('entityId', '=', taskId).where('kind', '=', 'task.created').executeTakeFirst();
  const entry: TimelineEntry = { id: t.id, type: 'created', at: t.createdAt, text: `Task created: ${t.title}`, actorLabel: created?.actorLabel ?? null, actorUserId: created?.actorUserId ?? null, activityKind: null };
  return after && !(entry.at < String(after[0]) || (entry.at === after[0] && entry.id < String(after[1]))) ? [] : [entry];
};

const workLogSource: TimelineSource = async (db, taskId, fetch, after) => {
  let q = db.selectFrom('taskWorkLog').select(['id', 'entry', 'createdAt']).where('taskId', '=', taskId);
  if (after) q = q.where(afterKey(['task_work_log.created_at', 'task_work_log.id'], after, 'desc'));
  const rows = await q.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(fetch).execute();
  return rows.map((r) => ({ id: r.id, type: 'work_log' as const, at: r.createdAt, text: r.entry, actorLabel: null, actorUserId: null, activityKind: null }));
};

const notesSource: TimelineSource = async (db, taskId, fetch, after) => {
  let q = db
    .selectFrom('taskNotes')
    .leftJoin('users', 'users.id', 'taskNotes.authorUserId')
    .select(['taskNotes.id', 'taskNotes.text', 'taskNotes.createdAt', 'taskNotes.authorUserId', 'users.name'])
    .where('taskNotes.taskId', '=', taskId);
  if (after) q = q.where(afterKey(['task_notes.created_at', 'task_notes.id'], after, 'desc'));
  const rows = await q.orderBy('taskNotes.createdAt', 'desc').orderBy('taskNotes.id', 'desc').limit(fetch).execute();
  return rows.map((r) => ({ id: r.id, type: 'note' as const, at: r.createdAt, text: r.text, actorLabel: r.name, actorUserId: r.authorUserId, activityKind: null }));
};

const activitySource: TimelineSource = async (db, taskId, fetch, after) => {
  let q = db
    .selectFrom('activity')
    .select(['id', 'kind', 'detail', 'actorLabel', 'actorUserId', 'createdAt'])
    .where('entityType', '=', 'task')
    .where('entityId', '=', taskId)
    .where('kind', 'not in', SHOWN_ELSEWHERE);
  if (after) q = q.where(afterKey(['activity.created_at', 'activity.id'], after, 'desc'));
  const rows = await q.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(fetch).execute();
  return rows.map((r) => ({ id: r.id, type: 'activity' as const, at: r.createdAt, text: r.detail, actorLabel: r.actorLabel, actorUserId: r.actorUserId, activityKind: r.kind }));
};

/** The tasks area's own entries: creation, work log, notes, activity. */
const TASK_SOURCES: readonly TimelineSource[] = [createdSource, workLogSource, notesSource, activitySource];

/** A memory entry as the source-memory list will show it once the memory area exists. */
export interface SourceMemoryEntry {
  id: string;
  title: string;
}

export interface TaskSourceMemory {
  taskId: string;
  /** Always empty until the memory area exists. */
  memory: SourceMemoryEntry[];
  /** The stored sourceMemoryIds. */
  memoryIds: string[];
}

export interface TaskSources {
  taskId: string;
  signals: Signal[];
  /** sourceSignalIds whose signal has been deleted since. */
  missingSignalIds: string[];
}

/** A task's timeline, its inputs (originating signals) and its source memory. */
export class TaskTimelines {
  private readonly entrySources: readonly TimelineSource[];

  /** `otherSources`: the entries other areas own (comments), on every timeline. */
  constructor(
    private readonly d: TaskDeps,
    otherSources: readonly TimelineSource[],
  ) {
    this.entrySources = [...TASK_SOURCES, ...otherSources];
  }

  /**
   * Creation, AI-cycle work-log entries, operator notes, (comments) and the task's activity rows,
   * newest first, `limit` (default 60) a page; a keyset on (at, id) across all sources.
   */
  async timeline(taskId: string, query: { limit?: number; cursor?: string } = {}): Promise<TaskTimeline> {
    const { db } = this.d;
    await getTaskRow(db, taskId);
    const { limit, after } = pageRequest(TIMELINE_LIST, query, ['string', 'string']);
    const parts = await Promise.all(this.entrySources.map((s) => s(db, taskId, limit + 1, after)));
    const merged = parts.flat().sort((a, b) => (a.at === b.at ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.at < b.at ? 1 : -1));
    const page = toPage(merged.slice(0, limit + 1), limit, (e) => [e.at, e.id]);
    return { taskId, entries: page.rows, nextCursor: page.nextCursor };
  }

  /** The signals the AI cycle used for this task (sourceSignalIds), newest first; ids of deleted signals are left out. */
  async sources(taskId: string): Promise<TaskSources> {
    const { db } = this.d;
    const row = await getTaskRow(db, taskId);
    const ids = parseList(row.sourceSignalIds);
    if (ids.length === 0) return { taskId, signals: [], missingSignalIds: [] };
    const owner = await resolveActor(db);
    const rows = await selectSignals(db).where('signals.id', 'in', ids).orderBy('signals.createdAt', 'desc').orderBy('signals.id', 'desc').execute();
    const found = new Set(rows.map((r) => r.id));
    return { taskId, signals: await toSignals(db, rows, owner.userId), missingSignalIds: ids.filter((id) => !found.has(id)) };
  }

  /**
   * The memory entries the AI cycle pulled for this task (sourceMemoryIds). The memory area does not
   * exist yet: the list is empty and `memoryIds` carries the stored ids as they are.
   */
  async sourceMemory(taskId: string): Promise<TaskSourceMemory> {
    const row = await getTaskRow(this.d.db, taskId);
    return { taskId, memory: [], memoryIds: parseList(row.sourceMemoryIds) };
  }
}

function parseList(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}
