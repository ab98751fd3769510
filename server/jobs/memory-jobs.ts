import type { MemoryService } from '../domain/memory/memory-service';
import type { Services } from '../services';
import { EVERY_HOUR, type Job } from './scheduler';

export const MEMORY_STALE_SWEEP_JOB = 'memory.stale-sweep';

/**
 * The stale-memory auto-archive sweep (workspace staleMemoryAutoArchiveDays; off when null):
 * archives entries not retrieved within the threshold (pinned and importance >= 9 kept).
 */
export function memoryStaleSweepJob(memory: MemoryService): Job {
  return {
    name: MEMORY_STALE_SWEEP_JOB,
    everyMs: EVERY_HOUR,
    run: async () => {
      await memory.sweepStale();
    },
  };
}

/** The memory area's jobs. */
export function memoryJobs(s: Services): Job[] {
  return [memoryStaleSweepJob(s.memory)];
}
