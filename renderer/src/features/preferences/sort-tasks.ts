import type { ActiveWorkSort } from './api';

/** What the active-work sort reads of a task. */
export interface SortableTask {
  id: string;
  status: string;
  priority: string | null;
  tags: readonly string[];
  dueAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const ACTIVE_WORK_SORT_LABELS: Record<ActiveWorkSort, string> = {
  smart: 'Smart (the loop’s order)',
  priority: 'Priority',
  due: 'Due date',
  updated: 'Recently updated',
  created: 'Newest',
};

const OPEN = new Set(['needs_input', 'in_progress', 'queued']);
const PRIORITY: Record<string, number> = { urgent: 3, high: 2, normal: 1, low: 0 };
const rank = (p: string | null) => PRIORITY[p ?? 'normal'] ?? PRIORITY.normal;
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The list in the member's active-work order (pure). smart is the loop's own order: open work first,
 * then tasks carrying a focus tag, then priority (none counts as normal), then the oldest; priority:
 * highest first, then recently updated; due: soonest due first, undated last; updated: most recently
 * changed first; created: newest first. The id breaks ties, so the order is stable.
 */
export function sortActiveWork<T extends SortableTask>(tasks: readonly T[], sort: ActiveWorkSort, focusTags: readonly string[] = []): T[] {
  const focus = new Set(focusTags);
  const by: Record<ActiveWorkSort, (a: T, b: T) => number> = {
    smart: (a, b) =>
      Number(!OPEN.has(a.status)) - Number(!OPEN.has(b.status)) ||
      Number(!a.tags.some((t) => focus.has(t))) - Number(!b.tags.some((t) => focus.has(t))) ||
      rank(b.priority) - rank(a.priority) ||
      cmp(a.createdAt, b.createdAt),
    priority: (a, b) => rank(b.priority) - rank(a.priority) || cmp(b.updatedAt, a.updatedAt),
    due: (a, b) => (a.dueAt === null ? 1 : 0) - (b.dueAt === null ? 1 : 0) || cmp(a.dueAt ?? '', b.dueAt ?? '') || rank(b.priority) - rank(a.priority),
    updated: (a, b) => cmp(b.updatedAt, a.updatedAt),
    created: (a, b) => cmp(b.createdAt, a.createdAt),
  };
  return [...tasks].sort((a, b) => by[sort](a, b) || cmp(a.id, b.id));
}
