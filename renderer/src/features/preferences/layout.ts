/**
 * Pure helpers for the arrangement preferences: an ordered set of known ids (panels, columns) laid out
 * from a stored order that may be partial, stale (an id this build no longer has) or hold duplicates.
 */

/**
 * The known ids in the stored order: stored ids first (unknown and repeated ones dropped), then the
 * known ids the stored order does not mention, in their default order (a panel added by a newer build
 * shows up at its default place instead of vanishing).
 */
export function arrange<Id extends string>(known: readonly Id[], stored: readonly string[] | null | undefined): Id[] {
  const knownSet = new Set<string>(known);
  const seen = new Set<string>();
  const out: Id[] = [];
  for (const id of stored ?? []) {
    if (knownSet.has(id) && !seen.has(id)) {
      seen.add(id);
      out.push(id as Id);
    }
  }
  for (const id of known) if (!seen.has(id)) out.push(id);
  return out;
}

/** The order with `id` moved `by` places (negative: up/left), clamped to the ends; unchanged if absent. */
export function move<Id extends string>(order: readonly Id[], id: Id, by: number): Id[] {
  const from = order.indexOf(id);
  if (from < 0) return [...order];
  const to = Math.max(0, Math.min(order.length - 1, from + by));
  const out = [...order];
  out.splice(from, 1);
  out.splice(to, 0, id);
  return out;
}

/** The order with `id` placed where `target` is now (drag and drop: dropped on `target`). */
export function moveTo<Id extends string>(order: readonly Id[], id: Id, target: Id): Id[] {
  const to = order.indexOf(target);
  return to < 0 || id === target ? [...order] : move(order, id, to - order.indexOf(id));
}

/** The set with `id` added (on) or removed (off), keeping the stored order of the others. */
export function toggle<Id extends string>(list: readonly Id[], id: Id, on: boolean): Id[] {
  const without = list.filter((x) => x !== id);
  return on ? [...without, id] : without;
}

/** Whether two lists hold the same ids in the same order. */
export const sameList = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((x, i) => x === b[i]);
