import type { CostGuardService } from '../domain/cost-guard/cost-guard-service';
import type { Services } from '../services';
import { EVERY_15_SECONDS, type Job } from './scheduler';

export const COST_GUARD_JOB = 'cost-guard.detect';

/**
 * The cost-spike detector, looked at every 15 seconds (as often as the loop job): it runs when a
 * cycle finished since the last look or the workspace day turned, so a spike is caught within
 * seconds of the cycle that caused it, the day it starts, and a missed day is caught up on start.
 */
export function costGuardJob(guard: CostGuardService): Job {
  return {
    name: COST_GUARD_JOB,
    everyMs: EVERY_15_SECONDS,
    run: async () => {
      await guard.detectIfChanged();
    },
  };
}

/** The cost guard's jobs. */
export function costGuardJobs(s: Services): Job[] {
  return [costGuardJob(s.costGuard)];
}
