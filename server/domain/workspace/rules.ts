import { IANAZone } from 'luxon';
import type { Plan } from '../../config';
import { DAY_MS } from '../../core/clock';
import { invalid } from '../../core/errors';
import { parseIso } from '../../core/workspace-time';

/** Pure rules of the workspace configuration: limits, defaults and derived values. */

export const PLAN_LOOP_FLOOR_MINUTES: Record<Plan, number> = { free: 15, pro: 5, team: 1 };
export const PLAN_DEFAULT_DAILY_COST_CAP_CENTS: Record<Plan, number> = { free: 50, pro: 500, team: 2000 };
export const DEFAULT_LOOP_INTERVAL_MINUTES = 30;
export const DEFAULT_APPROVAL_POLICY = { watchHours: 24, overdueHours: 72 };
export const DEFAULT_SOURCE_CHRONIC_THRESHOLD_DAYS = 3;
export const MAX_PAUSE_AHEAD_MS = 14 * DAY_MS;
export const MAX_FOCUS_TAGS = 3;
export const FOCUS_TAG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_TAG_LENGTH = 40;

export function effectiveLoopInterval(requested: number, plan: Plan): number {
  return Math.max(requested, PLAN_LOOP_FLOOR_MINUTES[plan]);
}

function requireInt(field: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw invalid(field, `must be an integer from ${min} to ${max}`);
  }
}

export function checkLoopInterval(minutes: number): void {
  requireInt('loopIntervalMinutes', minutes, 1, 1440);
}

export function checkApprovalPolicy(watchHours: number, overdueHours: number): void {
  requireInt('watchHours', watchHours, 1, 168);
  requireInt('overdueHours', overdueHours, 2, 720);
  if (overdueHours <= watchHours) throw invalid('overdueHours', 'must be greater than watchHours');
}

/**
 * A scheduled pause (workspace or source): a parseable ISO time, in the future, at most
 * 14 days ahead. Returns the normalised ISO string.
 */
export function checkScheduledPause(field: string, value: string, now: Date, timezone = 'UTC'): string {
  const at = parseIso(field, value, timezone);
  if (at.getTime() <= now.getTime()) throw invalid(field, 'must be in the future');
  if (at.getTime() - now.getTime() > MAX_PAUSE_AHEAD_MS) throw invalid(field, 'must be at most 14 days ahead');
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
  if (days !== null) requireInt('staleTaskAutoArchiveDays', days, 7, 90);
}

export function checkStaleMemoryDays(days: number | null): void {
  if (days !== null) requireInt('staleMemoryAutoArchiveDays', days, 30, 365);
}

export function checkChronicThresholdDays(days: number): void {
  requireInt('thresholdDays', days, 2, 14);
}

export function checkDailyCostCap(cents: number | null): void {
  if (cents !== null) requireInt('dailyCostCapUsdCents', cents, 0, 100_000_000);
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

// No whitespace, control characters or lone surrogates anywhere in the address.
const EMAIL_PATTERN = /^[^\s@\p{Cc}\p{Cs}]+@[^\s@\p{Cc}\p{Cs}]+\.[^\s@\p{Cc}\p{Cs}]+$/u;
export function checkEmail(field: string, email: string): void {
  if (email.length > 254 || !EMAIL_PATTERN.test(email)) throw invalid(field, 'must be an email address');
}

export function checkRange(field: string, value: number, min: number, max: number): void {
  requireInt(field, value, min, max);
}
