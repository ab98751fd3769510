import { IANAZone } from 'luxon';
import { PLANS, type Plan } from '../../config';
import { DAY_MS } from '../../core/clock';
import { invalid } from '../../core/errors';
import { checkEmail, MAX_EMAIL_LENGTH } from '../../core/input';
import { defineList } from '../../core/lists';
import { parseIso } from '../../core/workspace-time';
import { type LoopState, LOOP_STATES, type SpikeAction, SPIKE_ACTIONS, FOCUS_TAG_PATTERN, MAX_TAG_LENGTH } from '../../core/vocabulary';
export { checkEmail, MAX_EMAIL_LENGTH };
export { type LoopState, LOOP_STATES, type SpikeAction, SPIKE_ACTIONS, FOCUS_TAG_PATTERN, MAX_TAG_LENGTH };

/**
 * Pure rules of the workspace configuration: limits, defaults, enums and derived values. The
 * controllers document the same numbers in tsoa annotations; server/openapi/rules.ts lists each
 * one against the constant here, so the OpenAPI document cannot drift from the rule.
 */

/** An inclusive integer range of a setting. */
export interface IntRange {
  min: number;
  max: number;
}

export const LOOP_INTERVAL_MINUTES: IntRange = { min: 1, max: 1440 };
export const WATCH_HOURS: IntRange = { min: 1, max: 168 };
export const OVERDUE_HOURS: IntRange = { min: 2, max: 720 };
export const STALE_TASK_DAYS: IntRange = { min: 7, max: 90 };
export const STALE_MEMORY_DAYS: IntRange = { min: 30, max: 365 };
export const CHRONIC_THRESHOLD_DAYS: IntRange = { min: 2, max: 14 };
/** 0 allows no AI spend at all; the top is a sanity bound ($1M a day). */
export const DAILY_COST_CAP_CENTS: IntRange = { min: 0, max: 100_000_000 };
/** GET /workspace/focus-history `sinceDays`: workspace days back from today. */
export const FOCUS_HISTORY_DAYS: IntRange & { default: number } = { min: 1, max: 365, default: 90 };
/** GET /workspace/focus-history pages: spec default 30; 200 at most per page. */
export const FOCUS_HISTORY_LIST = defineList('GetFocusHistory', 30, 200);

export const PLAN_LOOP_FLOOR_MINUTES: Record<Plan, number> = { free: 15, pro: 5, team: 1 };
export const PLAN_DEFAULT_DAILY_COST_CAP_CENTS: Record<Plan, number> = { free: 50, pro: 500, team: 2000 };
export const DEFAULT_LOOP_INTERVAL_MINUTES = 30;
export const DEFAULT_APPROVAL_POLICY = { watchHours: 24, overdueHours: 72 };
export const DEFAULT_SOURCE_CHRONIC_THRESHOLD_DAYS = 3;
/** Spec: a scheduled pause ends at most 14 days ahead, a duration (336 hours), not calendar days. */
export const MAX_PAUSE_AHEAD_DAYS = 14;
export const MAX_PAUSE_AHEAD_MS = MAX_PAUSE_AHEAD_DAYS * DAY_MS;
export const MAX_FOCUS_TAGS = 3;
/**
 * What the API accepts as one tag before trimming (documented in the OpenAPI document): the tag
 * pattern with surrounding whitespace allowed, since the service trims it.
 */
export const FOCUS_TAG_INPUT_PATTERN = new RegExp(`^\\s*${FOCUS_TAG_PATTERN.source.slice(1, -1)}\\s*$`);

export function effectiveLoopInterval(requested: number, plan: Plan): number {
  return Math.max(requested, PLAN_LOOP_FLOOR_MINUTES[plan]);
}

/** 422 naming `field` unless `value` is an integer within `range`. */
export function checkIntIn(field: string, value: number, range: IntRange): void {
  if (!Number.isInteger(value) || value < range.min || value > range.max) {
    throw invalid(field, `must be an integer from ${range.min} to ${range.max}`);
  }
}

/** Kept for areas that still check a range by literals; new code declares an IntRange and uses checkIntIn. */
export function checkRange(field: string, value: number, min: number, max: number): void {
  checkIntIn(field, value, { min, max });
}

export function checkLoopInterval(minutes: number): void {
  checkIntIn('loopIntervalMinutes', minutes, LOOP_INTERVAL_MINUTES);
}

export function checkApprovalPolicy(watchHours: number, overdueHours: number): void {
  checkIntIn('watchHours', watchHours, WATCH_HOURS);
  checkIntIn('overdueHours', overdueHours, OVERDUE_HOURS);
  if (overdueHours <= watchHours) throw invalid('overdueHours', 'must be greater than watchHours');
}

/**
 * A scheduled pause (workspace or source): a parseable ISO time, in the future, at most
 * 14 days ahead. A date alone is the start of that day in the workspace timezone (parseIso).
 * Returns the normalised ISO string.
 */
export function checkScheduledPause(field: string, value: string, now: Date, timezone = 'UTC'): string {
  const at = parseIso(field, value, timezone);
  if (at.getTime() <= now.getTime()) throw invalid(field, 'must be in the future');
  if (at.getTime() - now.getTime() > MAX_PAUSE_AHEAD_MS) throw invalid(field, `must be at most ${MAX_PAUSE_AHEAD_DAYS} days ahead`);
  return at.toISOString();
}

/** Lowercase-hyphen tags: trimmed, checked, duplicates folded, order kept. */
export function normaliseFocusTags(tags: string[]): string[] {
  if (tags.length > MAX_FOCUS_TAGS) throw invalid('tags', `must hold at most ${MAX_FOCUS_TAGS} tags`);
  const out: string[] = [];
  tags.forEach((raw, i) => {
    const tag = raw.trim();
    if (!FOCUS_TAG_PATTERN.test(tag) || tag.length > MAX_TAG_LENGTH) {
      throw invalid(`tags[${i}]`, `"${raw}" must be lowercase letters and digits joined by single hyphens (at most ${MAX_TAG_LENGTH} characters)`);
    }
    if (!out.includes(tag)) out.push(tag);
  });
  return out;
}

export function checkStaleTaskDays(days: number | null): void {
  if (days !== null) checkIntIn('staleTaskAutoArchiveDays', days, STALE_TASK_DAYS);
}

export function checkStaleMemoryDays(days: number | null): void {
  if (days !== null) checkIntIn('staleMemoryAutoArchiveDays', days, STALE_MEMORY_DAYS);
}

export function checkChronicThresholdDays(days: number): void {
  checkIntIn('thresholdDays', days, CHRONIC_THRESHOLD_DAYS);
}

export function checkDailyCostCap(cents: number | null): void {
  if (cents !== null) checkIntIn('dailyCostCapUsdCents', cents, DAILY_COST_CAP_CENTS);
}

export function checkFocusHistoryDays(days: number): void {
  checkIntIn('sinceDays', days, FOCUS_HISTORY_DAYS);
}

export function checkPlan(plan: Plan): void {
  if (!PLANS.includes(plan)) throw invalid('plan', `must be one of: ${PLANS.join(', ')}`);
}

export function checkLoopState(state: LoopState): void {
  if (!LOOP_STATES.includes(state)) throw invalid('loopState', `must be one of: ${LOOP_STATES.join(', ')}`);
}

export function checkSpikeAction(field: string, action: SpikeAction): void {
  if (!SPIKE_ACTIONS.includes(action)) throw invalid(field, `must be one of: ${SPIKE_ACTIONS.filter((a) => a !== null).join(', ')} (or null)`);
}

/**
 * Returns the name as the operator wrote it, with its case fixed (`europe/berlin` becomes
 * `Europe/Berlin`). Never swaps it for another zone: Intl resolves links to ICU's own names
 * (`Europe/Kyiv` to `Europe/Kiev`, `Asia/Kolkata` to `Asia/Calcutta`, `EST` to `America/Panama`).
 */
export function checkTimezone(timezone: string): string {
  if (!IANAZone.isValidZone(timezone)) throw invalid('timezone', `"${timezone}" is not an IANA timezone name such as Europe/Berlin`);
  const lower = timezone.toLowerCase();
  const listed = Intl.supportedValuesOf('timeZone').find((zone) => zone.toLowerCase() === lower);
  if (listed) return listed;
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone;
  return resolved.toLowerCase() === lower ? resolved : timezone;
}

/** A tag as focus tags, task tags and memory tags take it: trimmed, then checked (422 naming `field`). */
export function checkTag(raw: unknown, field = 'tag'): string {
  const tag = typeof raw === 'string' ? raw.trim() : '';
  if (!FOCUS_TAG_PATTERN.test(tag) || tag.length > MAX_TAG_LENGTH) {
    throw invalid(field, `"${String(raw)}" must be lowercase letters and digits joined by single hyphens (at most ${MAX_TAG_LENGTH} characters)`);
  }
  return tag;
}
