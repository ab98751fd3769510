import type { Schema } from '../../api/client';

/** Catalog answers for the onboarding flow's tests: two categories, three templates. */

type Row = Schema<'TemplateListRow'>;
const BASE = 'http://127.0.0.1:4000';

function aTemplate(key: string, name: string, category: 'retail-ecommerce' | 'hospitality-food', extra: Partial<Row> = {}): Row {
  const categoryLabel = category === 'retail-ecommerce' ? 'Retail & E-commerce' : 'Hospitality & Food';
  return {
    key,
    name,
    description: `For a ${name.toLowerCase()}.`,
    category,
    categoryLabel,
    categoryUrl: `${BASE}/templates/category/${category}`,
    keywordHint: 'What matters most',
    memoryCount: 3,
    signalCount: 2,
    url: `${BASE}/templates/${key}`,
    apiUrl: `${BASE}/api/v1/onboarding-templates/${key}`,
    launchRev: 'rev 12',
    launchDate: '2026-03-20',
    memories: [
      { title: `${name}: returns window`, content: '30 days from delivery.', importance: 9, kind: 'fact' },
      { title: `${name}: reorder point`, content: 'Reorder below 6 units.', importance: 7, kind: 'decision' },
      { title: `${name}: reply tone`, content: 'Warm and short.', importance: 5, kind: 'preference' },
    ],
    signals: [
      { title: `${name}: low stock alert`, detail: '4 units left.', kind: 'alert', priority: 'high' },
      { title: `${name}: new review`, detail: 'Runs small.', kind: 'review', priority: 'normal' },
    ],
    ...extra,
  };
}

export const TEMPLATES: Row[] = [
  aTemplate('online-fashion-boutique', 'Online fashion boutique', 'retail-ecommerce'),
  aTemplate('independent-bookshop', 'Independent bookshop', 'retail-ecommerce'),
  aTemplate('specialty-coffee-shop', 'Specialty coffee shop', 'hospitality-food'),
];

export const aCatalog = (): Schema<'TemplateCatalog'> => ({
  total: TEMPLATES.length,
  templates: TEMPLATES,
  categories: [
    { key: 'retail-ecommerce', label: 'Retail & E-commerce', templateCount: 2, archiveUrl: `${BASE}/templates/category/retail-ecommerce` },
    { key: 'hospitality-food', label: 'Hospitality & Food', templateCount: 1, archiveUrl: `${BASE}/templates/category/hospitality-food` },
  ],
});

export function aDetail(key: string): Schema<'TemplateDetail'> | undefined {
  const i = TEMPLATES.findIndex((t) => t.key === key);
  if (i < 0) return undefined;
  const t = TEMPLATES[i];
  const link = (o: Row | undefined) => (o ? { key: o.key, name: o.name, url: o.url, apiUrl: o.apiUrl } : null);
  return {
    ...t,
    neighbors: { prev: link(TEMPLATES[i - 1]), next: link(TEMPLATES[i + 1]) },
    relatedByCategory: { category: t.category, categoryLabel: t.categoryLabel, templates: [] },
    total: TEMPLATES.length,
  };
}

/** Search the way the server does: case-insensitive substring over names, descriptions, memories and signals. */
export function aSearch(q: string): Schema<'TemplateSearchResult'> {
  const needle = q.toLowerCase();
  const hits = TEMPLATES.filter((t) => [t.name, t.description, ...t.memories.flatMap((m) => [m.title, m.content]), ...t.signals.flatMap((s) => [s.title, s.detail])].some((s) => s.toLowerCase().includes(needle)));
  return {
    q,
    total: hits.length,
    returned: hits.length,
    templates: hits.map(({ memories: _m, signals: _s, ...row }) => row),
  };
}
