import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import { runStatement } from '../../../db/compiled';
import type { Db } from '../../../db/connection';
import type { MemoryTable } from '../../../db/schema';
import type { Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { memoryNotFound } from '../../core/errors';
import { newId } from '../../core/ids';
import { lastDays } from '../../core/workspace-time';
import { recordActivity, type Actor } from '../activity/activity';
import type { ActivityKind } from '../catalog/activity-kinds';
import { emit } from '../events/outbox';
import { type ReactionSummary } from '../reactions/reactions';
import { usd, type MemoryKind } from './rules';
import { reactionSummaries } from '../reactions/reaction-store';
import { guardStates, NO_GUARD_STATE } from '../cost-guard/guard-state';
import { deleteBuckets, type CycleCharge } from '../cost/cost-ledger';
import { ZERO_COST, type CostAmount } from '../cost/rules';

/** SQL of the memory, memory_tags and memory_retrieval_daily tables (their one writer), and the entry the API shows. */

export type MemoryRow = Selectable<MemoryTable>;

/** A memory entry as every memory answer shows it. */
export interface MemoryEntry {
  id: string;
  kind: MemoryKind;
  title: string;
  content: string;
  /** 0-10, or null when not rated; 9 or higher exempts the entry from stale and spike lists. */
  importance: number | null;
  /** Pinned entries are exempt from stale and spike lists and from the stale sweep. */
  pinned: boolean;
  tags: string[];
  /** One entry per emoji that has at least one reaction, in the order 👍 👀 🎯 ❤️ 🚀. */
  reactions: ReactionSummary[];
  /** Retrievals by AI cycles over the last 7 workspace-timezone days (today included). @isInt */
  retrievals7d: number;
  /** Retrievals by AI cycles, all time. @isInt */
  retrievalCount: number;
  /** @format date-time */
  lastRetrievedAt: string | null;
  /** Tokens attributed to the entry: an equal share of each cycle's per-task token delta across the entries that cycle pulled. @isInt */
  totalAttributedInputTokens: number;
  /** @isInt */
  totalAttributedOutputTokens: number;
  /** USD of the attributed tokens (6 decimals). */
  estimatedCostUsd: number;
  /** The same-day cost-spike ack while it holds (the rest of the workspace day it was given on), else null. @format date-time */
  costSpikeAckedAt: string | null;
  /** The chronic ack while it holds (7 days), else null. @format date-time */
  chronicAckedAt: string | null;
  /** Consecutive workspace days the entry's cost spiked, up to today or yesterday (0 once a day passed without a spike). @isInt */
  consecutiveSpikeDays: number;
  /** The AI cycle that wrote the entry; null for entries added by hand. */
  createdByRunId: string | null;
  /** Set when the stale-memory sweep archived the entry: no longer listed nor retrieved. @format date-time */
  archivedAt: string | null;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}

export { memoryNotFound };

/** The entry's row, or 404. Pass the transaction when inside one. */
export async function getMemoryRow(db: Db, id: string): Promise<MemoryRow> {
  const row = await db.selectFrom('memory').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw memoryNotFound(id);
  return row;
}

/** Tags of entries, each entry's sorted by tag (primary-key prefix). */
export async function tagsOf(db: Db, ids: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (ids.length === 0) return out;
  const rows = await db.selectFrom('memoryTags').select(['memoryId', 'tag']).where('memoryId', 'in', ids).orderBy('memoryId').orderBy('tag').execute();
  for (const r of rows) out.set(r.memoryId, [...(out.get(r.memoryId) ?? []), r.tag]);
  return out;
}

/** Retrievals per entry over the given workspace days (inclusive range of day strings). */
export async function retrievalsSince(db: Db, ids: readonly string[], fromDay: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('memoryRetrievalDaily')
    .select((eb) => ['memoryId', eb.fn.sum<number>('count').as('n')])
    .where('memoryId', 'in', ids)
    .where('day', '>=', fromDay)
    .groupBy('memoryId')
    .execute();
  for (const r of rows) out.set(r.memoryId, Number(r.n));
  return out;
}

/** Rows as API entries: tags, reactions (as the viewer sees them) and retrievals7d in three queries. */
export async function toEntries(db: Db, rows: readonly MemoryRow[], viewerId: string, now: Date, timezone: string): Promise<MemoryEntry[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [tags, reactions, recent, guard] = await Promise.all([
    tagsOf(db, ids),
    reactionSummaries(db, 'memory', ids, viewerId),
    retrievalsSince(db, ids, lastDays(now, timezone, 7)[0]),
    guardStates(db, 'memory', ids, now, timezone),
  ]);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    title: r.title,
    content: r.content,
    importance: r.importance,
    pinned: r.pinned === 1,
    tags: tags.get(r.id) ?? [],
    reactions: reactions.get(r.id) ?? [],
    retrievals7d: recent.get(r.id) ?? 0,
    retrievalCount: r.retrievalCount,
    lastRetrievedAt: r.lastRetrievedAt,
    totalAttributedInputTokens: r.totalAttributedInputTokens,
    totalAttributedOutputTokens: r.totalAttributedOutputTokens,
    estimatedCostUsd: usd(r.costMicroUsd),
    ...(guard.get(r.id) ?? NO_GUARD_STATE),
    createdByRunId: r.createdByRunId,
    archivedAt: r.archivedAt,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  }));
}

/** One activity row about a memory entry. */
export function memoryActivity(trx: Trx, clock: Clock, actor: Actor, entry: { id: string }, kind: ActivityKind, detail: string) {
  return recordActivity(trx, clock, { kind, detail, actor, entityType: 'memory', entityId: entry.id });
}

export async function setMemoryTags(trx: Trx, memoryId: string, tags: readonly string[]): Promise<void> {
  await trx.deleteFrom('memoryTags').where('memoryId', '=', memoryId).execute();
  if (tags.length > 0) await trx.insertInto('memoryTags').values(tags.map((tag) => ({ memoryId, tag }))).execute();
}

/** The fields of a new entry (already checked). */
export interface NewMemoryFields {
  kind: MemoryKind;
  title: string;
  content: string;
  importance: number | null;
  pinned: boolean;
  tags: readonly string[];
  /** The AI cycle writing it; null for the operator. */
  createdByRunId: string | null;
}

/**
 * Inserts an entry with its tags, its activity row and `memory.created`, inside the caller's
 * transaction; returns its id. POST /memory uses it, and so can the loop for the memory a cycle writes.
 */
export async function insertMemoryEntry(trx: Trx, clock: Clock, actor: Actor, f: NewMemoryFields): Promise<string> {
  const id = newId('mem', clock);
  const now = clock.now().toISOString();
  await trx
    .insertInto('memory')
    .values({ id, kind: f.kind, title: f.title, content: f.content, importance: f.importance, pinned: f.pinned ? 1 : 0, createdByRunId: f.createdByRunId, createdAt: now, updatedAt: now })
    .execute();
  await setMemoryTags(trx, id, f.tags);
  const by = f.createdByRunId ? ` by cycle ${f.createdByRunId}` : '';
  await memoryActivity(trx, clock, actor, { id }, 'memory.created', `Memory ${f.kind} “${f.title}” added${by}`);
  await emit(trx, clock, 'memory.created', { memoryId: id, kind: f.kind, title: f.title, importance: f.importance, pinned: f.pinned, tags: [...f.tags], createdByRunId: f.createdByRunId });
  return id;
}

/** Inserts whole memory rows as given (a cycle's drafts, templates, import, the bench and fixtures), one statement. */
export async function insertMemoryRows(trx: Trx, rows: Insertable<MemoryTable>[]): Promise<void> {
  await trx.insertInto('memory').values(rows).execute();
}

/** Inserts tag rows of new entries, one statement. */
export async function insertMemoryTagRows(trx: Trx, rows: { memoryId: string; tag: string }[]): Promise<void> {
  await trx.insertInto('memoryTags').values(rows).execute();
}

export async function addMemoryTag(trx: Trx, memoryId: string, tag: string): Promise<void> {
  await trx.insertInto('memoryTags').values({ memoryId, tag }).execute();
}

export async function removeMemoryTag(trx: Trx, memoryId: string, tag: string): Promise<void> {
  await trx.deleteFrom('memoryTags').where('memoryId', '=', memoryId).where('tag', '=', tag).execute();
}

/** Renames a tag on every entry: entries carrying both first lose `from` (merged), the rest are renamed. */
export async function renameMemoryTag(trx: Trx, from: string, to: string): Promise<{ renamed: number; merged: number }> {
  const merged = await sql`DELETE FROM memory_tags WHERE tag = ${from} AND memory_id IN (SELECT memory_id FROM memory_tags WHERE tag = ${to})`.execute(trx);
  const renamed = await sql`UPDATE memory_tags SET tag = ${to} WHERE tag = ${from}`.execute(trx);
  return { renamed: Number(renamed.numAffectedRows ?? 0), merged: Number(merged.numAffectedRows ?? 0) };
}

/** Sets columns of one entry (edits, pins, the sweep's archive, fixtures' counters). */
export async function updateMemory(trx: Trx, id: string, change: Updateable<MemoryTable>): Promise<void> {
  await trx.updateTable('memory').set(change).where('id', '=', id).execute();
}

/** Deletes an entry and what hangs on it (tags, reactions and retrieval days cascade; memory cost rows have no foreign key). */
export async function deleteMemoryRow(trx: Trx, id: string): Promise<void> {
  const gone = await trx.deleteFrom('memory').where('id', '=', id).executeTakeFirst();
  if (Number(gone.numDeletedRows) === 0) throw memoryNotFound(id);
  await deleteBuckets(trx, 'memory', id);
}

/**
 * What a cycle charges an entry, as fixed SQL (a big cycle pulls hundreds of entries): counters
 * and attributed cost on the row, and the day's retrievals.
 */
const ADD_TO_MEMORY =
  'update memory set retrieval_count = retrieval_count + ?, last_retrieved_at = ?, total_attributed_input_tokens = total_attributed_input_tokens + ?, total_attributed_output_tokens = total_attributed_output_tokens + ?, cost_micro_usd = cost_micro_usd + ? where id = ?';
const ADD_RETRIEVALS = 'insert into memory_retrieval_daily (memory_id, day, count) values (?, ?, ?) on conflict (memory_id, day) do update set count = memory_retrieval_daily.count + ?';

/** Adds `count` retrievals to an entry's workspace day. */
export async function addRetrievals(trx: Trx, memoryId: string, day: string, count: number): Promise<void> {
  await runStatement(trx, ADD_RETRIEVALS, [memoryId, day, count, count]);
}

/**
 * A cycle's retrievals: retrieval_count (+1 per retrieval), lastRetrievedAt, the day's retrievals
 * and the cost the ledger attributed to each entry (recordCycleCost's answer). Runs after the ledger.
 */
export async function recordRetrievals(trx: Trx, breathe: () => Promise<void>, charge: Pick<CycleCharge, 'tasks' | 'day' | 'at'>, attributed: Map<string, CostAmount>): Promise<void> {
  const retrievals = new Map<string, number>();
  for (const t of charge.tasks) for (const id of t.retrievedMemoryIds) retrievals.set(id, (retrievals.get(id) ?? 0) + 1);
  if (retrievals.size === 0) return;
  // An entry deleted while the engine worked is skipped (its daily row would have no parent).
  const live = new Set((await trx.selectFrom('memory').select('id').where('id', 'in', [...retrievals.keys()]).execute()).map((r) => r.id));
  for (const [id, count] of retrievals) {
    if (!live.has(id)) continue;
    await breathe();
    const cost = attributed.get(id) ?? ZERO_COST;
    await runStatement(trx, ADD_TO_MEMORY, [count, charge.at, cost.inputTokens, cost.outputTokens, cost.costMicroUsd, id]);
    await addRetrievals(trx, id, charge.day, count);
  }
}
