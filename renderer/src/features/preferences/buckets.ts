import type { ActivityBucket } from './api';

/** The Activity page's time buckets, newest first, with their headings. */
export const BUCKET_LABELS: Record<ActivityBucket, string> = {
  today: 'Today',
  yesterday: 'Yesterday',
  'this-week': 'Earlier in the last 7 days',
  earlier: 'Older',
};

/** The calendar day (`YYYY-MM-DD`) of an instant in a timezone; the viewer's zone when it is unknown to this browser. */
export function dayIn(at: Date, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  } catch {
    return new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  }
}

/** Whole calendar days from `day` to `today` (both `YYYY-MM-DD`), independent of DST. */
const daysBetween = (day: string, today: string) => Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${day}T00:00:00Z`)) / 86_400_000);

/** The bucket of an instant, by workspace-timezone calendar day: today, yesterday, 2-6 days ago, older. */
export function bucketOf(iso: string, now: Date, timeZone: string): ActivityBucket {
  const days = daysBetween(dayIn(new Date(iso), timeZone), dayIn(now, timeZone));
  if (days <= 0) return 'today';
  if (days === 1) return 'yesterday';
  if (days < 7) return 'this-week';
  return 'earlier';
}

/** Rows grouped by bucket, in bucket order, keeping each row's order; empty buckets left out. */
export function groupByBucket<Row>(rows: readonly Row[], at: (row: Row) => string, now: Date, timeZone: string): { bucket: ActivityBucket; rows: Row[] }[] {
  const groups = new Map<ActivityBucket, Row[]>();
  for (const row of rows) {
    const b = bucketOf(at(row), now, timeZone);
    const list = groups.get(b);
    if (list) list.push(row);
    else groups.set(b, [row]);
  }
  return (Object.keys(BUCKET_LABELS) as ActivityBucket[]).filter((b) => groups.has(b)).map((bucket) => ({ bucket, rows: groups.get(bucket)! }));
}
