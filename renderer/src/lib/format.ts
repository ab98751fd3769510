/** Display helpers: times in the viewer's locale and zone, money from integer cents. */

import { now as clockNow } from './clock';
import { DAY_MS, HOUR_MS, MINUTE_MS } from './time';

/**
 * A formatter made on first use: the first Intl.DateTimeFormat of a page loads the locale's data and
 * the zone (20-50 ms in Chromium here), which a page that shows no date should not pay while it boots.
 */
export function lazily<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const dateTime = lazily(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }));
const dateTimeZone = lazily(() => new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }));

export function formatDateTime(iso: string, withZone = false): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return (withZone ? dateTimeZone : dateTime)().format(d);
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

/** "3 minutes ago", "yesterday"; falls back to the date beyond a week. */
export function formatRelative(iso: string, now: Date = clockNow()): string {
  const ms = new Date(iso).getTime() - now.getTime();
  if (Number.isNaN(ms)) return iso;
  const abs = Math.abs(ms);
  if (abs < 45_000) return 'just now';
  if (abs < HOUR_MS) return relative.format(Math.round(ms / MINUTE_MS), 'minute');
  if (abs < DAY_MS) return relative.format(Math.round(ms / HOUR_MS), 'hour');
  if (abs < 7 * DAY_MS) return relative.format(Math.round(ms / DAY_MS), 'day');
  return formatDateTime(iso);
}

/** Whole minutes as "45 min", "3 h 20 min", "4 d 2 h". */
export function formatDuration(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return hours ? `${days} d ${hours} h` : `${days} d`;
  return mins ? `${hours} h ${mins} min` : `${hours} h`;
}

/** "1 source", "3 sources"; `many` for a plural that is not `one` + s. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** USD with cents, and finer below a cent (AI costs are often fractions of a cent). */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  if (Math.abs(usd) < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

// One formatter for every amount: a table of costs formatted each cell with a new one.
const usdCents = lazily(() => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }));

export function formatCents(cents: number): string {
  return usdCents().format(cents / 100);
}

/** "12.5" or "12.50" dollars to 1250 cents; null when it is not a non-negative amount with at most 2 decimals. */
export function dollarsToCents(input: string): number | null {
  const s = input.trim().replace(/^\$/, '');
  if (!/^\d+(\.\d{0,2})?$/.test(s) && !/^\.\d{1,2}$/.test(s)) return null;
  return Math.round(Number(s) * 100);
}

export function centsToDollarInput(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** A Date as the value of an <input type="datetime-local"> (the viewer's local time, minutes). */
export function toDatetimeLocal(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The value of a datetime-local input (local time) as an ISO instant; null when empty or invalid. */
export function fromDatetimeLocal(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** An integer from a number input's text; null when empty or not a whole number. */
export function parseWhole(input: string): number | null {
  const s = input.trim();
  if (!/^-?\d+$/.test(s)) return null;
  return Number(s);
}

/** A file size: "812 B", "4.2 KB", "13.5 MB" (1 KB = 1024 bytes, one decimal under 100). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 100 ? value.toFixed(1).replace(/\.0$/, '') : Math.round(value)} ${units[unit]}`;
}
