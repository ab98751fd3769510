import { describe, expect, it } from 'vitest';
import { FeedError } from './feed-error';
import { htmlToText } from './html-text';
import { MAX_TITLE_CHARS, parseFeedText } from './parse-feed';
import { fixture } from '../../testing/fakes/feed-server';

describe('parseFeedText', () => {
  it('reads RSS 2.0 items with guid, link, text detail and date', async () => {
    const feed = await parseFeedText(fixture('rss.xml'));
    expect(feed.format).toBe('rss');
    expect(feed.title).toBe('Acme Newsroom');
    expect(feed.items).toHaveLength(3);
    expect(feed.items[0]).toMatchObject({
      title: 'Acme launches the Widget 2',
      detail: 'The Widget 2 ships today & costs less.',
      link: 'https://acme.example/news/widget-2',
      publishedAt: '2026-03-09T10:00:00.000Z',
    });
    // guid, else link: the third item has no guid
    expect(feed.items[0].key).toMatch(/^id:/);
    expect(feed.items[2].key).toMatch(/^link:/);
  });

  it('reads Atom entries: alternate link, html title and content as text', async () => {
    const feed = await parseFeedText(fixture('atom.xml'));
    expect(feed.format).toBe('atom');
    expect(feed.title).toBe('Reviews of Acme');
    expect(feed.items.map((i) => i.title)).toEqual(['Five stars: fast support', 'One star: billing trouble']);
    expect(feed.items[0]).toMatchObject({ detail: 'Support answered within an hour.', link: 'https://reviews.example/acme/101' });
    expect(feed.items[1]).toMatchObject({ detail: 'Charged twice this month.', publishedAt: '2026-03-08T12:00:00.000Z' });
  });

  it('reads JSON Feed items; an item without title takes its first line of text', async () => {
    const feed = await parseFeedText(fixture('feed.json'));
    expect(feed.format).toBe('json');
    expect(feed.title).toBe('Acme on LinkedIn');
    expect(feed.items[0]).toMatchObject({ title: 'We are hiring account executives', detail: 'Join the Acme sales team.' });
    expect(feed.items[1]).toMatchObject({ title: 'Thanks to everyone at SaaSConf!', link: 'https://linkedin.example/acme/posts/9002' });
  });

  it('gives the same keys for the same items on every parse, different keys for different items', async () => {
    const a = (await parseFeedText(fixture('rss.xml'))).items.map((i) => i.key);
    const b = (await parseFeedText(fixture('rss.xml'))).items.map((i) => i.key);
    expect(a).toEqual(b);
    expect(new Set(a).size).toBe(3);
  });

  it('keys an item without guid and link by title and date', async () => {
    const xml = (date: string) =>
      `<rss version="2.0"><channel><title>x</title><item><title>Same</title><pubDate>${date}</pubDate></item></channel></rss>`;
    const one = (await parseFeedText(xml('Mon, 09 Mar 2026 10:00:00 GMT'))).items[0].key;
    const two = (await parseFeedText(xml('Tue, 10 Mar 2026 10:00:00 GMT'))).items[0].key;
    expect(one).toMatch(/^td:/);
    expect(one).not.toBe(two);
  });

  it('rejects malformed XML, HTML pages and plain JSON as not_a_feed', async () => {
    for (const body of [fixture('malformed.xml'), fixture('not-a-feed.html'), '{"hello":"world"}', '']) {
      let error: unknown;
      try {
        await parseFeedText(body);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(FeedError);
      expect((error as FeedError).code).toBe('not_a_feed');
    }
  });

  it('cuts long titles, drops non-http links and reads at most maxItems items', async () => {
    const items = Array.from({ length: 5 }, (_, i) => `<item><title>${'x'.repeat(300)}${i}</title><link>javascript:alert(${i})</link><guid>g${i}</guid></item>`).join('');
    const feed = await parseFeedText(`<rss version="2.0"><channel><title>t</title>${items}</channel></rss>`, 3);
    expect(feed.items).toHaveLength(3);
    expect(feed.items[0].title).toHaveLength(MAX_TITLE_CHARS);
    expect(feed.items[0].title.endsWith('…')).toBe(true);
    expect(feed.items[0].link).toBeNull();
  });
});

describe('htmlToText', () => {
  it('drops tags, scripts and decodes entities; leaves plain text alone', () => {
    expect(htmlToText('<p>A &amp; B</p><script>x()</script><p>&#8364;5 &#x263A;</p>')).toBe('A & B\n€5 ☺');
    expect(htmlToText('a < b and c > d')).toBe('a < b and c > d');
  });
});
