import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { queryKeys } from '../../api/query-keys';

export type ActivityRecord = Schema<'ActivityRecord'>;

export interface ActivityFilter {
  limit: number;
  /** Comma-separated kinds; empty for all. */
  kind: string;
  /** Text matched against detail and kind; empty for all. */
  q: string;
  /** A day (`YYYY-MM-DD`): entries from the start of that day in the workspace timezone; empty for all. */
  since: string;
}

export const activityQuery = (f: ActivityFilter) =>
  queryOptions({
    queryKey: queryKeys.activity.list({ ...f }),
    queryFn: () =>
      unwrap(
        api.GET('/api/v1/activity', {
          params: {
            query: {
              limit: f.limit,
              ...(f.kind.trim() ? { kind: f.kind.trim() } : {}),
              ...(f.q.trim() ? { q: f.q.trim() } : {}),
              ...(f.since ? { since: f.since } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
