import { beforeEach, describe, expect, it } from 'vitest';
import type { TestDesk } from '../../testing/desk';
import { useTestDesk } from '../../testing/use-test-desk';

/** The changelog's human pages: /changelog and /changelog/<n>. */

const shared = useTestDesk();
let desk: TestDesk;
beforeEach(() => {
  desk = shared.desk;
});

const page = async (p: string) => {
  const res = await fetch(`${desk.url}${p}`);
  return { status: res.status, type: res.headers.get('content-type'), cache: res.headers.get('cache-control'), html: await res.text() };
};

describe('GET /changelog (page)', () => {
  it('lists every release newest first with its highlights, escaped, and cached publicly', async () => {
    const { status, type, cache, html } = await page('/changelog');
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/html/);
    expect(cache).toBe('public, max-age=300, s-maxage=1800');
    expect(html).toContain('<title>Changelog · Desk</title>');
    expect(html).toContain(`<link rel="canonical" href="${desk.url}/changelog">`);
    expect(html.match(/<section class="release">/g)).toHaveLength(48);
    // the trend by the desk's clock: 07-03..07-30 holds 1, 3, 2 and 2 releases a week
    desk.clock.set('2026-07-30T12:00:00.000Z');
    expect((await page('/changelog')).html).toContain('Releases over the last four weeks: 4 in the latest two, 4 in the two before (steady).');
    expect(html.indexOf('rev 48 · Polish for the public site')).toBeLessThan(html.indexOf('rev 47 · Templates and their releases'));
    expect(html).toContain('<a href="/changelog/12">rev 12 · Onboarding templates</a>');
    // a highlight's text is escaped, never markup
    expect(html).toContain('entries with importance &gt;= 9 are never swept');
    expect(html).not.toContain('importance >= 9');
    expect(html).not.toMatch(/<script/i);
  });
});

describe('GET /changelog/<n> (page)', () => {
  it('shows one release with links to its neighbours', async () => {
    const { status, cache, html } = await page('/changelog/19');
    expect(status).toBe(200);
    expect(cache).toBe('public, max-age=300, s-maxage=1800');
    expect(html).toContain('<title>rev 19: Keeping the desk tidy · Desk</title>');
    expect(html).toContain(`<link rel="canonical" href="${desk.url}/changelog/19">`);
    expect(html).toContain('<time datetime="2026-05-15">2026-05-15</time>');
    expect(html).toContain('<a rel="next" href="/changelog/20">Newer: rev 20 · Outbound webhooks</a>');
    expect(html).toContain('<a rel="prev" href="/changelog/18">Older: rev 18 · Cost guardrails</a>');
    const first = await page('/changelog/1');
    expect(first.html).not.toContain('rel="prev"');
    const newest = await page('/changelog/48');
    expect(newest.html).not.toContain('rel="next"');
  });

  it('an address naming no release is a 404 page, not cached publicly', async () => {
    for (const p of ['/changelog/49', '/changelog/0', '/changelog/latest', '/changelog/%3Cscript%3E']) {
      const res = await page(p);
      expect(res.status, p).toBe(404);
      expect(res.html).toContain('There is no release at this address.');
      expect(res.cache).not.toBe('public, max-age=300, s-maxage=1800');
      expect(res.html).not.toContain('<script>');
    }
  });
});
