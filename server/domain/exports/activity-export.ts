import type { Db } from '../../../db/connection';
import type { CsvColumn } from '../../core/csv';
import { invalid } from '../../core/errors';
import type { CursorKey } from '../../core/lists';
import { parseIso } from '../../core/workspace-time';
import { activityListQuery, type ActivityRecord } from '../activity/activity-service';
import { pagedRows, type StreamedExport } from './paged';
import { EXPORT_MAX_ROWS } from './rules';

export interface ActivityExport {
  /** The most recent rows of the window, newest first, at most 5000. */
  rows: ActivityRecord[];
  /** Rows in the window. @isInt */
  total: number;
  /** The window's start as applied (inclusive); null when `since` was not given (from the first row). @format date-time */
  since: string | null;
  /** The window's end as applied (inclusive); now when `until` was not given. @format date-time */
  until: string;
  /** true when total is above the 5000-row cap (the oldest rows of the window are left out). */
  capped: boolean;
}

/**
 * The activity log between `since` and `until` (both inclusive; a date alone is the start of that
 * workspace day), the 5000 most recent rows, through the log's own query (index activity_created),
 * read a page at a time (paged.ts) with the log's own cursor.
 */
export async function exportActivity(db: Db, now: Date, timezone: string, query: { since?: string; until?: string }, cap = EXPORT_MAX_ROWS): Promise<StreamedExport<ActivityExport>> {
  const since = query.since === undefined ? null : parseIso('since', query.since, timezone).toISOString();
  const until = query.until === undefined ? now.toISOString() : parseIso('until', query.until, timezone).toISOString();
  if (since !== null && since > until) throw invalid('since', 'must not be after until');
  let count = db.selectFrom('activity').select((eb) => eb.fn.countAll<number>().as('n')).where('createdAt', '<=', until);
  if (since !== null) count = count.where('createdAt', '>=', since);
  const total = Number((await count.executeTakeFirstOrThrow()).n);
  const readPage = (after: CursorKey | undefined, limit: number) => activityListQuery(db, { fetch: limit, since: since ?? undefined, after }).where('createdAt', '<=', until).execute();
  return { rows: pagedRows(readPage, (r) => [r.createdAt, r.id], cap), total, since, until, capped: total > cap };
}

export const ACTIVITY_CSV_COLUMNS: readonly CsvColumn<ActivityRecord>[] = [
  { header: 'id', value: (r) => r.id },
  { header: 'createdAt', value: (r) => r.createdAt },
  { header: 'kind', value: (r) => r.kind },
  { header: 'detail', value: (r) => r.detail },
  { header: 'actorUserId', value: (r) => r.actorUserId },
  { header: 'actorLabel', value: (r) => r.actorLabel },
  { header: 'entityType', value: (r) => r.entityType },
  { header: 'entityId', value: (r) => r.entityId },
];
