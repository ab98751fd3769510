import type { SearchService } from '../domain/search/search-service';
import type { Services } from '../services';
import { EVERY_MINUTE, type Job } from './scheduler';

export const SEARCH_INDEX_JOB = 'search.index';

/**
 * Indexes rows left pending for the search index (rows another connection wrote: the desk's own
 * writes are indexed before they commit): GET /activity `q` finds them without waiting for a search.
 */
export function searchIndexJob(search: SearchService): Job {
  return {
    name: SEARCH_INDEX_JOB,
    everyMs: EVERY_MINUTE,
    run: async () => {
      await search.indexPending();
    },
  };
}

/** The search area's jobs. */
export function searchJobs(s: Services): Job[] {
  return [searchIndexJob(s.search)];
}
