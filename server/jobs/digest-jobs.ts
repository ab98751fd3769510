import type { DigestService } from '../domain/digest/digest-service';
import type { Services } from '../services';
import { EVERY_MINUTE, type Job } from './scheduler';

export const DIGEST_JOB = 'digest.daily';

/**
 * The daily digest. The job looks every minute and the digest service decides whether it is due
 * (08:00 workspace time or later, not yet run that workspace day, 22 hours since the last run), so
 * the hour follows the workspace timezone across DST changes and a desk started later in the day
 * still sends that day's digest.
 */
export function digestJob(digest: DigestService): Job {
  return {
    name: DIGEST_JOB,
    everyMs: EVERY_MINUTE,
    run: async () => {
      await digest.runScheduled();
    },
  };
}

export function digestJobs(s: Services): Job[] {
  return [digestJob(s.digest)];
}
