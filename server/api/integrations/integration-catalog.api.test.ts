import { describe, expect, it } from 'vitest';
import { useTestDesk } from '../../testing/use-test-desk';
import { PUBLIC_CACHE_CONTROL } from '../public/public-http';

const shared = useTestDesk();
const REV_PATTERN = /^rev ([1-9]\d*)$/;

describe('GET /api/v1/integrations (public catalog)', () => {
  it('groups Inbound, Outbound, Programmatic with consistent counts, cacheable, without a token', async () => {
    const res = await shared.desk.api('GET', '/api/v1/integrations', undefined, null);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe(PUBLIC_CACHE_CONTROL);
    const { groups, perAxis, total } = res.body;
    expect(groups.map((g: { axis: string }) => g.axis)).toEqual(['Inbound', 'Outbound', 'Programmatic']);
    for (const g of groups) {
      expect(g.count).toBe(g.items.length);
      expect(perAxis[g.axis]).toBe(g.count);
      expect(g.intro.length).toBeGreaterThan(0);
    }
    expect(total).toBe(groups.reduce((sum: number, g: { count: number }) => sum + g.count, 0));
    const items = groups.flatMap((g: { items: { key: string; sinceRev: string; auth: string; detail: string; name: string }[] }) => g.items);
    expect(new Set(items.map((i: { key: string }) => i.key)).size).toBe(items.length);
    for (const item of items) {
      // Releases run from rev 1 to rev 48 (the changelog).
      const rev = Number(REV_PATTERN.exec(item.sinceRev)?.[1]);
      expect(rev, item.key).toBeGreaterThanOrEqual(1);
      expect(rev, item.key).toBeLessThanOrEqual(48);
      for (const field of [item.name, item.detail, item.auth]) expect(field.length, item.key).toBeGreaterThan(0);
    }
    const keys = items.map((i: { key: string }) => i.key);
    for (const key of ['inbound-webhook', 'rss-atom-feeds', 'json-feed', 'relay', 'outbound-webhooks', 'smtp-digest', 'openai-compatible-engine', 'rest-api', 'openapi-document', 'exports', 'import', 'health-badge']) {
      expect(keys).toContain(key);
    }
  });

  it('lives beside the bearer routes under /integrations/...: both answer', async () => {
    const d = shared.desk;
    expect((await d.api('GET', '/api/v1/integrations/inbound', undefined, null)).status).toBe(401);
    expect((await d.api('GET', '/api/v1/integrations/inbound')).status).toBe(200);
    expect((await d.api('GET', '/api/v1/integrations', undefined, null)).status).toBe(200);
  });

  it('the catalog describes what the desk serves: the OpenAPI document and the badge answer', async () => {
    const d = shared.desk;
    expect((await d.api('GET', '/api/v1/openapi.json', undefined, null)).status).toBe(200);
    expect((await fetch(`${d.url}/api/v1/badge.svg`)).headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });
});

describe('the /integrations page', () => {
  it('one section per axis with every item, the public Cache-Control', async () => {
    const catalog = (await shared.desk.api('GET', '/api/v1/integrations')).body;
    const res = await fetch(`${shared.desk.url}/integrations`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe(PUBLIC_CACHE_CONTROL);
    const html = await res.text();
    for (const axis of ['inbound', 'outbound', 'programmatic']) expect(html).toContain(`<section id="${axis}">`);
    expect(html).toContain('<h2>Inbound (7)</h2>');
    for (const g of catalog.groups) for (const item of g.items) expect(html).toContain(`<tr id="${item.key}">`);
    expect(html).toContain('<td>HMAC-SHA256 signature (webhook-signature) with a per-subscription whsec_ secret</td><td>rev 20</td>');
  });
});
