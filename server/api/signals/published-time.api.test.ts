import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFeedServer, type FeedServer } from '../../testing/fakes/feed-server';
import { createFeedSource } from '../../testing/fixtures/sources';
import { useTestDesk } from '../../testing/use-test-desk';

/**
 * Feed items keep their own time (issue 30, part 6): a signal from a feed carries the item's
 * published time apart from when Desk received it, and "newest first" orders by it.
 */

const item = (title: string, pubDate?: string) =>
  `<item><title>${title}</title><link>https://acme.example/notes/${encodeURIComponent(title)}</link><guid>${title}</guid>${pubDate ? `<pubDate>${pubDate}</pubDate>` : ''}<description>${title}.</description></item>`;

// Out of order, as release-note feeds often are; one item without a date, one dated in the future.
const FEED = `<?xml version="1.0"?><rss version="2.0"><channel><title>Acme release notes</title>
${item('Release 2.1', 'Sun, 01 Mar 2026 09:00:00 GMT')}
${item('Release 2.3', 'Sun, 08 Mar 2026 09:00:00 GMT')}
${item('Release 1.9', 'Fri, 20 Feb 2026 09:00:00 GMT')}
${item('Undated note')}
${item('From the future', 'Wed, 01 Jul 2026 09:00:00 GMT')}
${item('Release 2.2', 'Wed, 04 Mar 2026 09:00:00 GMT')}
</channel></rss>`;

const shared = useTestDesk();
let feeds: FeedServer;
beforeAll(async () => {
  feeds = await startFeedServer();
  feeds.set('/notes.xml', { body: FEED });
});
afterAll(async () => {
  await feeds.close();
});

describe('published time of feed items', () => {
  it('keeps each item its own date and lists newest first by it, falling back to the received time', async () => {
    const { desk } = shared;
    const received = desk.clock.now().toISOString();
    const { id } = await createFeedSource(desk, feeds.url('/notes.xml'), { label: 'Acme notes' });
    expect((await desk.api('POST', `/api/v1/sources/${id}/poll`)).status).toBe(200);

    const res = await desk.api('GET', '/api/v1/signals?limit=10');
    expect(res.status).toBe(200);
    const rows = res.body.signals as { title: string; publishedAt: string | null; createdAt: string }[];
    expect(rows.map((s) => [s.title, s.publishedAt])).toEqual([
      // the future date is kept no later than the received time; undated: the received time (a tie: the later insert first)
      ['From the future', received],
      ['Undated note', null],
      ['Release 2.3', '2026-03-08T09:00:00.000Z'],
      ['Release 2.2', '2026-03-04T09:00:00.000Z'],
      ['Release 2.1', '2026-03-01T09:00:00.000Z'],
      ['Release 1.9', '2026-02-20T09:00:00.000Z'],
    ]);
    expect(new Set(rows.map((s) => s.createdAt))).toEqual(new Set([received]));

    // the cursor follows the same order, page by page
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { signals: { title: string }[]; nextCursor: string | null } } = await desk.api('GET', `/api/v1/signals?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.body.signals.map((s) => s.title));
      cursor = page.body.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual(rows.map((s) => s.title));

    // filtered by source: the same order
    const bySource = await desk.api('GET', `/api/v1/signals?sourceId=${id}&limit=10`);
    expect(bySource.body.signals.map((s: { title: string }) => s.title)).toEqual(rows.map((s) => s.title));
  });
});
