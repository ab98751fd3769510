import type { SourceSync } from '../domain/sources/source-sync';
import { EVERY_MINUTE, type Job } from './scheduler';

export const FEED_POLL_JOB = 'sources.feed-poll';

/**
 * Looks every minute for feed sources (rss, review_site, linkedin) that are due on their own
 * interval or the workspace cadence, and polls them; paused sources are skipped.
 */
export function feedPollerJob(sync: SourceSync): Job {
  return {
    name: FEED_POLL_JOB,
    everyMs: EVERY_MINUTE,
    run: async () => {
      await sync.pollDue();
    },
  };
}
