import type { Db } from '../../../db/connection';
import type { ArtifactAuthorKind, ArtifactKind, ArtifactStatus } from '../../core/vocabulary';
import { TASK_OUTPUTS_MAX } from './rules';
import { getTaskRow } from './task-store';

/**
 * GET /tasks/{id}/outputs: what the AI cycles (and members' edits) wrote for a task, for its page to
 * link. The artifacts area writes these rows and sits above tasks (it imports tasks' rules), so the
 * read is a plain select here, as the overview's reads are; index artifacts_task serves it.
 */


export interface TaskOutput {
  id: string;
  title: string;
  kind: ArtifactKind;
  status: ArtifactStatus;
  /** @isInt */
  version: number;
  authorKind: ArtifactAuthorKind;
  /** Set when a newer version replaced this one while it waited (it left the review queue). @format date-time */
  supersededAt: string | null;
  /** @format date-time */
  createdAt: string;
}

export interface TaskOutputs {
  taskId: string;
  /** Newest first, at most 50: every version, superseded ones included (they say so). */
  outputs: TaskOutput[];
  /** Outputs of the task in all. @isInt */
  total: number;
}

export async function taskOutputs(db: Db, taskId: string): Promise<TaskOutputs> {
  await getTaskRow(db, taskId);
  const ofTask = db.selectFrom('artifacts').where('taskId', '=', taskId);
  const [rows, count] = await Promise.all([
    ofTask.select(['id', 'title', 'kind', 'status', 'version', 'authorKind', 'supersededAt', 'createdAt']).orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(TASK_OUTPUTS_MAX).execute(),
    ofTask.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { taskId, outputs: rows.map((r) => ({ ...r, supersededAt: r.supersededAt ?? null })), total: Number(count.n) };
}
