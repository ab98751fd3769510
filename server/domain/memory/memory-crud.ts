import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import { inTransaction } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { checkEnum, invalid } from '../../core/errors';
import { afterKey, pageRequest, toPage } from '../../core/lists';
import { emit } from '../events/outbox';
import { resolveActor } from '../members/resolve-actor';
import { checkEmoji, type ReactionEmoji, type ReactionSummary } from '../reactions/reactions';
import { checkTag } from '../tasks/rules';
import type { WorkspaceService } from '../workspace/workspace-service';
import { deleteMemoryRow, getMemoryRow, insertMemoryEntry, memoryActivity, setMemoryTags, tagsOf, toEntries, updateMemory, type MemoryEntry, type MemoryRow } from './memory-store';
import { checkImportance, checkKind, checkMemoryText, keywordExpression, MEMORY_CONTENT, MEMORY_KINDS, MEMORY_LIST, MEMORY_TITLE, normaliseMemoryTags, type MemoryKind } from './rules';
import { toggleReactionRow } from '../reactions/reaction-store';

/** What every memory module needs. */
export interface MemoryDeps {
  db: Db;
  clock: Clock;
  workspace: WorkspaceService;
}

export interface MemoryListQuery {
  kind?: string;
  tag?: string;
  q?: string;
  asUserId?: string;
  limit?: number;
  cursor?: string;
}

export interface MemoryList {
  memory: MemoryEntry[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

export interface CreateMemoryInput {
  kind: string;
  title: string;
  content: string;
  importance?: number | null;
  pinned?: boolean;
  tags?: string[];
  asUserId?: string;
}

export interface MemoryPatch {
  kind?: string;
  title?: string;
  content?: string;
  importance?: number | null;
  pinned?: boolean;
  tags?: string[];
  asUserId?: string;
}

/** The fields PATCH can change, as `memory.updated` names them. */
export type MemoryField = 'kind' | 'title' | 'content' | 'importance' | 'pinned' | 'tags';

export interface MemoryReactionResult {
  memoryId: string;
  emoji: ReactionEmoji;
  /** true when this call added the reaction, false when it removed it. */
  reacted: boolean;
  /** The entry's reactions after the toggle. */
  reactions: ReactionSummary[];
}

/** What DELETE /memory/{id} removed. */
export interface DeletedMemory {
  memoryId: string;
  title: string;
  deleted: true;
}

export interface TaskSourceMemoryEntries {
  taskId: string;
  /** The entries the task's AI cycles pulled (archived ones included), in sourceMemoryIds order. */
  memory: MemoryEntry[];
  /** The stored sourceMemoryIds. */
  memoryIds: string[];
  /** sourceMemoryIds whose entry has been deleted since. */
  missingMemoryIds: string[];
}

/** Memory entries one at a time: list, read, create, edit, delete, reactions. */
export class MemoryCrud {
  constructor(private readonly d: MemoryDeps) {}

  /** Live (not archived) entries, newest first; filters by kind, tag and keywords (every word, as a word prefix). */
  async list(query: MemoryListQuery = {}): Promise<MemoryList> {
    const { limit, after } = pageRequest(MEMORY_LIST, query, ['string', 'string']);
    const kind = query.kind === undefined ? undefined : checkEnum('kind', MEMORY_KINDS, query.kind);
    const tag = query.tag === undefined ? undefined : checkTag(query.tag, 'tag');
    const match = query.q === undefined || query.q.trim() === '' ? undefined : keywordExpression(query.q);
    const { db } = this.d;
    const viewer = await resolveActor(db, query.asUserId);
    // Served by memory_created (archived_at, created_at, id): the IS NULL prefix, then the keyset.
    let q = db.selectFrom('memory').selectAll().where('archivedAt', 'is', null);
    if (kind !== undefined) q = q.where('kind', '=', kind);
    if (tag !== undefined) q = q.where(({ exists, selectFrom }) => exists(selectFrom('memoryTags').select('memoryTags.memoryId').whereRef('memoryTags.memoryId', '=', 'memory.id').where('memoryTags.tag', '=', tag)));
    if (match !== undefined) q = q.where('id', 'in', sql<string>`(SELECT memory_id FROM memory_fts WHERE memory_fts MATCH ${match})`);
    if (after) q = q.where(afterKey(['memory.created_at', 'memory.id'], after, 'desc'));
    const rows = await q.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
    const page = toPage(rows, limit, (r) => [r.createdAt, r.id]);
    return { memory: await this.entries(page.rows, viewer.userId), nextCursor: page.nextCursor };
  }

  /** One entry, archived ones included. */
  async get(id: string, asUserId?: string): Promise<MemoryEntry> {
    const viewer = await resolveActor(this.d.db, asUserId);
    return (await this.entries([await getMemoryRow(this.d.db, id)], viewer.userId))[0];
  }

  async create(input: CreateMemoryInput): Promise<MemoryEntry> {
    const kind = checkKind(input.kind);
    const title = checkMemoryText('title', input.title, MEMORY_TITLE);
    const content = checkMemoryText('content', input.content, MEMORY_CONTENT);
    const importance = checkImportance(input.importance);
    if (input.pinned !== undefined && typeof input.pinned !== 'boolean') throw invalid('pinned', 'must be true or false');
    const tags = normaliseMemoryTags(input.tags ?? []);
    const { db, clock } = this.d;
    const { id, viewer } = await inTransaction(db, async (trx) => {
      const actor = await resolveActor(trx, input.asUserId);
      const id = await insertMemoryEntry(trx, clock, actor, { kind, title, content, importance, pinned: input.pinned ?? false, tags, createdByRunId: null });
      return { id, viewer: actor.userId };
    });
    return (await this.entries([await getMemoryRow(db, id)], viewer))[0];
  }

  /**
   * Edits the given fields (at least one). Values equal to the stored ones change nothing; when
   * nothing changes there is no activity row and no event. Usage counters and cost never change here.
   */
  async update(id: string, patch: MemoryPatch): Promise<MemoryEntry> {
    const next: { kind?: MemoryKind; title?: string; content?: string; importance?: number | null; pinned?: boolean; tags?: string[] } = {};
    if (patch.kind !== undefined) next.kind = checkKind(patch.kind);
    if (patch.title !== undefined) next.title = checkMemoryText('title', patch.title, MEMORY_TITLE);
    if (patch.content !== undefined) next.content = checkMemoryText('content', patch.content, MEMORY_CONTENT);
    if (patch.importance !== undefined) next.importance = checkImportance(patch.importance);
    if (patch.pinned !== undefined) {
      if (typeof patch.pinned !== 'boolean') throw invalid('pinned', 'must be true or false');
      next.pinned = patch.pinned;
    }
    if (patch.tags !== undefined) next.tags = normaliseMemoryTags(patch.tags);
    if (Object.keys(next).length === 0) throw invalid('body', 'must change at least one of kind, title, content, importance, pinned, tags');
    const { db, clock } = this.d;
    const viewer = await inTransaction(db, async (trx) => {
      const actor = await resolveActor(trx, patch.asUserId);
      const row = await getMemoryRow(trx, id);
      const oldTags = (await tagsOf(trx, [id])).get(id) ?? [];
      const changed: MemoryField[] = [];
      const set: Partial<Pick<MemoryRow, 'kind' | 'title' | 'content' | 'importance' | 'pinned'>> = {};
      const take = <K extends keyof typeof set>(field: K & MemoryField, value: (typeof set)[K] | undefined, stored: (typeof set)[K]) => {
        if (value === undefined || value === stored) return;
        set[field] = value;
        changed.push(field);
      };
      take('kind', next.kind, row.kind);
      take('title', next.title, row.title);
      take('content', next.content, row.content);
      take('importance', next.importance, row.importance);
      take('pinned', next.pinned === undefined ? undefined : next.pinned ? 1 : 0, row.pinned);
      const tagsChanged = next.tags !== undefined && [...next.tags].sort().join(' ') !== oldTags.join(' ');
      if (tagsChanged) changed.push('tags');
      if (changed.length === 0) return actor.userId;
      await updateMemory(trx, id, { ...set, updatedAt: clock.now().toISOString() });
      if (tagsChanged && next.tags) await setMemoryTags(trx, id, next.tags);
      await memoryActivity(trx, clock, actor, row, 'memory.updated', `Memory “${set.title ?? row.title}” edited: ${changed.join(', ')}`);
      await emit(trx, clock, 'memory.updated', { memoryId: id, title: set.title ?? row.title, changed });
      return actor.userId;
    });
    return (await this.entries([await getMemoryRow(db, id)], viewer))[0];
  }

  /** Deletes the entry with its tags, reactions, retrieval days and daily cost rows; activity rows stay. */
  async remove(id: string, asUserId?: string): Promise<DeletedMemory> {
    const { db, clock } = this.d;
    return inTransaction(db, async (trx) => {
      const actor = await resolveActor(trx, asUserId);
      const row = await getMemoryRow(trx, id);
      await deleteMemoryRow(trx, id);
      await memoryActivity(trx, clock, actor, row, 'memory.deleted', `Memory “${row.title}” deleted`);
      await emit(trx, clock, 'memory.deleted', { memoryId: id, title: row.title });
      return { memoryId: id, title: row.title, deleted: true as const };
    });
  }

  /** Toggles one member's reaction on an entry: a second identical call removes it. */
  async toggleReaction(memoryId: string, emojiInput: string, asUserId?: string): Promise<MemoryReactionResult> {
    const emoji = checkEmoji(emojiInput);
    const { db, clock } = this.d;
    return inTransaction(db, async (trx) => {
      const actor = await resolveActor(trx, asUserId);
      const row = await getMemoryRow(trx, memoryId);
      const { reacted, reactions } = await toggleReactionRow(trx, clock, 'memory', memoryId, actor.userId, emoji);
      const removed = !reacted;
      await memoryActivity(trx, clock, actor, row, removed ? 'memory.reaction_removed' : 'memory.reaction_added', `${removed ? 'Removed' : 'Added'} ${emoji} on memory: ${row.title}`);
      return { memoryId, emoji, reacted, reactions };
    });
  }

  /** The entries a task's cycles pulled (`ids`: its sourceMemoryIds), archived ones included; deleted ones in missingMemoryIds. */
  async forTask(taskId: string, ids: readonly string[]): Promise<TaskSourceMemoryEntries> {
    const { db } = this.d;
    const viewer = await resolveActor(db);
    const wanted = [...new Set(ids)].slice(0, 500);
    const rows = wanted.length ? await db.selectFrom('memory').selectAll().where('id', 'in', wanted).execute() : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const ordered = wanted.map((id) => byId.get(id)).filter((r): r is MemoryRow => r !== undefined);
    return { taskId, memory: await this.entries(ordered, viewer.userId), memoryIds: [...ids], missingMemoryIds: wanted.filter((id) => !byId.has(id)) };
  }

  private async entries(rows: readonly MemoryRow[], viewerId: string): Promise<MemoryEntry[]> {
    const { timezone } = await this.d.workspace.profile();
    return toEntries(this.d.db, rows, viewerId, this.d.clock.now(), timezone);
  }
}
