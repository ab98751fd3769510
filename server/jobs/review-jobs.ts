import type { ReviewAttentionWatcher } from '../domain/artifacts/attention-watcher';
import type { Services } from '../services';
import { EVERY_MINUTE, type Job } from './scheduler';

export const REVIEW_ATTENTION_JOB = 'review.attention';

/**
 * Outputs cross into overdue by time alone (no write announces it): the review attention watcher
 * looks every minute, so the desktop's tray count and its overdue notification are at most a
 * minute late. The job's last finished run is also the watcher's durable "last look" (see start.ts).
 */
export function reviewAttentionJob(watcher: ReviewAttentionWatcher): Job {
  return {
    name: REVIEW_ATTENTION_JOB,
    everyMs: EVERY_MINUTE,
    run: async () => {
      await watcher.look();
    },
  };
}

/** The review queue's jobs. */
export function reviewJobs(s: Services): Job[] {
  return [reviewAttentionJob(s.reviewAttention)];
}
