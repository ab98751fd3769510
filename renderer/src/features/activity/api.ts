import { api, unwrap, type Schema } from '../../api/client';
import { cursorList, withCursor, type CursorPage } from '../../api/cursor-list';
import { queryKeys } from '../../api/query-keys';

export type ActivityRecord = Schema<'ActivityRecord'>;

export interface ActivityFilter {
  /** Comma-separated kinds; empty for all. */
  kind: string;
  /** Text matched against detail and kind; empty for all. */
  q: string;
  /** A day (`YYYY-MM-DD`): entries from the start of that day in the workspace timezone; empty for all. */
  since: string;
}

/** The audit log, newest first, a page at a time (the API's default page size) back to its first row. */
export const activityList = (f: ActivityFilter) =>
  cursorList({
    queryKey: queryKeys.activity.list({ ...f }),
    fetchPage: (cursor): Promise<Schema<'ActivityList'> & CursorPage> =>
      unwrap(
        api.GET('/api/v1/activity', {
          params: {
            query: withCursor(
              {
                ...(f.kind.trim() ? { kind: f.kind.trim() } : {}),
                ...(f.q.trim() ? { q: f.q.trim() } : {}),
                ...(f.since ? { since: f.since } : {}),
              },
              cursor,
            ),
          },
        }),
      ),
    items: (page) => page.activities,
    keepPrevious: true,
  });
