import type { Services } from '../services';
import { backupJobs } from './backup-jobs';
import { costGuardJobs } from './cost-guard-jobs';
import { memoryJobs } from './memory-jobs';
import { loopJobs } from './loop-jobs';
import { reviewJobs } from './review-jobs';
import { outboundJobs } from './outbound-jobs';
import type { Job, Scheduler } from './scheduler';
import { sourceJobs } from './source-jobs';
import { taskJobs } from './task-jobs';
import { workspaceJobs } from './workspace-jobs';
import { digestJobs } from './digest-jobs';
import { searchJobs } from './search-jobs';

/**
 * Each area lists its own jobs in `jobs/<area>-jobs.ts` (name, named interval, what it calls);
 * a new area adds its list here, and startDesk registers them all.
 */
const AREA_JOBS: readonly ((s: Services) => Job[])[] = [workspaceJobs, sourceJobs, backupJobs, taskJobs, memoryJobs, loopJobs, reviewJobs, costGuardJobs, outboundJobs, digestJobs, searchJobs];

export function registerAreaJobs(scheduler: Scheduler, services: Services): void {
  for (const jobsOf of AREA_JOBS) scheduler.registerAll(jobsOf(services));
}
