import { invalid } from '../../core/errors';
import { REACTION_EMOJIS, type ReactionEmoji } from '../../core/vocabulary';
export { REACTION_EMOJIS, type ReactionEmoji };

export const isReactionEmoji = (value: unknown): value is ReactionEmoji => (REACTION_EMOJIS as readonly unknown[]).includes(value);

/** 422 naming `field` unless `value` is one emoji of the set. */
export function checkEmoji(value: unknown, field = 'emoji'): ReactionEmoji {
  if (!isReactionEmoji(value)) throw invalid(field, `must be one of ${REACTION_EMOJIS.join(' ')}`);
  return value;
}

/** One emoji's reactions on one thing (a comment, a signal ...): the summary shape every reaction list shares. */
export interface ReactionSummary {
  emoji: ReactionEmoji;
  /** @isInt */
  count: number;
  /** Members who reacted with this emoji, earliest first. */
  userIds: string[];
  /** Whether the viewer (asUserId, else the workspace owner) reacted with this emoji. */
  reacted: boolean;
}

/**
 * Groups reaction rows (read earliest first) per thing into summaries: one entry per emoji that has
 * at least one reaction, in the set's order.
 */
export function summariseReactions(rows: readonly { targetId: string; userId: string; emoji: ReactionEmoji }[], viewerId: string): Map<string, ReactionSummary[]> {
  const grouped = new Map<string, Map<ReactionEmoji, string[]>>();
  for (const row of rows) {
    const perTarget = grouped.get(row.targetId) ?? new Map<ReactionEmoji, string[]>();
    grouped.set(row.targetId, perTarget);
    perTarget.set(row.emoji, [...(perTarget.get(row.emoji) ?? []), row.userId]);
  }
  const out = new Map<string, ReactionSummary[]>();
  for (const [targetId, perEmoji] of grouped) {
    const summaries: ReactionSummary[] = [];
    for (const emoji of REACTION_EMOJIS) {
      const userIds = perEmoji.get(emoji);
      if (userIds) summaries.push({ emoji, count: userIds.length, userIds, reacted: userIds.includes(viewerId) });
    }
    out.set(targetId, summaries);
  }
  return out;
}
