import { beforeEach, describe, expect, it } from 'vitest';
import type { TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { useTestDesk } from '../../testing/use-test-desk';
import { BLOG_POSTS } from '../../domain/blog/posts';
import { countWords } from '../../domain/blog/rules';

/** API tests of the public blog: list and filters, detail, categories, authors, tags, related, neighbors. */

const shared = useTestDesk();
let desk: TestDesk;
beforeEach(() => {
  desk = shared.desk;
});

const get = (p: string) => desk.api('GET', `/api/v1${p}`, undefined, null);
const ok = async (p: string) => {
  const res = await get(p);
  expect(res.status, `${p} ${JSON.stringify(res.body)}`).toBe(200);
  expect(res.headers.get('cache-control')).toBe('public, max-age=300, s-maxage=1800');
  return res.body;
};
const slugs = (posts: { slug: string }[]) => posts.map((p) => p.slug);
const wordsOf = (slug: string) => countWords(BLOG_POSTS.find((p) => p.slug === slug)?.bodyHtml ?? '');
const rejected = (path: string, field: string) => expectRejectedUnchanged(desk, { method: 'GET', path: `/api/v1${path}`, token: null }, { field });
const expectNotFound = async (path: string) => {
  const res = await get(path);
  expect(res.status, path).toBe(404);
  expect(res.body).toEqual({ error: 'not_found', message: expect.stringMatching(/^No blog (post|author|tag) with slug /) });
};

const NEWEST_FIRST = [
  'case-study-neighbourhood-cafe',
  'starting-a-desk-from-a-template',
  'keeping-the-api-quick-while-the-loop-works',
  'reading-a-cost-spike',
  'feeds-worth-following',
  'case-study-small-accounting-practice',
  'case-study-plumbing-and-heating',
  'case-study-two-person-online-shop',
  'webhooks-to-a-laptop-the-relay',
  'outbound-webhooks-that-never-lie',
  'why-desk-is-local-first',
  'reviewing-drafts-fast',
  'writing-memory-that-helps',
  'setting-a-daily-cost-cap',
];

describe('the posts', () => {
  it('are 14 script-free articles of at least 400 words, each with 3 related posts', async () => {
    expect(BLOG_POSTS).toHaveLength(14);
    for (const p of BLOG_POSTS) {
      expect(countWords(p.bodyHtml), p.slug).toBeGreaterThanOrEqual(400);
      expect(p.bodyHtml).not.toMatch(/<script|javascript:|\son[a-z]+=/i);
      expect(p.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      const detail = await ok(`/blog/${p.slug}`);
      expect(detail.related, p.slug).toHaveLength(3);
      expect(detail.readTime).toBe(Math.ceil(countWords(p.bodyHtml) / 225));
    }
  });
});

describe('GET /blog', () => {
  it('lists posts newest first with the row fields', async () => {
    const body = await ok('/blog');
    expect(body).toMatchObject({ total: 14, filtered: 14, returned: 14 });
    expect(slugs(body.posts)).toEqual(NEWEST_FIRST);
    expect(body.posts[0]).toEqual({
      slug: 'case-study-neighbourhood-cafe',
      title: 'Case study: a neighbourhood café',
      date: '2026-11-20',
      excerpt: expect.stringContaining('café owner'),
      tags: ['Case study', 'Hospitality', 'Sources', 'Templates'],
      author: { slug: 'priya-raman', name: 'Priya Raman', url: `${desk.url}/blog/author/priya-raman` },
      category: { slug: 'case-studies', name: 'Case studies', accentColor: '#b45309' },
      readTime: Math.ceil(wordsOf('case-study-neighbourhood-cafe') / 225),
      url: `${desk.url}/blog/case-study-neighbourhood-cafe`,
    });
  });

  it('takes limit 1-100 (default 20)', async () => {
    const two = await ok('/blog?limit=2');
    expect(two).toMatchObject({ total: 14, filtered: 14, returned: 2 });
    expect(slugs(two.posts)).toEqual(NEWEST_FIRST.slice(0, 2));
    expect((await ok('/blog?limit=100')).returned).toBe(14);
    for (const bad of ['0', '101', '1.5', 'all']) await rejected(`/blog?limit=${bad}`, 'limit');
  });

  it('filters by tag (case-insensitive substring), sinceDate (on or after) and q (title, excerpt, tags), composed', async () => {
    expect(slugs((await ok('/blog?tag=WEBHOOK')).posts)).toEqual(['webhooks-to-a-laptop-the-relay', 'outbound-webhooks-that-never-lie']);
    expect((await ok('/blog?tag=case%20st')).filtered).toBe(4);
    expect(slugs((await ok('/blog?sinceDate=2026-11-03')).posts)).toEqual(NEWEST_FIRST.slice(0, 4));
    expect(slugs((await ok('/blog?q=RELAY')).posts)).toEqual(['webhooks-to-a-laptop-the-relay']);
    // q finds a word that only the excerpt has
    expect(slugs((await ok('/blog?q=yarn')).posts)).toEqual(['case-study-two-person-online-shop']);
    // q finds a tag
    expect(slugs((await ok('/blog?q=spike%20detector')).posts)).toEqual(['reading-a-cost-spike']);
    const composed = await ok('/blog?tag=case&sinceDate=2026-10-20&limit=2');
    expect(composed).toMatchObject({ total: 14, filtered: 3, returned: 2 });
    expect(slugs(composed.posts)).toEqual(['case-study-neighbourhood-cafe', 'case-study-small-accounting-practice']);
    expect(await ok('/blog?q=nothing%20like%20this')).toMatchObject({ filtered: 0, returned: 0, posts: [] });
  });

  it('refuses a bad sinceDate, a q past 200 characters and a tag past 100 with a 422 naming the field', async () => {
    for (const bad of ['2026-13-01', '2026-02-30', 'yesterday', '2026-1-1', '2026-11-03T00:00:00Z']) await rejected(`/blog?sinceDate=${bad}`, 'sinceDate');
    expect((await ok(`/blog?q=${'a'.repeat(200)}`)).filtered).toBe(0);
    await rejected(`/blog?q=${'a'.repeat(201)}`, 'q');
    await rejected(`/blog?tag=${'a'.repeat(101)}`, 'tag');
  });
});

describe('GET /blog/{slug}', () => {
  it('answers the article with body, word count, canonical URL, author profile and 3 related by tag overlap', async () => {
    const post = await ok('/blog/setting-a-daily-cost-cap');
    expect(post).toMatchObject({ slug: 'setting-a-daily-cost-cap', date: '2026-09-08', wordCount: wordsOf('setting-a-daily-cost-cap'), canonicalUrl: `${desk.url}/blog/setting-a-daily-cost-cap` });
    expect(post.bodyHtml).toContain('<h2>What the cap does, exactly</h2>');
    expect(post.authorProfile).toMatchObject({ tagline: expect.any(String), homepageUrl: null, links: [] });
    expect(post.authorProfile.avatarUrl).toMatch(/^data:image\/svg\+xml,/);
    // Cost + Guardrails shared with the spike post; then one shared tag, newest first
    expect(post.related.map((r: { slug: string; sharedTagCount: number }) => [r.slug, r.sharedTagCount])).toEqual([
      ['reading-a-cost-spike', 2],
      ['feeds-worth-following', 1],
      ['case-study-small-accounting-practice', 1],
    ]);
  });

  it('an unknown slug is a 404', async () => {
    await expectNotFound('/blog/no-such-post');
    await expectNotFound('/blog/no-such-post/neighbors');
  });
});

describe('GET /blog/categories, /blog/authors, /blog/by-author/{slug}', () => {
  it('lists categories with description, accent colour and post count', async () => {
    const { categories } = await ok('/blog/categories');
    expect(categories.map((c: { slug: string; postCount: number }) => [c.slug, c.postCount])).toEqual([
      ['operating', 5],
      ['engineering', 4],
      ['case-studies', 4],
      ['product', 1],
    ]);
    for (const c of categories) {
      expect(c.accentColor).toMatch(/^#[0-9a-f]{6}$/);
      expect(c.description.length).toBeGreaterThan(20);
    }
  });

  it('lists authors by post count then name, with latest-post date and profile', async () => {
    const { authors } = await ok('/blog/authors');
    expect(authors.map((a: { slug: string; postCount: number; latestPostDate: string }) => [a.slug, a.postCount, a.latestPostDate])).toEqual([
      ['maren-lindqvist', 4, '2026-11-17'],
      ['priya-raman', 4, '2026-11-20'],
      ['jonah-weiss', 3, '2026-10-29'],
      ['tomas-okafor', 3, '2026-11-10'],
    ]);
    for (const a of authors) expect(a.profile.avatarUrl).toMatch(/^data:image\/svg\+xml,/);
  });

  it('answers an author’s posts newest first with the profile; limit; unknown slug 404', async () => {
    const body = await ok('/blog/by-author/priya-raman');
    expect(body.author).toMatchObject({ slug: 'priya-raman', name: 'Priya Raman', postCount: 4 });
    expect(body.profile).toEqual(body.author.profile);
    expect(slugs(body.posts)).toEqual(['case-study-neighbourhood-cafe', 'case-study-plumbing-and-heating', 'case-study-two-person-online-shop', 'writing-memory-that-helps']);
    expect(await ok('/blog/by-author/priya-raman?limit=1')).toMatchObject({ total: 4, returned: 1 });
    await rejected('/blog/by-author/priya-raman?limit=0', 'limit');
    await expectNotFound('/blog/by-author/nobody');
  });
});

describe('GET /blog/related/{slug} and /blog/{slug}/neighbors', () => {
  it('answers related posts with sharedTagCount, the source identity and avatar; limit 1-20 (default 5)', async () => {
    const body = await ok('/blog/related/setting-a-daily-cost-cap');
    expect(body.source).toEqual({ slug: 'setting-a-daily-cost-cap', title: 'Setting a daily cost cap you will not regret', date: '2026-09-08', tags: ['Cost', 'Guardrails', 'Operating'], url: `${desk.url}/blog/setting-a-daily-cost-cap` });
    expect(body.authorAvatarUrl).toMatch(/^data:image\/svg\+xml,/);
    expect(body.related.map((r: { slug: string; sharedTagCount: number }) => [r.slug, r.sharedTagCount])).toEqual([
      ['reading-a-cost-spike', 2],
      ['feeds-worth-following', 1],
      ['case-study-small-accounting-practice', 1],
      ['case-study-two-person-online-shop', 1],
      ['reviewing-drafts-fast', 1],
    ]);
    expect((await ok('/blog/related/setting-a-daily-cost-cap?limit=20')).returned).toBe(6);
    // only posts sharing a tag: local-first shares with three
    expect(slugs((await ok('/blog/related/why-desk-is-local-first?limit=20')).related)).toEqual(['keeping-the-api-quick-while-the-loop-works', 'webhooks-to-a-laptop-the-relay', 'outbound-webhooks-that-never-lie']);
    for (const bad of ['0', '21']) await rejected(`/blog/related/setting-a-daily-cost-cap?limit=${bad}`, 'limit');
    await expectNotFound('/blog/related/no-such-post');
  });

  it('answers newer and older by publication date, null at the ends', async () => {
    const mid = await ok('/blog/reading-a-cost-spike/neighbors');
    expect(mid.newer.slug).toBe('keeping-the-api-quick-while-the-loop-works');
    expect(mid.older.slug).toBe('feeds-worth-following');
    expect((await ok('/blog/case-study-neighbourhood-cafe/neighbors')).newer).toBeNull();
    expect((await ok('/blog/setting-a-daily-cost-cap/neighbors')).older).toBeNull();
  });
});

describe('GET /blog/tags and /blog/by-tag/{slug}', () => {
  it('collapses tags by slug whatever the letter case, most posts first', async () => {
    const { total, tags } = await ok('/blog/tags');
    expect(total).toBe(25);
    expect(tags.slice(0, 4).map((t: { slug: string }) => t.slug)).toEqual(['case-study', 'memory', 'operating', 'sources']);
    const webhooks = tags.filter((t: { slug: string }) => t.slug === 'webhooks');
    expect(webhooks).toEqual([{ tag: 'Webhooks', slug: 'webhooks', postCount: 2, latestPostDate: '2026-10-09', url: `${desk.url}/blog/tag/webhooks` }]);
    expect(tags.find((t: { slug: string }) => t.slug === 'cost')).toMatchObject({ tag: 'Cost', postCount: 3, latestPostDate: '2026-11-03' });
  });

  it('answers a tag’s posts newest first with a word and minute summary; limit; unknown 404', async () => {
    const body = await ok('/blog/by-tag/WEBHOOKS');
    expect(slugs(body.posts)).toEqual(['webhooks-to-a-laptop-the-relay', 'outbound-webhooks-that-never-lie']);
    const words = wordsOf('webhooks-to-a-laptop-the-relay') + wordsOf('outbound-webhooks-that-never-lie');
    expect(body.summary).toEqual({ totalWords: words, estimatedMinutes: Math.ceil(words / 225) });
    expect(body.tag).toMatchObject({ slug: 'webhooks', postCount: 2 });
    const one = await ok('/blog/by-tag/review-queue?limit=1');
    expect(one).toMatchObject({ total: 2, returned: 1 });
    expect(one.summary.totalWords).toBe(wordsOf('case-study-plumbing-and-heating') + wordsOf('reviewing-drafts-fast'));
    await rejected('/blog/by-tag/review-queue?limit=101', 'limit');
    await expectNotFound('/blog/by-tag/no-such-tag');
  });
});
