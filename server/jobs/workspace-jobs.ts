import type { WorkspaceService } from '../domain/workspace/workspace-service';
import type { Services } from '../services';
import { EVERY_15_SECONDS, type Job } from './scheduler';

export const WORKSPACE_PAUSE_RESUME_JOB = 'workspace.pause-resume';

/** Resumes the loop when a scheduled pause runs out (the activity row is written by the service). */
export function pauseResumeJob(workspace: WorkspaceService): Job {
  return {
    name: WORKSPACE_PAUSE_RESUME_JOB,
    everyMs: EVERY_15_SECONDS,
    run: async () => {
      await workspace.resumeIfPauseExpired();
    },
  };
}

/** The workspace area's jobs. */
export function workspaceJobs(s: Services): Job[] {
  return [pauseResumeJob(s.workspace)];
}
