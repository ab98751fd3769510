import { beforeEach, describe, expect, it } from 'vitest';
import { CATEGORY_KEYS, ONBOARDING_TEMPLATES } from '../../domain/onboarding/content';
import { releaseDate } from '../../domain/onboarding/releases';
import type { TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { useTestDesk } from '../../testing/use-test-desk';

/** API tests of the public onboarding-template endpoints (public-api-v1, "Onboarding templates"). */

const shared = useTestDesk();
let desk: TestDesk;
beforeEach(() => {
  desk = shared.desk;
});

const CACHE = 'public, max-age=300, s-maxage=1800';
const TOTAL = ONBOARDING_TEMPLATES.length;
/** Without the bearer token: these endpoints are public. */
const get = (p: string) => desk.api('GET', `/api/v1/onboarding-templates${p}`, undefined, null);
async function ok(p: string) {
  const res = await get(p);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.headers.get('cache-control'), p).toBe(CACHE);
  return res.body;
}
const keys = (rows: { key: string }[]) => rows.map((r) => r.key);
/** Newest launch first, ties in declaration order: the order the spec states, computed independently. */
const launchOrder = (list: readonly { key: string; launchRev: string }[]) =>
  list
    .map((t, i) => ({ key: t.key, date: releaseDate(t.launchRev), i }))
    .sort((a, b) => (a.date === b.date ? a.i - b.i : a.date < b.date ? 1 : -1))
    .map((t) => t.key);
const first = ONBOARDING_TEMPLATES[0];
const last = ONBOARDING_TEMPLATES[TOTAL - 1];

describe('GET /onboarding-templates', () => {
  it('lists every template whole, in declaration order, with the categories summary and public caching', async () => {
    const body = await ok('');
    expect(body.total).toBe(TOTAL);
    expect(keys(body.templates)).toEqual(ONBOARDING_TEMPLATES.map((t) => t.key));
    const row = body.templates[0];
    expect(row).toMatchObject({
      key: first.key,
      name: first.name,
      description: first.description,
      category: first.category,
      keywordHint: first.keywordHint,
      memoryCount: first.memories.length,
      signalCount: first.signals.length,
      url: `${desk.url}/templates/${first.key}`,
      apiUrl: `${desk.url}/api/v1/onboarding-templates/${first.key}`,
      launchRev: first.launchRev,
      launchDate: releaseDate(first.launchRev),
    });
    expect(row.memories).toEqual(first.memories);
    expect(row.signals).toEqual(first.signals);
    expect(body.categories.map((c: { key: string }) => c.key)).toEqual([...CATEGORY_KEYS]);
    for (const c of body.categories) expect(c.templateCount).toBe(ONBOARDING_TEMPLATES.filter((t) => t.category === c.key).length);
    expect(body.categories.reduce((n: number, c: { templateCount: number }) => n + c.templateCount, 0)).toBe(TOTAL);
  });
});

describe('GET /onboarding-templates/categories', () => {
  it('answers the ten category rows with counts, addresses, coverage depth and the latest launch', async () => {
    const body = await ok('/categories');
    expect(body.total).toBe(10);
    const retail = body.categories[0];
    const members = ONBOARDING_TEMPLATES.filter((t) => t.category === 'retail-ecommerce');
    const memoryEntries = members.reduce((n, t) => n + t.memories.length, 0);
    const sampleSignals = members.reduce((n, t) => n + t.signals.length, 0);
    const latest = ONBOARDING_TEMPLATES.find((t) => t.key === launchOrder(members)[0])!;
    expect(retail).toEqual({
      key: 'retail-ecommerce',
      label: 'Retail & E-commerce',
      description: expect.any(String),
      templateCount: members.length,
      archiveUrl: `${desk.url}/templates/category/retail-ecommerce`,
      apiUrl: `${desk.url}/api/v1/onboarding-templates/by-category/retail-ecommerce`,
      coverageDepth: { memoryEntries, sampleSignals, totalEvidence: memoryEntries + sampleSignals },
      latestLaunch: { templateKey: latest.key, templateName: latest.name, rev: latest.launchRev, date: releaseDate(latest.launchRev) },
    });
    for (const c of body.categories) if (c.templateCount === 0) expect(c.latestLaunch).toBeNull();
  });
});

describe('GET /onboarding-templates/{key}', () => {
  it('answers the detail with neighbours, up to 6 related templates of the category and the total', async () => {
    const second = ONBOARDING_TEMPLATES[1];
    const body = await ok(`/${second.key}`);
    expect(body).toMatchObject({ key: second.key, name: second.name, memoryCount: second.memories.length, signalCount: second.signals.length, launchRev: second.launchRev, launchDate: releaseDate(second.launchRev), total: TOTAL });
    expect(body.memories).toEqual(second.memories);
    expect(body.neighbors.prev).toEqual({ key: first.key, name: first.name, url: `${desk.url}/templates/${first.key}`, apiUrl: `${desk.url}/api/v1/onboarding-templates/${first.key}` });
    expect(body.neighbors.next.key).toBe(ONBOARDING_TEMPLATES[2].key);
    const sameCategory = ONBOARDING_TEMPLATES.filter((t) => t.category === second.category && t.key !== second.key).map((t) => t.key);
    expect(body.relatedByCategory.category).toBe(second.category);
    expect(body.relatedByCategory.categoryLabel).toBe('Retail & E-commerce');
    expect(keys(body.relatedByCategory.templates)).toEqual(sameCategory.slice(0, 6));
    expect(body.relatedByCategory.templates.length).toBeLessThanOrEqual(6);
  });

  it('has no prev at the start and no next at the end of the catalog', async () => {
    expect((await ok(`/${first.key}`)).neighbors.prev).toBeNull();
    expect((await ok(`/${last.key}`)).neighbors.next).toBeNull();
  });

  it('answers 404 { error: template_not_found, key } for an unknown key, cacheable too', async () => {
    const res = await get('/no-such-template');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'template_not_found', message: expect.any(String), key: 'no-such-template' });
    expect(res.headers.get('cache-control')).toBe(CACHE);
  });

  it('does not let {key} capture the fixed paths', async () => {
    expect((await ok('/stats')).totalTemplates).toBe(TOTAL);
    expect((await ok('/categories')).total).toBe(10);
    expect((await ok('/recent')).templates).toHaveLength(Math.min(4, TOTAL));
    expect((await ok('/search')).total).toBe(TOTAL);
  });
});

describe('GET /onboarding-templates/by-category/{category}', () => {
  it('answers every template of the category with its label and description', async () => {
    const body = await ok('/by-category/professional-services');
    const members = ONBOARDING_TEMPLATES.filter((t) => t.category === 'professional-services');
    expect(body).toMatchObject({ category: 'professional-services', label: 'Professional Services', templateCount: members.length });
    expect(body.description.length).toBeGreaterThan(20);
    expect(keys(body.templates)).toEqual(members.map((t) => t.key));
    expect(Object.keys(body.templates[0]).sort()).toEqual(['apiUrl', 'description', 'key', 'launchDate', 'launchRev', 'memoryCount', 'name', 'signalCount', 'url']);
  });

  it('answers 404 { error: category_not_found, category, validCategories } for an unknown category', async () => {
    for (const path of ['/by-category/space-tourism', '/by-category/space-tourism/recent']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ error: 'category_not_found', message: expect.any(String), category: 'space-tourism', validCategories: [...CATEGORY_KEYS] });
      expect(res.headers.get('cache-control')).toBe(CACHE);
    }
  });
});

describe('GET /onboarding-templates/search', () => {
  it('matches case-insensitively in names, descriptions, memory titles and content, signal titles and detail', async () => {
    const t = ONBOARDING_TEMPLATES[2];
    const probes = [t.name, t.description, t.memories[0].title, t.memories[1].content, t.signals[0].title, t.signals[1].detail];
    for (const text of probes) {
      const needle = text.slice(0, 30).toUpperCase();
      const body = await ok(`/search?q=${encodeURIComponent(needle)}&limit=50`);
      expect(keys(body.templates), needle).toContain(t.key);
    }
    const body = await ok(`/search?q=${encodeURIComponent(t.memories[0].title)}`);
    expect(body.q).toBe(t.memories[0].title);
    expect(body.templates[0]).toEqual({
      key: body.templates[0].key,
      name: expect.any(String),
      description: expect.any(String),
      memoryCount: expect.any(Number),
      signalCount: expect.any(Number),
      url: `${desk.url}/templates/${body.templates[0].key}`,
      apiUrl: `${desk.url}/api/v1/onboarding-templates/${body.templates[0].key}`,
      category: expect.any(String),
      categoryLabel: expect.any(String),
      categoryUrl: expect.stringContaining(`${desk.url}/templates/category/`),
      keywordHint: expect.anything(),
      launchRev: expect.stringMatching(/^rev \d+$/),
      launchDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });

  it('answers nothing for a text no template holds, and every template up to limit without q', async () => {
    expect(await ok('/search?q=zzqqxx-nothing')).toEqual({ q: 'zzqqxx-nothing', total: 0, returned: 0, templates: [] });
    const all = await ok('/search');
    expect(all).toMatchObject({ q: null, total: TOTAL, returned: Math.min(20, TOTAL) });
    expect(keys(all.templates)).toEqual(ONBOARDING_TEMPLATES.slice(0, 20).map((t) => t.key));
    expect((await ok('/search?q=%20%20')).total).toBe(TOTAL);
    expect((await ok('/search?limit=50')).returned).toBe(Math.min(50, TOTAL));
    expect((await ok('/search?limit=1')).returned).toBe(1);
  });

  it('takes q of 200 characters and refuses 201; limit 1-50', async () => {
    expect((await ok(`/search?q=${'a'.repeat(200)}`)).total).toBe(0);
    await expectRejectedUnchanged(desk, { method: 'GET', path: `/api/v1/onboarding-templates/search?q=${'a'.repeat(201)}`, token: null }, { field: 'q' });
    await expectRejectedUnchanged(desk, { method: 'GET', path: '/api/v1/onboarding-templates/search?limit=51', token: null }, { field: 'limit' });
    await expectRejectedUnchanged(desk, { method: 'GET', path: '/api/v1/onboarding-templates/search?limit=0', token: null }, { field: 'limit' });
  });
});

describe('GET /onboarding-templates/recent', () => {
  it('answers the newest launches first, ties in declaration order, 4 by default, up to 20', async () => {
    const expected = launchOrder(ONBOARDING_TEMPLATES);
    const body = await ok('/recent');
    expect(keys(body.templates)).toEqual(expected.slice(0, 4));
    expect(body.returned).toBe(Math.min(4, TOTAL));
    expect(Object.keys(body.templates[0]).sort()).toEqual(
      ['apiUrl', 'category', 'categoryLabel', 'categoryUrl', 'description', 'keywordHint', 'key', 'launchDate', 'launchRev', 'memoryCount', 'name', 'signalCount', 'url'].sort(),
    );
    expect(keys((await ok('/recent?limit=20')).templates)).toEqual(expected.slice(0, 20));
    await expectRejectedUnchanged(desk, { method: 'GET', path: '/api/v1/onboarding-templates/recent?limit=21', token: null }, { field: 'limit' });
  });

  it('per category: the same order within the category, 3 by default, up to 20', async () => {
    const members = ONBOARDING_TEMPLATES.filter((t) => t.category === 'healthcare-wellness');
    const body = await ok('/by-category/healthcare-wellness/recent');
    expect(body).toMatchObject({ category: 'healthcare-wellness', categoryLabel: 'Healthcare & Wellness' });
    expect(keys(body.templates)).toEqual(launchOrder(members).slice(0, 3));
    expect(keys((await ok('/by-category/healthcare-wellness/recent?limit=20')).templates)).toEqual(launchOrder(members));
    await expectRejectedUnchanged(desk, { method: 'GET', path: '/api/v1/onboarding-templates/by-category/healthcare-wellness/recent?limit=21', token: null }, { field: 'limit' });
  });
});

describe('GET /onboarding-templates/stats', () => {
  it('answers totals, averages, breakdowns, per-category figures and the launch timeline', async () => {
    const body = await ok('/stats');
    const memories = ONBOARDING_TEMPLATES.flatMap((t) => t.memories);
    const signals = ONBOARDING_TEMPLATES.flatMap((t) => t.signals);
    expect(body).toMatchObject({
      totalTemplates: TOTAL,
      totalCategories: 10,
      totalMemoryEntries: memories.length,
      totalSignals: signals.length,
      averageMemoryEntriesPerTemplate: Math.round((memories.length / TOTAL) * 100) / 100,
      averageMemoryImportance: Math.round((memories.reduce((n, m) => n + m.importance, 0) / memories.length) * 100) / 100,
    });
    expect(Object.values(body.memoryKinds as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(memories.length);
    expect(body.memoryKinds.fact).toBe(memories.filter((m) => m.kind === 'fact').length);
    expect(body.signalKinds.alert).toBe(signals.filter((s) => s.kind === 'alert').length);
    expect(body.signalPriorities.urgent).toBe(signals.filter((s) => s.priority === 'urgent').length);
    expect(Object.keys(body.signalPriorities)).toEqual(['low', 'normal', 'high', 'urgent']);
    expect(body.perCategory.map((c: { key: string }) => c.key)).toEqual([...CATEGORY_KEYS]);
    const trades = body.perCategory[3];
    const tradeTemplates = ONBOARDING_TEMPLATES.filter((t) => t.category === 'trades-field-services');
    expect(trades).toMatchObject({ templateCount: tradeTemplates.length, memoryEntries: tradeTemplates.reduce((n, t) => n + t.memories.length, 0), signalEntries: tradeTemplates.reduce((n, t) => n + t.signals.length, 0) });
    const revs = ONBOARDING_TEMPLATES.map((t) => Number(t.launchRev.slice(4))).sort((a, b) => a - b);
    expect(body.launchTimeline.first).toEqual({ rev: `rev ${revs[0]}`, date: releaseDate(`rev ${revs[0]}`) });
    expect(body.launchTimeline.latest).toEqual({ rev: `rev ${revs[revs.length - 1]}`, date: releaseDate(`rev ${revs[revs.length - 1]}`) });
  });
});
