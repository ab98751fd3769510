import { checkEnum } from '../../core/errors';
import { sql, type RawBuilder } from 'kysely';
import type { CursorShape } from '../../core/lists';

/**
 * The orders of GET /tasks (`sort`), the same as a member's active-work sort preference. Each is a
 * list of SQL keys read in one direction, so a page's cursor is one row value (the keys and the id):
 * - created (the default): newest first;
 * - updated: most recently changed first;
 * - priority: highest first (none counts as normal), then most recently changed;
 * - due: soonest due first, undated last, then highest priority;
 * - smart: the loop's order: open work first, then tasks with a focus tag, then highest priority, then oldest.
 * The id breaks ties. created walks the tasks_created index; the others sort the matching tasks.
 */
export const TASK_SORTS = ['smart', 'priority', 'due', 'updated', 'created'] as const;
export type TaskSort = (typeof TASK_SORTS)[number];
export const DEFAULT_TASK_SORT: TaskSort = 'created';

export const checkTaskSort = (v: unknown): TaskSort => (v === undefined ? DEFAULT_TASK_SORT : checkEnum('sort', TASK_SORTS, v));

const RANK = sql<number>`(CASE tasks.priority WHEN 'urgent' THEN 3 WHEN 'high' THEN 2 WHEN 'low' THEN 0 ELSE 1 END)`;
/** Open work: what smart puts first. */
export const OPEN_TASK_STATUSES = ['queued', 'in_progress', 'needs_input'] as const;
const OPEN = sql<number>`(tasks.status NOT IN ('queued', 'in_progress', 'needs_input'))`;

export interface TaskOrder {
  order: 'asc' | 'desc';
  /** The sort keys before the id; selected as sk0, sk1... so the cursor can carry them. */
  keys: RawBuilder<unknown>[];
  shape: CursorShape;
}

/** The keys of a sort; `focusTags` are the workspace's (only smart reads them). */
export function taskOrder(sort: TaskSort, focusTags: readonly string[]): TaskOrder {
  switch (sort) {
    case 'created':
      return { order: 'desc', keys: [sql`tasks.created_at`], shape: ['string', 'string'] };
    case 'updated':
      return { order: 'desc', keys: [sql`tasks.updated_at`], shape: ['string', 'string'] };
    case 'priority':
      return { order: 'desc', keys: [RANK, sql`tasks.updated_at`], shape: ['number', 'string', 'string'] };
    case 'due':
      return { order: 'asc', keys: [sql`(tasks.due_at IS NULL)`, sql`coalesce(tasks.due_at, '')`, sql`(0 - ${RANK})`], shape: ['number', 'string', 'number', 'string'] };
    case 'smart': {
      // Without focus tags the focus key is left out (a constant key would be a no-op, and a literal
      // integer in ORDER BY names a column).
      if (focusTags.length === 0) return { order: 'asc', keys: [OPEN, sql`(0 - ${RANK})`, sql`tasks.created_at`], shape: ['number', 'number', 'string', 'string'] };
      const unfocused = sql<number>`(NOT EXISTS (SELECT 1 FROM task_tags ft WHERE ft.task_id = tasks.id AND ft.tag IN (${sql.join(focusTags.map((t) => sql`${t}`))})))`;
      return { order: 'asc', keys: [OPEN, unfocused, sql`(0 - ${RANK})`, sql`tasks.created_at`], shape: ['number', 'number', 'number', 'string', 'string'] };
    }
  }
}
