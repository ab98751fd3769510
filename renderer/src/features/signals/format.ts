/** Pure display rules of the Signals page (kept apart from the components so they are unit-tested). */

import { lazily } from '../../lib/format';

/** Text cut to at most `max` characters at a word boundary, with an ellipsis when cut. Whitespace runs fold to one space. */
export function trimText(text: string, max: number): { text: string; trimmed: boolean } {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return { text: clean, trimmed: false };
  const cut = clean.slice(0, max);
  const space = cut.lastIndexOf(' ');
  // Cut at the last word boundary unless that throws away most of the text (one very long word).
  const head = space > max * 0.6 ? cut.slice(0, space) : cut;
  return { text: `${head.replace(/[\s.,;:!?-]+$/, '')}…`, trimmed: true };
}

export type PriorityTone = 'neutral' | 'warning' | 'danger';

export function priorityTone(priority: string): PriorityTone {
  switch (priority) {
    case 'urgent':
      return 'danger';
    case 'high':
      return 'warning';
    default:
      // normal and low: most signals; colour is kept for the ones that need attention.
      return 'neutral';
  }
}

/** Where a signal came from, for its meta line. */
export function originLabel(s: { sourceId: string | null; sourceLabel: string | null; externalId: string | null }): string {
  if (s.sourceId) return s.sourceLabel ?? 'Deleted source';
  return s.externalId ? 'Inbound webhook' : 'Direct';
}

/** The host of a link, for a compact "example.com ↗"; the whole string when it is not a URL. */
export function linkHost(url: string): string {
  try {
    return new URL(url).host.replace(/^www\./, '');
  } catch {
    return url;
  }
}

const dayMonth = lazily(() => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' }));
const dayMonthYear = lazily(() => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' }));

/**
 * A feed item's own date, as the list shows it: "published 3 Mar" (the year only when it is not
 * this year's, in the viewer's zone). The item's day is what a reader compares across a feed;
 * "2 hours ago" would blur a release that came out today with one Desk fetched today.
 */
export function publishedText(iso: string, now: Date): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return `published ${iso}`;
  return `published ${(d.getFullYear() === now.getFullYear() ? dayMonth : dayMonthYear)().format(d)}`;
}
