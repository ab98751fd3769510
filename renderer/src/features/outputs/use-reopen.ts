import { useReopenOutput, type Artifact } from './api';
import { announce } from './decision-holds';

/**
 * Reopens a decided output (a new ready version from it; the decided one keeps its decision) and says
 * so in the review notice. `onDone` gets the new version.
 */
export function useReopen() {
  const reopen = useReopenOutput();
  const run = (o: Pick<Artifact, 'id' | 'title' | 'status'>, onDone?: (created: Artifact) => void) => {
    if (reopen.isPending || o.status === 'ready') return;
    reopen.mutate(o.id, {
      onSuccess: (created) => {
        announce(`Reopened “${o.title}”: v${created.version} waits for review.`);
        onDone?.(created);
      },
      onError: (err) => announce(`Could not reopen “${o.title}”: ${err.message}`, true),
    });
  };
  return { run, reopening: reopen.isPending };
}
