import { beforeEach, describe, expect, it } from 'vitest';
import type { TestDesk } from '../../testing/desk';
import { useTestDesk } from '../../testing/use-test-desk';
import { BLOG_POSTS } from '../../domain/blog/posts';

/** The blog's human pages: /blog, /blog/<slug>, /blog/tag/<slug>, /blog/author/<slug>. */

const shared = useTestDesk();
let desk: TestDesk;
beforeEach(() => {
  desk = shared.desk;
});

const CACHE = 'public, max-age=300, s-maxage=1800';
const page = async (p: string) => {
  const res = await fetch(`${desk.url}${p}`);
  return { status: res.status, type: res.headers.get('content-type'), cache: res.headers.get('cache-control'), html: await res.text() };
};
const ok = async (p: string) => {
  const res = await page(p);
  expect(res.status, p).toBe(200);
  expect(res.type).toMatch(/^text\/html/);
  expect(res.cache).toBe(CACHE);
  expect(res.html).not.toMatch(/<script/i);
  return res.html;
};

describe('GET /blog (page)', () => {
  it('lists every post newest first with tags and authors', async () => {
    const html = await ok('/blog');
    expect(html).toContain(`<link rel="canonical" href="${desk.url}/blog">`);
    expect(html.match(/<li class="card">/g)).toHaveLength(BLOG_POSTS.length);
    expect(html.indexOf('/blog/case-study-neighbourhood-cafe')).toBeLessThan(html.indexOf('/blog/setting-a-daily-cost-cap'));
    expect(html).toContain('<a class="tag" href="/blog/tag/webhooks">Webhooks (2)</a>');
    expect(html).toContain('<strong>Case studies</strong> <span class="meta">4 posts</span>');
    expect(html).toContain('<a href="/blog/author/tomas-okafor">Tomás Okafor</a>');
    // titles are escaped
    expect(html).toContain('Case study: a plumbing &amp; heating firm');
    expect(html).not.toContain('plumbing & heating');
  });
});

describe('GET /blog/<slug> (page)', () => {
  it('shows the article, its author card, related posts and newer/older links', async () => {
    const html = await ok('/blog/reading-a-cost-spike');
    expect(html).toContain('<title>Reading a cost spike · Desk</title>');
    expect(html).toContain(`<link rel="canonical" href="${desk.url}/blog/reading-a-cost-spike">`);
    expect(html).toContain('<h2>How the detector decides</h2>');
    expect(html).toContain('<a href="/blog/author/tomas-okafor">Tomás Okafor</a></strong> · 3 posts');
    expect(html).toMatch(/<img class="avatar" src="data:image\/svg\+xml,[^"]+" alt="Tomás Okafor"/);
    expect(html).toContain('<h2>Related posts</h2>');
    expect(html).toContain('<a rel="next" href="/blog/keeping-the-api-quick-while-the-loop-works">');
    expect(html).toContain('<a rel="prev" href="/blog/feeds-worth-following">');
    expect(html).toContain('<a class="tag" href="/blog/tag/spike-detector">Spike detector</a>');
  });

  it('escapes the title in head and heading', async () => {
    const html = await ok('/blog/case-study-plumbing-and-heating');
    expect(html).toContain('<title>Case study: a plumbing &amp; heating firm · Desk</title>');
    expect(html).toContain('<h1>Case study: a plumbing &amp; heating firm</h1>');
  });

  it('an unknown slug is a 404 page', async () => {
    for (const p of ['/blog/no-such-post', '/blog/tag/no-such-tag', '/blog/author/nobody', '/blog/%3Cscript%3Ealert(1)%3C%2Fscript%3E']) {
      const res = await page(p);
      expect(res.status, p).toBe(404);
      expect(res.html).toMatch(/There is no (post|tag|author) at this address\./);
      expect(res.html).not.toContain('<script>');
      expect(res.cache).not.toBe(CACHE);
    }
  });
});

describe('GET /blog/tag/<slug> and /blog/author/<slug> (pages)', () => {
  it('lists a tag’s posts, whatever the letter case of the slug', async () => {
    const html = await ok('/blog/tag/Review-Queue');
    expect(html).toContain('<h1>Posts tagged Review queue</h1>');
    expect(html).toContain(`<link rel="canonical" href="${desk.url}/blog/tag/review-queue">`);
    expect(html.match(/<li class="card">/g)).toHaveLength(2);
  });

  it('shows an author card and their posts', async () => {
    const html = await ok('/blog/author/priya-raman');
    expect(html).toContain('<h1>Priya Raman</h1>');
    expect(html).toContain('class="author-card"');
    expect(html.match(/<li class="card">/g)).toHaveLength(4);
  });
});
