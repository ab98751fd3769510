/**
 * Pure rules of tasks: statuses and vocabularies. The spec leaves kind, deliverableType and priority
 * open ("not shown"); Desk fixes them as the enums below (documented in the OpenAPI document).
 */

/** Every stored status. `archived` is what the stale auto-archive sweep sets; a PATCH move restores it. */
export const TASK_STATUSES = ['queued', 'in_progress', 'needs_input', 'done', 'archived'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** What PATCH /tasks/{id} `{ status }` accepts: free moves among these (archived is set by the sweep only). */
export const TASK_STATUS_MOVES = ['queued', 'in_progress', 'needs_input', 'done'] as const;
export type TaskStatusMove = (typeof TASK_STATUS_MOVES)[number];

/** What kind of work a task is. */
export const TASK_KINDS = ['research', 'writing', 'analysis', 'outreach', 'review', 'planning', 'ops', 'other'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

/** What a task produces (the artifact it leads to). */
export const TASK_DELIVERABLE_TYPES = ['brief', 'report', 'draft', 'summary', 'plan', 'checklist', 'email', 'post', 'other'] as const;
export type TaskDeliverableType = (typeof TASK_DELIVERABLE_TYPES)[number];

/** The same scale as signal priority. */
export const TASK_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];

/** Share-page view counters (task_views.kind). */
export const TASK_VIEW_KINDS = ['work_log', 'timeline'] as const;
export type TaskViewKind = (typeof TASK_VIEW_KINDS)[number];
