import { invalid } from '../../core/errors';
import { STALE_THRESHOLD_DAYS } from '../tasks/rules';

/**
 * The overview reads' bounds (GET /workspace/summary, /today, /whats-new, /personal-inbox,
 * /insights, /reactions-summary). Controllers repeat them in JSDoc; server/openapi/rules.ts ties
 * each documented one to its constant.
 */

/** whats-new: the default lookback when `since` is absent. */
export const WHATS_NEW_DEFAULT_HOURS = 24;
/** whats-new: a `since` further back than this many workspace days is clamped to it (not refused). */
export const WHATS_NEW_MAX_LOOKBACK_DAYS = 30;
/** whats-new: the newest items shown per kind. */
export const WHATS_NEW_SAMPLE_SIZE = 3;

/** today: the baseline is the average of this many workspace days before today. */
export const TODAY_BASELINE_DAYS = 7;

/** personal inbox: rows listed per section (each section carries its full total). */
export const INBOX_SECTION_LIMIT = 20;
/** personal inbox: a task is due soon when its dueAt falls before now plus this many hours (overdue included). */
export const DUE_SOON_HOURS = 48;
/** personal inbox: the stale threshold in days (the tasks area's stale rule; same bounds and default). */
export const INBOX_STALE_DAYS = STALE_THRESHOLD_DAYS;

/** insights: the trailing window in workspace days (today included). */
export const INSIGHTS_WINDOW_DAYS = 14;
/** insights: how many tags to return. */
export const INSIGHTS_TAG_LIMIT = { min: 1, max: 50, default: 10 } as const;

/** reactions summary: how many top reacted things to return. */
export const REACTIONS_TOP_LIMIT = { min: 1, max: 50, default: 8 } as const;

/** An optional integer query parameter within bounds; 422 naming the field otherwise. */
export function intParam(field: string, value: number | undefined, r: { min: number; max: number; default: number }): number {
  if (value === undefined) return r.default;
  if (!Number.isInteger(value) || value < r.min || value > r.max) throw invalid(field, `must be an integer from ${r.min} to ${r.max}`);
  return value;
}
