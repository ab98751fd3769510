import type { LoopService } from '../domain/loop/loop-service';
import type { Services } from '../services';
import { EVERY_15_SECONDS, type Job } from './scheduler';

export const LOOP_CYCLE_JOB = 'loop.cycle';

/**
 * Looks every 15 seconds whether a scheduled cycle is due (loop `on`, no scheduled pause ahead,
 * the effective loop interval passed since the last cycle started) and runs it; at the daily cost
 * cap it records a skipped cycle instead. The loop service decides; the job only asks.
 */
export function loopCycleJob(loop: LoopService): Job {
  return {
    name: LOOP_CYCLE_JOB,
    everyMs: EVERY_15_SECONDS,
    run: async () => {
      await loop.tick();
    },
  };
}

/** The loop area's jobs. */
export function loopJobs(s: Services): Job[] {
  return [loopCycleJob(s.loop)];
}
