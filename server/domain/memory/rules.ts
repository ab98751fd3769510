import { checkEnum, invalid } from '../../core/errors';
import { defineList } from '../../core/lists';
import { checkTag } from '../tasks/rules';
import { FOCUS_TAG_PATTERN, MAX_TAG_LENGTH } from '../workspace/rules';
import { MEMORY_KINDS, type MemoryKind } from '../../core/vocabulary';
export { MEMORY_KINDS, type MemoryKind };

/**
 * Pure rules of memory. The spec describes memory as facts, decisions, preferences and lessons and
 * leaves the allowed kinds open ("not shown"); Desk fixes them as this enum.
 */

/** Entries at or above this importance are exempt from stale and spike lists (and the stale sweep). */
export const EXEMPT_IMPORTANCE = 9;

/** Importance: any number from 0 to 10 (decimals allowed); absent or null = not rated. */
export const IMPORTANCE = { min: 0, max: 10 } as const;
export const MEMORY_TITLE = { min: 1, max: 200 } as const;
export const MEMORY_CONTENT = { min: 1, max: 4000 } as const;
/** Tags per entry, each like a task tag: lowercase letters and digits joined by single hyphens, at most 40 characters. */
export const MAX_MEMORY_TAGS = 10;
export { MAX_TAG_LENGTH as MAX_MEMORY_TAG_LENGTH, FOCUS_TAG_PATTERN as MEMORY_TAG_PATTERN };
/** GET /memory `q`: at most 200 characters (as the comment keyword filter). */
export const MAX_MEMORY_QUERY = 200;

/** GET /memory/stale thresholdDays (spec: 7-365, default 30). */
export const STALE_MEMORY_THRESHOLD = { min: 7, max: 365, default: 30 } as const;
/** Trajectory windows (spec: 1-30 days, default 7); top-retrieved's `days` too. */
export const TRAJECTORY_DAYS = { min: 1, max: 30, default: 7 } as const;
/** GET /memory/top-retrieved and /top-cost: limit 1-50 (spec default 5); a ranking, not a paged list. */
export const TOP_LIMIT = { min: 1, max: 50, default: 5 } as const;
/** The stale sweep archives at most this many entries per run (one short transaction; the next run goes on). */
export const MEMORY_SWEEP_BATCH = 200;

export const MEMORY_LIST = defineList('ListMemory', 50, 200);
export const STALE_MEMORY_LIST = defineList('ListStaleMemory', 12, 100);

export const MEMORY_BULK_ACTIONS = ['delete', 'pin', 'tag', 'untag'] as const;
export type MemoryBulkAction = (typeof MEMORY_BULK_ACTIONS)[number];

export const checkKind = (v: unknown): MemoryKind => checkEnum('kind', MEMORY_KINDS, v);

/** A text of min..max characters (trimmed), 422 naming the field otherwise. */
export function checkMemoryText(field: string, value: unknown, b: { min: number; max: number }): string {
  if (typeof value !== 'string') throw invalid(field, 'must be a string');
  const t = value.trim();
  const n = [...t].length;
  if (n < b.min) throw invalid(field, 'must not be empty');
  if (n > b.max) throw invalid(field, `must be at most ${b.max} characters`);
  return t;
}

/** Importance 0-10 or null (not rated). */
export function checkImportance(v: unknown): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < IMPORTANCE.min || v > IMPORTANCE.max) throw invalid('importance', `must be a number from ${IMPORTANCE.min} to ${IMPORTANCE.max}, or null`);
  return v;
}

/** Whether an entry is exempt from stale lists, spike lists and the stale sweep. */
export const isExempt = (e: { pinned: boolean | number; importance: number | null }) => e.pinned === true || e.pinned === 1 || (e.importance !== null && e.importance >= EXEMPT_IMPORTANCE);

/** Memory tags: at most 10, each lowercase-hyphen (trimmed), duplicates folded, order kept. */
export function normaliseMemoryTags(tags: unknown, field = 'tags'): string[] {
  if (!Array.isArray(tags)) throw invalid(field, 'must be an array');
  const out: string[] = [];
  tags.forEach((raw, i) => {
    const tag = checkTag(raw, `${field}[${i}]`);
    if (!out.includes(tag)) out.push(tag);
  });
  if (out.length > MAX_MEMORY_TAGS) throw invalid(field, `must hold at most ${MAX_MEMORY_TAGS} tags`);
  return out;
}

/** An integer parameter within a range (its default when absent). */
export function checkIntParam(field: string, value: number | undefined, r: { min: number; max: number; default: number }): number {
  if (value === undefined) return r.default;
  if (!Number.isInteger(value) || value < r.min || value > r.max) throw invalid(field, `must be an integer from ${r.min} to ${r.max}`);
  return value;
}

/**
 * The FTS5 expression of a keyword filter: every word of `q` must appear (as a word prefix) in the
 * title, content or tags. 422 naming `q` when it is too long or holds no letter or digit.
 */
export function keywordExpression(q: string): string {
  if ([...q].length > MAX_MEMORY_QUERY) throw invalid('q', `must be at most ${MAX_MEMORY_QUERY} characters`);
  const words = [...new Set(q.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0))].slice(0, 16);
  if (words.length === 0) throw invalid('q', 'must contain a letter or digit');
  return words.map((w) => `"${w}"*`).join(' AND ');
}

/** USD from micro-USD, rounded to 6 decimals. */
export const usd = (micro: number) => Math.round(micro) / 1_000_000;
