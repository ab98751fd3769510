import type { TaskService } from '../domain/tasks/task-service';
import type { Services } from '../services';
import { EVERY_HOUR, type Job } from './scheduler';

export const TASK_STALE_SWEEP_JOB = 'tasks.stale-sweep';

/**
 * The stale auto-archive sweep (workspace staleTaskAutoArchiveDays; off when null): warns a task a
 * day before archiving it, then archives it (pinned tasks excluded).
 */
export function taskStaleSweepJob(tasks: TaskService): Job {
  return {
    name: TASK_STALE_SWEEP_JOB,
    everyMs: EVERY_HOUR,
    run: async () => {
      await tasks.sweepStale();
    },
  };
}

/** The tasks area's jobs. */
export function taskJobs(s: Services): Job[] {
  return [taskStaleSweepJob(s.tasks)];
}
