import { inTransaction } from '../../../db/transactions';
import { checkEnum, invalid } from '../../core/errors';
import { checkIdList } from '../../core/input';
import { emit } from '../events/outbox';
import { resolveActor } from '../members/resolve-actor';
import { checkTag } from '../tasks/rules';
import type { MemoryDeps } from './memory-crud';
import { addMemoryTag, deleteMemoryRow, memoryActivity, removeMemoryTag, updateMemory } from './memory-store';
import { MAX_MEMORY_TAGS, MEMORY_BULK_ACTIONS, type MemoryBulkAction } from './rules';

export interface MemoryBulkInput {
  action: string;
  memoryIds: string[];
  pinned?: boolean;
  tag?: string;
  asUserId?: string;
}

export interface MemoryBulkResult {
  action: MemoryBulkAction;
  /** How many entries the action changed. @isInt */
  affected: number;
  /** Entries the action changed (deleted, pinned or unpinned, tagged, untagged). */
  changed: string[];
  /** Entries already in the asked state (already pinned, tag already there or not there). */
  unchanged: string[];
  /** Entries the action does not apply to: `tag` on an entry that already has 10 tags. */
  skipped: string[];
  /** Ids that matched no entry; the action applied to the others. */
  notFound: string[];
}

/**
 * POST /memory/bulk-update under the bulk policy of core/errors.ts: 1-50 ids (422), unknown ids in
 * `notFound`, the action applied to the rest in one transaction. `pin` takes `pinned` (default
 * true; false unpins); `tag` and `untag` need `tag` (422 naming it otherwise). Each changed entry
 * gets its activity row and its event (`memory.deleted`, or `memory.updated` naming `pinned` or `tags`).
 */
export async function bulkMemory(d: MemoryDeps, input: MemoryBulkInput): Promise<MemoryBulkResult> {
  const action = checkEnum('action', MEMORY_BULK_ACTIONS, input.action);
  const ids = checkIdList(input.memoryIds, 'memoryIds');
  let tag = '';
  if (action === 'tag' || action === 'untag') {
    if (input.tag === undefined) throw invalid('tag', `is required for action ${action}`);
    tag = checkTag(input.tag);
  }
  if (input.pinned !== undefined && typeof input.pinned !== 'boolean') throw invalid('pinned', 'must be true or false');
  const pinned = input.pinned ?? true;
  const { db, clock } = d;
  return inTransaction(db, async (trx) => {
    const actor = await resolveActor(trx, input.asUserId);
    const rows = await trx.selectFrom('memory').selectAll().where('id', 'in', ids).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const result: MemoryBulkResult = { action, affected: 0, changed: [], unchanged: [], skipped: [], notFound: ids.filter((id) => !byId.has(id)) };
    const now = clock.now().toISOString();
    for (const id of ids) {
      const row = byId.get(id);
      if (!row) continue;
      if (action === 'delete') {
        await deleteMemoryRow(trx, id);
        await memoryActivity(trx, clock, actor, row, 'memory.deleted', `Memory “${row.title}” deleted`);
        await emit(trx, clock, 'memory.deleted', { memoryId: id, title: row.title });
      } else if (action === 'pin') {
        if ((row.pinned === 1) === pinned) {
          result.unchanged.push(id);
          continue;
        }
        await updateMemory(trx, id, { pinned: pinned ? 1 : 0, updatedAt: now });
        await memoryActivity(trx, clock, actor, row, pinned ? 'memory.pinned' : 'memory.unpinned', `${pinned ? 'Pinned' : 'Unpinned'} memory “${row.title}”`);
        await emit(trx, clock, 'memory.updated', { memoryId: id, title: row.title, changed: ['pinned'] });
      } else {
        const tags = (await trx.selectFrom('memoryTags').select('tag').where('memoryId', '=', id).execute()).map((t) => t.tag);
        const has = tags.includes(tag);
        if ((action === 'tag' && has) || (action === 'untag' && !has)) {
          result.unchanged.push(id);
          continue;
        }
        if (action === 'tag' && tags.length >= MAX_MEMORY_TAGS) {
          result.skipped.push(id);
          continue;
        }
        if (action === 'tag') await addMemoryTag(trx, id, tag);
        else await removeMemoryTag(trx, id, tag);
        await updateMemory(trx, id, { updatedAt: now });
        await memoryActivity(trx, clock, actor, row, action === 'tag' ? 'memory.tagged' : 'memory.untagged', `Memory “${row.title}” ${action === 'tag' ? 'tagged' : 'untagged'} ${tag}`);
        await emit(trx, clock, 'memory.updated', { memoryId: id, title: row.title, changed: ['tags'] });
      }
      result.changed.push(id);
    }
    result.affected = result.changed.length;
    return result;
  });
}
