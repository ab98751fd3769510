import type { SourceService } from '../domain/sources/source-service';
import type { Job } from './scheduler';

export const SOURCE_PAUSE_EXPIRY_JOB = 'sources.pause-expiry';
export const SOURCE_QUIETNESS_JOB = 'sources.quietness-sweep';

/** Resumes sources whose scheduled pause ran out (activity row `source.resumed`, status connected). */
export function sourcePauseExpiryJob(sources: SourceService): Job {
  return {
    name: SOURCE_PAUSE_EXPIRY_JOB,
    everyMs: 15_000,
    run: async () => {
      await sources.resumeExpiredPauses();
    },
  };
}

/** Emits `source.quietness_warning` once per quiet period of each quiet feed (skipped while acked). */
export function sourceQuietnessJob(sources: SourceService): Job {
  return {
    name: SOURCE_QUIETNESS_JOB,
    everyMs: 60 * 60_000,
    run: async () => {
      await sources.warnQuietSources();
    },
  };
}
