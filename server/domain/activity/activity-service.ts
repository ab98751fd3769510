import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import { afterKey, pageRequest, toPage, type CursorKey, type Page } from '../../core/lists';
import { parseIso } from '../../core/workspace-time';
import { matchingRefs, queryWords } from '../search/fts';
import { catchUp } from '../search/search-index';
import type { ActivityKind } from '../catalog/activity-kinds';
import { ACTIVITY_LIST, parseKindFilter, parseTextFilter } from './activity-rules';

/** One row of the activity log (the spec leaves its fields open; these are Desk's). */
export interface ActivityRecord {
  id: string;
  /** What happened, as `area.event`, e.g. `workspace.loop_state`, `signal.created`. */
  kind: ActivityKind;
  /** A sentence for people, e.g. "Loop set to paused". Never holds a secret. */
  detail: string;
  /** The member who made the change; null when the desk did it. */
  actorUserId: string | null;
  /** The member's name, or `system`. */
  actorLabel: string;
  /** The kind of thing changed, e.g. `workspace`, `signal`, `source`. */
  entityType: string | null;
  entityId: string | null;
  /** @format date-time */
  createdAt: string;
}

export interface ActivityListQuery {
  /** 1..ACTIVITY_LIST.maxLimit; ACTIVITY_LIST.defaultLimit when absent. */
  limit?: number;
  /** nextCursor of the previous page, served with the same filters. */
  cursor?: string;
  /** ISO time; a date alone is the start of that workspace day. */
  since?: string;
  /** Comma list of kinds. */
  kind?: string;
  q?: string;
}

/** The cursor of the log: (created_at, id) of the last row served. */
export const ACTIVITY_CURSOR_SHAPE = ['string', 'string'] as const;

export interface ActivityFilter {
  /** Rows to fetch (a page's limit + 1, to know whether another page follows). */
  fetch: number;
  since?: string;
  kinds?: ActivityKind[];
  q?: string;
  after?: CursorKey;
}

/**
 * Newest first, served from activity_created (or activity_kind_created for a kind filter). The
 * id breaks ties of one millisecond (ids are monotonic): only rows sharing a created_at are
 * sorted, and the cursor's range starts inside the index. Exported for the query-plan test.
 */
export function activityListQuery(db: Db, filter: ActivityFilter) {
  let sel = db.selectFrom('activity').selectAll();
  if (filter.since !== undefined) sel = sel.where('createdAt', '>=', filter.since);
  if (filter.kinds !== undefined) sel = sel.where('kind', 'in', filter.kinds);
  if (filter.q !== undefined) {
    // Through the search index (detail and kind are indexed); a q without a word matches nothing.
    const refs = matchingRefs('activity', queryWords(filter.q));
    sel = refs === null ? sel.where(sql<boolean>`0`) : sel.where(sql<boolean>`activity.id IN ${refs}`);
  }
  if (filter.after !== undefined) sel = sel.where(afterKey(['activity.created_at', 'activity.id'], filter.after, 'desc'));
  return sel.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(filter.fetch);
}

/** What the log reads of the workspace: its timezone, for `since` (the workspace service, which writes activity rows itself). */
export interface WorkspaceTimezone {
  profile(): Promise<{ timezone: string }>;
}

/** The activity log as the API reads it (rows are written by recordActivity in each change). */
export class ActivityService {
  constructor(
    private readonly db: Db,
    private readonly workspace: WorkspaceTimezone,
  ) {}

  /** One page of the log, newest first; every row is reachable by following nextCursor. */
  async list(query: ActivityListQuery): Promise<Page<ActivityRecord>> {
    const { limit, after } = pageRequest(ACTIVITY_LIST, query, ACTIVITY_CURSOR_SHAPE);
    const kinds = parseKindFilter(query.kind);
    const q = parseTextFilter(query.q);
    const since = query.since === undefined ? undefined : parseIso('since', query.since, (await this.workspace.profile()).timezone).toISOString();
    // `q` reads the search index: rows still queued for it are indexed first.
    if (q !== undefined) await catchUp(this.db);
    const rows = await activityListQuery(this.db, { fetch: limit + 1, since, kinds, q, after }).execute();
    return toPage(rows, limit, (r) => [r.createdAt, r.id]);
  }
}
