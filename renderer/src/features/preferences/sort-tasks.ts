import type { ActiveWorkSort } from './api';

/** The active-work sorts as the Tasks page names them (GET /tasks `sort` applies them). */
export const ACTIVE_WORK_SORT_LABELS: Record<ActiveWorkSort, string> = {
  smart: 'Smart (the loop’s order)',
  priority: 'Priority',
  due: 'Due date',
  updated: 'Recently updated',
  created: 'Newest',
};
