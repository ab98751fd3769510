import type { Db } from '../../../db/connection';
import type { WorkspaceTable } from '../../../db/schema';
import { pausesOnChronic, pausesOnSpike } from './alerts';

/**
 * The pauses the guard applies, as the loop and the feed poller read them. A pause is stamped by the
 * detector when a spike (or a source's chronic streak) is raised under action `pause`, and lifted
 * by the matching ack; it only takes effect while the workspace action is still `pause`, so turning
 * the action to `none` releases everything it paused at once.
 */

type Actions = Pick<WorkspaceTable, 'taskCostSpikeAction' | 'tagCostSpikeAction' | 'sourceCostSpikeAction' | 'sourceChronicSpikeAction'>;

/** Tasks among `taskIds` the loop de-prioritises: their own spike pause, or a pause of one of their tags. */
export async function spikePausedTaskIds(db: Db, ws: Actions, taskIds: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  if (taskIds.length === 0) return out;
  const wanted = new Set(taskIds);
  if (pausesOnSpike(ws, 'task')) {
    const rows = await db.selectFrom('costWatch').select('key').where('dimension', '=', 'task').where('pausedAt', 'is not', null).execute();
    for (const r of rows) if (wanted.has(r.key)) out.add(r.key);
  }
  if (pausesOnSpike(ws, 'tag')) {
    const tags = (await db.selectFrom('costWatch').select('key').where('dimension', '=', 'tag').where('pausedAt', 'is not', null).execute()).map((r) => r.key);
    if (tags.length > 0) {
      const rows = await db.selectFrom('taskTags').select('taskId').distinct().where('tag', 'in', tags).execute();
      for (const r of rows) if (wanted.has(r.taskId)) out.add(r.taskId);
    }
  }
  return out;
}

/** Sources the feed poller skips: a spike pause (sourceCostSpikeAction) or a chronic pause (sourceChronicSpikeAction). */
export async function spikePausedSourceIds(db: Db, ws: Actions): Promise<Set<string>> {
  const spike = pausesOnSpike(ws, 'source');
  const chronic = pausesOnChronic(ws, 'source');
  if (!spike && !chronic) return new Set();
  const rows = await db.selectFrom('costWatch').select(['key', 'pausedAt', 'chronicPausedAt']).where('dimension', '=', 'source').where((eb) => eb.or([eb('pausedAt', 'is not', null), eb('chronicPausedAt', 'is not', null)])).execute();
  return new Set(rows.filter((r) => (spike && r.pausedAt !== null) || (chronic && r.chronicPausedAt !== null)).map((r) => r.key));
}
