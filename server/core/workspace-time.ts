import { DateTime } from 'luxon';
import type { Clock } from './clock';
import { invalid } from './errors';

/**
 * Workspace time: "today", daily buckets and N-day windows are calendar days in the workspace
 * timezone, computed with luxon (never by adding UTC offsets by hand: a DST day has 23 or 25
 * hours). Instants are JS Dates from the injected clock; days are `YYYY-MM-DD` strings.
 */

/** A workspace calendar day, `YYYY-MM-DD`. */
export type Day = string;

/** ISO 8601 with a date and, when a time is given, an explicit offset (at most ±23:59) or Z. */
const ISO_PATTERN = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d))?$/;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Parses an ISO 8601 timestamp. A date alone (`2026-03-10`) is the start of that calendar day in
 * `timezone` (the workspace's: days are workspace days). Impossible dates such as 2026-02-30 are
 * refused rather than rolled over into March.
 */
export function parseIso(field: string, value: string, timezone = 'UTC'): Date {
  const at = typeof value === 'string' && ISO_PATTERN.test(value) ? DateTime.fromISO(value, { zone: timezone }) : null;
  if (!at?.isValid) throw invalid(field, 'must be an ISO 8601 timestamp such as 2026-01-31T09:00:00Z');
  return at.toJSDate();
}

/** Reads a `YYYY-MM-DD` day; an impossible one is a 422 naming the field. */
export function parseDay(field: string, value: string): Day {
  const at = DAY_PATTERN.test(value) ? DateTime.fromISO(value, { zone: 'UTC' }) : null;
  if (!at?.isValid) throw invalid(field, 'must be a date such as 2026-01-31');
  return value;
}

/** The workspace day an instant falls on. */
export function dayOf(instant: Date, timezone: string): Day {
  return DateTime.fromJSDate(instant, { zone: timezone }).toISODate() as Day;
}

/** Today in the workspace timezone, by the injected clock. */
export function today(clock: Clock, timezone: string): Day {
  return dayOf(clock.now(), timezone);
}

/** The first instant of a workspace day. */
export function startOfDay(day: Day, timezone: string): Date {
  return DateTime.fromISO(day, { zone: timezone }).startOf('day').toJSDate();
}

/** The first instant after a workspace day (exclusive end: a DST day is 23 or 25 hours long). */
export function endOfDay(day: Day, timezone: string): Date {
  return DateTime.fromISO(day, { zone: timezone }).plus({ days: 1 }).startOf('day').toJSDate();
}

/** The day `n` days after `day` (negative: before), by the calendar. */
export function addDays(day: Day, n: number): Day {
  return DateTime.fromISO(day, { zone: 'UTC' }).plus({ days: n }).toISODate() as Day;
}

/** The last `n` workspace days ending with the one `now` falls on, oldest first. */
export function lastDays(now: Date, timezone: string, n: number): Day[] {
  const last = dayOf(now, timezone);
  return Array.from({ length: n }, (_, i) => addDays(last, i - (n - 1)));
}

/** The instants covering the last `n` workspace days: [start of the first, end of today). */
export function dayWindow(now: Date, timezone: string, n: number): { from: Date; to: Date; days: Day[] } {
  const days = lastDays(now, timezone, n);
  return { from: startOfDay(days[0], timezone), to: endOfDay(days[days.length - 1], timezone), days };
}

/**
 * The same wall-clock time `n` calendar days before (negative: after) `instant` in the workspace
 * timezone: "older than N days" for staleness, correct across a DST change (a day of 23 or 25 hours).
 */
export function daysBefore(instant: Date, timezone: string, n: number): Date {
  return DateTime.fromJSDate(instant, { zone: timezone }).minus({ days: n }).toJSDate();
}

/**
 * Whole calendar days (workspace timezone) from `since` to `now`: the count daysBefore's cutoff
 * uses, so an instant before `daysBefore(now, tz, n)` is always at least n days old (a 24-hour
 * count would say n - 1 across a DST change).
 */
export function calendarDaysSince(since: Date, now: Date, timezone: string): number {
  return Math.floor(DateTime.fromJSDate(now, { zone: timezone }).diff(DateTime.fromJSDate(since, { zone: timezone }), 'days').days);
}
