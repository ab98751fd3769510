import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import type { Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { summariseReactions, type ReactionEmoji, type ReactionSummary } from './reactions';

/**
 * Reaction rows of every thing that takes reactions, read and toggled in one place. Each kind has
 * its own table `(<thing>_id, user_id, emoji, created_at)` with the primary key (thing, user,
 * emoji), so a page of summaries is one index range and a toggle one statement or two.
 */
const TABLES = {
  signal: { table: 'signal_reactions', column: 'signal_id' },
  comment: { table: 'comment_reactions', column: 'comment_id' },
  memory: { table: 'memory_reactions', column: 'memory_id' },
  artifact: { table: 'artifact_reactions', column: 'artifact_id' },
} as const;

export type ReactionTarget = keyof typeof TABLES;

/** The summaries of up to a page of things, keyed by id (things without reactions are absent). */
export async function reactionSummaries(db: Db | Trx, target: ReactionTarget, ids: readonly string[], viewerId: string): Promise<Map<string, ReactionSummary[]>> {
  if (ids.length === 0) return new Map();
  const { table, column } = TABLES[target];
  const rows = await sql<{ targetId: string; userId: string; emoji: ReactionEmoji }>`
    SELECT ${sql.ref(column)} AS target_id, user_id, emoji FROM ${sql.table(table)}
    WHERE ${sql.ref(column)} IN (${sql.join(ids)})
    ORDER BY created_at, user_id`.execute(db);
  return summariseReactions(rows.rows, viewerId);
}

/**
 * Toggles one member's reaction: removes it when present, else adds it. Deleting tells whether it
 * was there (one statement instead of a read and a write). Returns whether it is now present,
 * with the thing's summaries as the member sees them.
 */
export async function toggleReactionRow(
  trx: Trx,
  clock: Clock,
  target: ReactionTarget,
  targetId: string,
  userId: string,
  emoji: ReactionEmoji,
): Promise<{ reacted: boolean; reactions: ReactionSummary[] }> {
  const { table, column } = TABLES[target];
  const removed = await sql`DELETE FROM ${sql.table(table)} WHERE ${sql.ref(column)} = ${targetId} AND user_id = ${userId} AND emoji = ${emoji}`.execute(trx);
  const reacted = Number(removed.numAffectedRows ?? 0) === 0;
  if (reacted) await insertReactionRow(trx, target, targetId, userId, emoji, clock.now().toISOString());
  const reactions = (await reactionSummaries(trx, target, [targetId], userId)).get(targetId) ?? [];
  return { reacted, reactions };
}

/** Adds one member's reaction (toggleReactionRow's add; fixtures pass their own time). */
export async function insertReactionRow(trx: Trx, target: ReactionTarget, targetId: string, userId: string, emoji: ReactionEmoji, createdAt: string): Promise<void> {
  const { table, column } = TABLES[target];
  await sql`INSERT INTO ${sql.table(table)} (${sql.ref(column)}, user_id, emoji, created_at) VALUES (${targetId}, ${userId}, ${emoji}, ${createdAt})`.execute(trx);
}
