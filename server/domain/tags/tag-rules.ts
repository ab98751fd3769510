import { invalid } from '../../core/errors';
import { defineList } from '../../core/lists';
import { checkTag } from '../tasks/rules';

/** Rules of the workspace-wide tag reads and the rename; a tag is checked as tasks check theirs. */

/** GET /workspace/tag-search: 25 by default (spec), at most 100 per page; older rows through nextCursor. */
export const TAG_SEARCH_LIST = defineList('SearchTag', 25, 100);

/** Where a tag can be carried (focus tags are the workspace's own). */
export const TAGGED_KINDS = ['task', 'artifact', 'memory'] as const;
export type TaggedKind = (typeof TAGGED_KINDS)[number];

/** The rename's `{ from, to }`: both valid tags (422 naming the field), and different (422 naming `to`). */
export function checkRename(from: unknown, to: unknown): { from: string; to: string } {
  const a = checkTag(from, 'from');
  const b = checkTag(to, 'to');
  if (a === b) throw invalid('to', 'must differ from `from`');
  return { from: a, to: b };
}

/** The focus tags after the rename: `from` becomes `to`, a second `to` folded, order kept. */
export function renameInList(tags: readonly string[], from: string, to: string): string[] {
  const out: string[] = [];
  for (const tag of tags) {
    const next = tag === from ? to : tag;
    if (!out.includes(next)) out.push(next);
  }
  return out;
}
