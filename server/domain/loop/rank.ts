import { PRIORITY_RANK } from './rules';

/** What ranking looks at. */
export interface RankedFields {
  id: string;
  tags: readonly string[];
  priority: string | null;
  createdAt: string;
  /** A cost-spike pause applies (the task's own or one of its tags', see cost-guard/pauses.ts). */
  spikePaused: boolean;
}

/**
 * The cycle's order of open tasks (pure): spike-paused tasks last; among the rest, tasks carrying
 * a focus tag first; then priority (urgent, high, normal, low; none ranks as normal); then the
 * oldest first; the id breaks ties. Blocked tasks keep their place but are not workable.
 */
export function rankTasks<T extends RankedFields>(tasks: readonly T[], focusTags: readonly string[]): T[] {
  const focus = new Set(focusTags);
  const key = (t: T) => ({
    paused: t.spikePaused ? 1 : 0,
    unfocused: t.tags.some((tag) => focus.has(tag)) ? 0 : 1,
    priority: -(PRIORITY_RANK[t.priority ?? 'normal'] ?? PRIORITY_RANK.normal),
  });
  return [...tasks].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka.paused - kb.paused || ka.unfocused - kb.unfocused || ka.priority - kb.priority || cmp(a.createdAt, b.createdAt) || cmp(a.id, b.id);
  });
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
