import type { WorkspaceService } from '../domain/workspace/workspace-service';
import type { Job } from './scheduler';

/** Resumes the loop when a scheduled pause runs out (the activity row is written by the service). */
export function pauseResumeJob(workspace: WorkspaceService): Job {
  return {
    name: 'workspace.pause-resume',
    everyMs: 15_000,
    run: async () => {
      await workspace.resumeIfPauseExpired();
    },
  };
}
