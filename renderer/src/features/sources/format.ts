import type { Schema } from '../../api/client';
import type { Tone } from '../../components/Badge';
import { now as clockNow } from '../../lib/clock';
import { formatDuration, lazily } from '../../lib/format';

/** Pure display rules of the Sources page (kept apart from the components so they are unit-tested). */

export type SourceType = Schema<'SourceType'>;

export const SOURCE_TYPE_OPTIONS: readonly { value: SourceType; label: string; hint: string }[] = [
  { value: 'rss', label: 'RSS or Atom feed', hint: 'A feed URL (RSS 2.0, Atom or JSON Feed), polled on its cadence.' },
  { value: 'review_site', label: 'Review site feed', hint: 'A feed of reviews, polled on its cadence.' },
  { value: 'linkedin', label: 'LinkedIn feed', hint: 'A feed of posts, polled on its cadence.' },
  { value: 'manual', label: 'Manual', hint: 'Never polled: signals come from the Signals page or the inbound webhook.' },
  { value: 'file', label: 'File (.csv or .json)', hint: 'An absolute path or file:// URL, imported now and again on demand.' },
];

export const isFeedType = (type: string): boolean => type === 'rss' || type === 'review_site' || type === 'linkedin';

export function typeLabel(type: string): string {
  switch (type) {
    case 'rss':
      return 'Feed';
    case 'review_site':
      return 'Reviews';
    case 'linkedin':
      return 'LinkedIn';
    case 'manual':
      return 'Manual';
    case 'file':
      return 'File';
    default:
      return type;
  }
}

export interface GatingLike {
  intervalMinutes: number;
  isOverride: boolean;
  nextPollAt: string | null;
  isDueNow: boolean;
  minutesUntilDue: number | null;
}

/** "every 10 min (override)" for an own interval, "workspace cadence" otherwise; null gating: not polled. */
export function formatCadence(gating: GatingLike | null): string {
  if (!gating) return 'not polled';
  return gating.isOverride ? `every ${formatDuration(gating.intervalMinutes)} (override)` : 'workspace cadence';
}

/** "due now", "in 12 min", "in 3 h 20 min"; "paused" for a pause without an end; "—" for sources that are never polled. */
export function formatNextPoll(gating: GatingLike | null, paused: boolean): string {
  if (!gating) return '—';
  if (gating.minutesUntilDue === null || gating.nextPollAt === null) return 'paused';
  // minutesUntilDue is 0 once due: a poll that is due but not yet taken reads as due now.
  if (gating.isDueNow || gating.minutesUntilDue === 0) return paused ? 'when the pause ends' : 'due now';
  return paused ? `after the pause, in ${formatDuration(gating.minutesUntilDue)}` : `in ${formatDuration(gating.minutesUntilDue)}`;
}

/** "resumes in 5 h", "resumes in 2 d 3 h", "resumes in 20 min" from the API's one-decimal hours. */
export function formatResumesIn(hoursUntilResume: number): string {
  const minutes = Math.max(0, Math.round(hoursUntilResume * 60));
  if (minutes === 0) return 'resumes now';
  // Whole hours read better than "3 h 12 min" a day or two ahead.
  return `resumes in ${formatDuration(minutes >= 180 ? Math.round(minutes / 60) * 60 : minutes)}`;
}

export function formatQuiet(quietForDays: number, floorDays: number): string {
  return `quiet for ${quietForDays} ${quietForDays === 1 ? 'day' : 'days'} (floor ${floorDays} ${floorDays === 1 ? 'day' : 'days'})`;
}

/** "a, b,  c, a" -> ["a", "b", "c"]: comma or newline separated, trimmed, blanks dropped, duplicates (case-insensitive) folded. */
export function parseKeywords(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of text.split(/[,\n]/)) {
    const k = raw.trim();
    if (!k || seen.has(k.toLowerCase())) continue;
    seen.add(k.toLowerCase());
    out.push(k);
  }
  return out;
}

export const keywordsText = (keywords: readonly string[]): string => keywords.join(', ');

const shortSameYear = lazily(() => new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }));
const shortOtherYear = lazily(() => new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }));

/** "Nov 23, 1:49 PM": compact enough for a badge; the year only when it is not this year's. */
export function formatShortDateTime(iso: string, now: Date = clockNow()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return (d.getFullYear() === now.getFullYear() ? shortSameYear : shortOtherYear)().format(d);
}

export type { Tone };

/** The status badge of a row: pause first (it is what stops polling), then the last poll's outcome. */
export function statusBadge(s: { status: string; paused: boolean; pausedUntilAt: string | null }, formatAt: (iso: string) => string): { text: string; tone: Tone } {
  if (s.paused) return s.pausedUntilAt ? { text: `Paused until ${formatAt(s.pausedUntilAt)}`, tone: 'warning' } : { text: 'Paused', tone: 'warning' };
  switch (s.status) {
    case 'connected':
      return { text: 'Connected', tone: 'success' };
    case 'error':
      return { text: 'Error', tone: 'danger' };
    case 'pending':
      return { text: 'Pending', tone: 'info' };
    default:
      return { text: s.status, tone: 'neutral' };
  }
}
