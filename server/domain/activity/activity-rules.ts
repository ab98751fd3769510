import { invalid } from '../../core/errors';
import { defineList } from '../../core/lists';
import { ACTIVITY_KINDS, isActivityKind, type ActivityKind } from '../catalog/activity-kinds';

/** Pure rules of the activity log's list. */

/** GET /activity: 50 by default, at most 200 per page (spec); older rows through nextCursor. */
export const ACTIVITY_LIST = defineList('ListActivity', 50, 200);
/** The text filter `q`: at most 200 characters. */
export const MAX_ACTIVITY_QUERY_LENGTH = 200;

/**
 * The `kind` filter: a comma list of kinds, blanks ignored (an empty list means all kinds).
 * A kind outside the catalog is a 422 naming `kind`: the log only holds catalog kinds, so an
 * unknown one is a typo, and an empty page would read as "nothing happened".
 */
export function parseKindFilter(value: string | undefined): ActivityKind[] | undefined {
  const kinds = (value ?? '').split(',').map((k) => k.trim()).filter(Boolean);
  if (kinds.length === 0) return undefined;
  const unknown = [...new Set(kinds.filter((k) => !isActivityKind(k)))];
  if (unknown.length > 0) {
    // Named once each and at most five, so a long bad list does not come back as a long message.
    const named = unknown.slice(0, 5).map((k) => (k.length > 60 ? `${k.slice(0, 60)}…` : k));
    const more = unknown.length > 5 ? ` and ${unknown.length - 5} more` : '';
    throw invalid('kind', `has unknown kinds: ${named.join(', ')}${more} (the ActivityKind enum of the API document lists all ${ACTIVITY_KINDS.length})`);
  }
  return [...new Set(kinds.filter(isActivityKind))];
}

/** The text filter `q`: trimmed, blank means none; longer than 200 characters is a 422. */
export function parseTextFilter(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.length > MAX_ACTIVITY_QUERY_LENGTH) throw invalid('q', `must be at most ${MAX_ACTIVITY_QUERY_LENGTH} characters`);
  return value.trim() || undefined;
}
