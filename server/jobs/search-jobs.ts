import type { SearchService } from '../domain/search/search-service';
import type { Services } from '../services';
import { EVERY_MINUTE, type Job } from './scheduler';

export const SEARCH_INDEX_JOB = 'search.index';

/**
 * Indexes the rows waiting in the search queue (a quiet desk's last few signals, rows another
 * connection wrote), so they are indexed within a minute even if nothing reads the index.
 */
export function searchIndexJob(search: SearchService): Job {
  return {
    name: SEARCH_INDEX_JOB,
    everyMs: EVERY_MINUTE,
    run: async () => {
      await search.indexQueued();
    },
  };
}

/** The search area's jobs. */
export function searchJobs(s: Services): Job[] {
  return [searchIndexJob(s.search)];
}
