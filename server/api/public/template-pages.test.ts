import { beforeEach, describe, expect, it } from 'vitest';
import { ONBOARDING_TEMPLATES } from '../../domain/onboarding/content';
import type { TestDesk } from '../../testing/desk';
import { useTestDesk } from '../../testing/use-test-desk';

/** The human pages of the onboarding templates: /templates, /templates/<key>, /templates/category/<category>. */

const shared = useTestDesk();
let desk: TestDesk;
beforeEach(() => {
  desk = shared.desk;
});

async function page(path: string) {
  const res = await fetch(desk.url + path);
  return { status: res.status, html: await res.text(), type: res.headers.get('content-type'), cache: res.headers.get('cache-control') };
}
const CACHE = 'public, max-age=300, s-maxage=1800';
const withApostrophe = ONBOARDING_TEMPLATES.find((t) => t.memories.some((m) => m.content.includes("'")))!;

describe('template pages', () => {
  it('/templates lists every template, grouped by category, escaped', async () => {
    const res = await page('/templates');
    expect(res.status).toBe(200);
    expect(res.type).toContain('text/html');
    expect(res.cache).toBe(CACHE);
    for (const t of ONBOARDING_TEMPLATES) expect(res.html).toContain(`href="/templates/${t.key}"`);
    expect(res.html).toContain('<h2><a href="/templates/category/retail-ecommerce">Retail &amp; E-commerce</a></h2>');
    expect(res.html).not.toContain('Retail & E-commerce');
    expect(res.html).toContain(`<link rel="canonical" href="${desk.url}/templates">`);
  });

  it('/templates/<key> shows its memories and signals, related templates and the way into the app', async () => {
    const t = withApostrophe;
    const res = await page(`/templates/${t.key}`);
    expect(res.status).toBe(200);
    expect(res.cache).toBe(CACHE);
    const escaped = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
    for (const m of t.memories) expect(res.html).toContain(escaped(m.content));
    for (const s of t.signals) expect(res.html).toContain(escaped(s.title));
    const raw = t.memories.find((m) => m.content.includes("'"))!.content;
    expect(res.html).not.toContain(raw);
    expect(res.html).toContain(`href="/onboarding?template=${t.key}">Use this template in Desk</a>`);
    const related = ONBOARDING_TEMPLATES.filter((o) => o.category === t.category && o.key !== t.key).slice(0, 6);
    for (const o of related) expect(res.html).toContain(`href="/templates/${o.key}"`);
    expect(res.html).toContain(`<link rel="canonical" href="${desk.url}/templates/${t.key}">`);
  });

  it('/templates/category/<category> lists that category only', async () => {
    const res = await page('/templates/category/hospitality-food');
    expect(res.status).toBe(200);
    expect(res.cache).toBe(CACHE);
    for (const t of ONBOARDING_TEMPLATES) {
      if (t.category === 'hospitality-food') expect(res.html).toContain(`href="/templates/${t.key}"`);
      else expect(res.html).not.toContain(`href="/templates/${t.key}"`);
    }
  });

  it('answers the 404 page for an unknown key or category, escaping what the address said', async () => {
    for (const path of ['/templates/no-such-template', '/templates/category/no-such-category', `/templates/${encodeURIComponent('<img src=x onerror=alert(1)>')}`]) {
      const res = await page(path);
      expect(res.status, path).toBe(404);
      expect(res.type).toContain('text/html');
      expect(res.html).toContain('Not found');
      expect(res.html).not.toContain('<img src=x');
    }
  });
});
