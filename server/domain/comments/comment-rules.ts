import { DAY_MS } from '../../core/clock';
import { invalid } from '../../core/errors';
import { defineList } from '../../core/lists';

/** Rules of task comments, mentions and their search. The controllers document the same numbers (server/openapi/rules.ts). */

/** A comment's text: 1-4000 characters after trimming. */
export const MIN_COMMENT_LENGTH = 1;
export const MAX_COMMENT_LENGTH = 4000;
/** Comments one task holds at most; the next one is a 409 limit_reached (the thread view is served whole). */
export const MAX_COMMENTS_PER_TASK = 1000;
/** The comment search `q`: at most 200 characters (spec). */
export const MAX_COMMENT_QUERY_LENGTH = 200;
/** How far back `since` may reach: 365 days before now (spec: one year). */
export const MAX_SINCE_LOOKBACK_DAYS = 365;
/** Comments shown in the engagement's topReactedComments. */
export const TOP_REACTED_COMMENTS = 5;
/** A member's unacknowledged mentions, newest first. */
export const MENTION_LIST = defineList('ListMentions', 50, 200);

/** The trimmed text of a comment, or a 422 naming `text`. */
export function checkCommentText(value: unknown): string {
  if (typeof value !== 'string') throw invalid('text', 'must be a string');
  const text = value.trim();
  if (text.length < MIN_COMMENT_LENGTH) throw invalid('text', 'must not be empty');
  if (text.length > MAX_COMMENT_LENGTH) throw invalid('text', `must be at most ${MAX_COMMENT_LENGTH} characters`);
  return text;
}

/** The search text (trimmed; empty means no search), or a 422 naming `q` past 200 characters. */
export function checkCommentQuery(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (value.length > MAX_COMMENT_QUERY_LENGTH) throw invalid('q', `must be at most ${MAX_COMMENT_QUERY_LENGTH} characters`);
  const q = value.trim();
  return q === '' ? null : q;
}

/** `since` must not reach more than 365 days before now (422 naming `since`). */
export function checkSinceLookback(since: Date, now: Date): Date {
  if (since.getTime() < now.getTime() - MAX_SINCE_LOOKBACK_DAYS * DAY_MS) throw invalid('since', `must be at most ${MAX_SINCE_LOOKBACK_DAYS} days back`);
  return since;
}

/**
 * Initials of a member's name: the first letter of the first and of the last word, upper-cased
 * (one word: its first letter; no letters at all: `?`).
 */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w));
  if (words.length === 0) return '?';
  const first = (w: string) => Array.from(w.replace(/^[^\p{L}\p{N}]+/u, ''))[0] ?? '';
  const letters = words.length === 1 ? first(words[0]) : first(words[0]) + first(words[words.length - 1]);
  return letters.toLocaleUpperCase('en-US');
}

/** A member's colour hue, 0-359, fixed by their id (FNV-1a of the id): the same member always looks the same. */
export function hueOf(userId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < userId.length; i += 1) {
    hash ^= userId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % 360;
}

/**
 * The members a comment mentions. A mention is `@` followed by a member's name, compared without
 * regard to case; the `@` must start the text or follow a character that is not a letter, digit or
 * `_` (so an email address is no mention), and the name must end the text or be followed by a
 * character that is not a letter, digit or `_` (so `@Ann` does not mention a member named Anna).
 * Names may contain spaces (`@Ana Lima`); where two names fit at the same `@`, the longer one wins
 * (`@Ana Lima` mentions Ana Lima, not Ana). Each member counts once per comment.
 */
export function mentionedMembers(text: string, members: readonly { id: string; name: string }[]): string[] {
  const byLength = [...members].filter((m) => m.name.trim() !== '').sort((a, b) => b.name.length - a.name.length);
  const lower = text.toLocaleLowerCase('en-US');
  const found = new Set<string>();
  const isWordChar = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}_]/u.test(ch);
  for (let at = lower.indexOf('@'); at !== -1; at = lower.indexOf('@', at + 1)) {
    if (at > 0 && (isWordChar(lower[at - 1]) || lower[at - 1] === '@')) continue;
    for (const member of byLength) {
      const name = member.name.trim().toLocaleLowerCase('en-US');
      if (lower.startsWith(name, at + 1) && !isWordChar(lower[at + 1 + name.length])) {
        found.add(member.id);
        break;
      }
    }
  }
  return [...found];
}
