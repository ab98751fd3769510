import { invalid } from '../../core/errors';

/**
 * The spec's reaction set, shared by every thing that takes reactions (signals today; comments,
 * artifacts and memory entries as they arrive). Order is the display order of summaries.
 * ❤️ is U+2764 U+FE0F (the bare U+2764 is not in the set).
 */
export const REACTION_EMOJIS = ['👍', '👀', '🎯', '❤️', '🚀'] as const;

/** One emoji of the reaction set: 👍 👀 🎯 ❤️ 🚀. */
// Spelled out so tsoa documents it as an enum; the check below keeps it equal to REACTION_EMOJIS.
export type ReactionEmoji = '👍' | '👀' | '🎯' | '❤️' | '🚀';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const reactionSetMatches: Same<ReactionEmoji, (typeof REACTION_EMOJIS)[number]> = true;
void reactionSetMatches;

export const isReactionEmoji = (value: unknown): value is ReactionEmoji => (REACTION_EMOJIS as readonly unknown[]).includes(value);

/** 422 naming `field` unless `value` is one emoji of the set. */
export function checkEmoji(value: unknown, field = 'emoji'): ReactionEmoji {
  if (!isReactionEmoji(value)) throw invalid(field, `must be one of ${REACTION_EMOJIS.join(' ')}`);
  return value;
}
