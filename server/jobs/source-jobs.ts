import type { SourceService } from '../domain/sources/source-service';
import type { Services } from '../services';
import { feedPollerJob } from './feed-poller';
import { EVERY_15_SECONDS, EVERY_HOUR, type Job } from './scheduler';

export const SOURCE_PAUSE_EXPIRY_JOB = 'sources.pause-expiry';
export const SOURCE_QUIETNESS_JOB = 'sources.quietness-sweep';

/** Resumes sources whose scheduled pause ran out (activity row `source.resumed`, status connected). */
export function sourcePauseExpiryJob(sources: SourceService): Job {
  return {
    name: SOURCE_PAUSE_EXPIRY_JOB,
    everyMs: EVERY_15_SECONDS,
    run: async () => {
      await sources.resumeExpiredPauses();
    },
  };
}

/** Emits `source.quietness_warning` once per quiet period of each quiet feed (skipped while acked). */
export function sourceQuietnessJob(sources: SourceService): Job {
  return {
    name: SOURCE_QUIETNESS_JOB,
    everyMs: EVERY_HOUR,
    run: async () => {
      await sources.warnQuietSources();
    },
  };
}

/** The sources area's jobs: feed polling, scheduled-pause expiry, the quietness sweep. */
export function sourceJobs(s: Services): Job[] {
  return [feedPollerJob(s.sourceSync), sourcePauseExpiryJob(s.sources), sourceQuietnessJob(s.sources)];
}
