import type { Services } from '../services';
import { EVERY_DAY, type Job } from './scheduler';

export const DAILY_BACKUP_JOB = 'backups.daily';

/** One backup a day; the scheduler's durable last run keeps it daily across restarts. */
export function backupJobs(s: Services): Job[] {
  return [
    {
      name: DAILY_BACKUP_JOB,
      everyMs: EVERY_DAY,
      run: async () => {
        await s.backups.createScheduled();
      },
    },
  ];
}
