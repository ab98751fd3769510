import { checkEnum, invalid, isOneOf } from '../../core/errors';
import { defineList } from '../../core/lists';
import { MAX_ID_LENGTH } from '../../core/input';
import { checkTag, FOCUS_TAG_PATTERN, MAX_TAG_LENGTH } from '../workspace/rules';
import { TASK_STATUSES, type TaskStatus, TASK_STATUS_MOVES, type TaskStatusMove, TASK_KINDS, type TaskKind, TASK_DELIVERABLE_TYPES, type TaskDeliverableType, TASK_PRIORITIES, type TaskPriority, TASK_VIEW_KINDS, type TaskViewKind, MAX_TASK_TITLE, MAX_TASK_SUMMARY, MAX_TASK_TAGS } from '../../core/vocabulary';
export { TASK_STATUSES, type TaskStatus, TASK_STATUS_MOVES, type TaskStatusMove, TASK_KINDS, type TaskKind, TASK_DELIVERABLE_TYPES, type TaskDeliverableType, TASK_PRIORITIES, type TaskPriority, TASK_VIEW_KINDS, type TaskViewKind, MAX_TASK_TITLE, MAX_TASK_SUMMARY, MAX_TASK_TAGS };

/**
 * Pure rules of tasks: statuses and vocabularies. The spec leaves kind, deliverableType and priority
 * open ("not shown"); Desk fixes them as the enums below (documented in the OpenAPI document).
 */

export const MAX_TASK_GOAL = 4000;
export { checkTag, MAX_TAG_LENGTH as MAX_TASK_TAG_LENGTH, FOCUS_TAG_PATTERN as TASK_TAG_PATTERN };
/** Spec: at most 8 blockers per task. */
export const MAX_BLOCKERS = 8;
/** Spec: an operator note (and a renew note) is at most 600 characters. */
export const MAX_NOTE_CHARS = 600;
/** What the title of a duplicate gets. */
export const COPY_SUFFIX = ' (copy)';

/** GET /tasks/stale: thresholdDays 1-60 (default 5), as the spec's stale-task export threshold. */
export const STALE_THRESHOLD_DAYS = { min: 1, max: 60, default: 5 } as const;
/** GET /tasks/auto-archived: sinceDays 1-365 (default 30). */
export const AUTO_ARCHIVED_SINCE_DAYS = { min: 1, max: 365, default: 30 } as const;
/** The sweep warns this many days before it archives. */
export const ARCHIVE_WARNING_DAYS = 1;
/** The sweep changes at most this many tasks per run (short transactions; the next run goes on). */
export const SWEEP_BATCH = 200;

export const TASK_LIST = defineList('ListTasks', 50, 200);
export const NOTE_LIST = defineList('ListTaskNotes', 50, 200);
export const STALE_LIST = defineList('ListStaleTasks', 10, 100);
export const AUTO_ARCHIVED_LIST = defineList('ListAutoArchivedTasks', 50, 200);
export const TIMELINE_LIST = defineList('GetTaskTimeline', 60, 200);

export const TASK_BULK_ACTIONS = ['delete', 'priority', 'tag', 'untag'] as const;
export type TaskBulkAction = (typeof TASK_BULK_ACTIONS)[number];

export const checkStatusMove = (v: unknown): TaskStatusMove => checkEnum('status', TASK_STATUS_MOVES, v);

/** A required text of 1..max characters (trimmed). */
export function checkText(field: string, value: unknown, max: number, required = true): string {
  if (typeof value !== 'string') throw invalid(field, 'must be a string');
  const t = value.trim();
  if (required && t.length === 0) throw invalid(field, 'must not be empty');
  if ([...t].length > max) throw invalid(field, `must be at most ${max} characters`);
  return t;
}

/** Task tags: at most 10, each lowercase-hyphen (trimmed), duplicates folded, order kept. */
export function normaliseTaskTags(tags: unknown, field = 'tags'): string[] {
  if (!Array.isArray(tags)) throw invalid(field, 'must be an array');
  const out: string[] = [];
  tags.forEach((raw, i) => {
    const tag = checkTag(raw, `${field}[${i}]`);
    if (!out.includes(tag)) out.push(tag);
  });
  if (out.length > MAX_TASK_TAGS) throw invalid(field, `must hold at most ${MAX_TASK_TAGS} tags`);
  return out;
}

/** The blocker list as given: at most 8 distinct ids, none the task itself (existence and cycles are checked against the table). */
export function checkBlockerIds(taskId: string, ids: unknown): string[] {
  const field = 'blockedByTaskIds';
  if (!Array.isArray(ids)) throw invalid(field, 'must be an array');
  ids.forEach((id, i) => {
    if (typeof id !== 'string' || id.length < 1 || id.length > MAX_ID_LENGTH) throw invalid(`${field}[${i}]`, `must be an id of 1-${MAX_ID_LENGTH} characters`);
  });
  const unique = [...new Set(ids as string[])];
  if (unique.length > MAX_BLOCKERS) throw invalid(field, `must hold at most ${MAX_BLOCKERS} tasks`);
  if (unique.includes(taskId)) throw invalid(field, 'must not name the task itself');
  return unique;
}

export function checkIntIn(field: string, value: number, r: { min: number; max: number }): number {
  if (!Number.isInteger(value) || value < r.min || value > r.max) throw invalid(field, `must be an integer from ${r.min} to ${r.max}`);
  return value;
}

/** The status filter of GET /tasks: a comma list of stored statuses (default: every status but archived). */
export function parseStatusFilter(value: string | undefined): TaskStatus[] {
  if (value === undefined || value.trim() === '') return TASK_STATUSES.filter((s) => s !== 'archived');
  const out: TaskStatus[] = [];
  for (const part of value.split(',')) {
    const s = part.trim();
    if (!isOneOf(TASK_STATUSES, s)) throw invalid('status', `"${s}" is not a status; use a comma list of ${TASK_STATUSES.join(', ')}`);
    if (!out.includes(s)) out.push(s);
  }
  return out;
}

/** The title of a duplicate: the original cut so that the title with ` (copy)` stays within 200 characters. */
export function copyTitle(title: string): string {
  const chars = [...title];
  const room = MAX_TASK_TITLE - COPY_SUFFIX.length;
  return (chars.length > room ? chars.slice(0, room).join('').trimEnd() : title) + COPY_SUFFIX;
}

/** USD from micro-USD, rounded to 6 decimals. */
export const usd = (micro: number) => Math.round(micro) / 1_000_000;

/** GET /tasks/{id}/outputs lists at most this many, newest first: a task gathers a few outputs and their versions, never hundreds. */
export const TASK_OUTPUTS_MAX = 50;

/** Statuses and priorities as the activity log and the UI say them (the enum spellings are API words). */
export const TASK_STATUS_WORDS: Record<TaskStatus, string> = { queued: 'Queued', in_progress: 'In progress', needs_input: 'Needs input', done: 'Done', archived: 'Archived' };
export const TASK_PRIORITY_WORDS: Record<TaskPriority, string> = { low: 'Low', normal: 'Normal', high: 'High', urgent: 'Urgent' };
export const priorityWords = (priority: TaskPriority | null): string => (priority === null ? 'None' : TASK_PRIORITY_WORDS[priority]);
