import { MEMORY_KINDS } from '../memory/rules';
import { SIGNAL_KINDS, SIGNAL_PRIORITIES } from '../signals/signal-store';
import type {
  CategoryNotFoundBody,
  RecentCategoryTemplates,
  RecentTemplates,
  TemplateCatalog,
  TemplateCategoryDetail,
  TemplateCategoryList,
  TemplateCategoryRow,
  TemplateDetail,
  TemplateLink,
  TemplateListRow,
  TemplateMemberRow,
  TemplateNotFoundBody,
  TemplateSearchResult,
  TemplateSearchRow,
  TemplateStats,
} from './catalog-views';
import { CATEGORY_KEYS, categoryOf, ONBOARDING_TEMPLATES, TEMPLATE_CATEGORIES, type CategoryKey, type OnboardingTemplate, type TemplateCategory } from './content';
import { releaseDate, revNumber } from './releases';
import { CATEGORY_RECENT_LIMIT, checkTemplateLimit, checkTemplateQuery, RELATED_TEMPLATES_MAX, TEMPLATE_RECENT_LIMIT, TEMPLATE_SEARCH_LIMIT } from './rules';

/**
 * The public onboarding-template catalog: pure reads over the static content, every address built
 * from `{base_url}` (the address the request reached the desk on). Nothing here touches the database.
 */

export const templateUrl = (base: string, key: string) => `${base}/templates/${encodeURIComponent(key)}`;
export const templateApiUrl = (base: string, key: string) => `${base}/api/v1/onboarding-templates/${encodeURIComponent(key)}`;
export const categoryUrl = (base: string, category: string) => `${base}/templates/category/${encodeURIComponent(category)}`;
export const categoryApiUrl = (base: string, category: string) => `${base}/api/v1/onboarding-templates/by-category/${encodeURIComponent(category)}`;

const byKey = new Map(ONBOARDING_TEMPLATES.map((t, i) => [t.key, { template: t, index: i }]));

/** A template by key, or undefined. */
export const findTemplate = (key: string): OnboardingTemplate | undefined => byKey.get(key)?.template;

export const templatesOf = (category: CategoryKey): OnboardingTemplate[] => ONBOARDING_TEMPLATES.filter((t) => t.category === category);

const labelOf = (category: CategoryKey) => categoryOf(category)?.label ?? category;
const round2 = (n: number) => Math.round(n * 100) / 100;
const mean = (sum: number, count: number) => (count === 0 ? 0 : round2(sum / count));

function baseRow(base: string, t: OnboardingTemplate): TemplateMemberRow {
  return {
    key: t.key,
    name: t.name,
    description: t.description,
    memoryCount: t.memories.length,
    signalCount: t.signals.length,
    url: templateUrl(base, t.key),
    apiUrl: templateApiUrl(base, t.key),
    launchRev: t.launchRev,
    launchDate: releaseDate(t.launchRev),
  };
}

function searchRow(base: string, t: OnboardingTemplate): TemplateSearchRow {
  return { ...baseRow(base, t), category: t.category, categoryLabel: labelOf(t.category), categoryUrl: categoryUrl(base, t.category), keywordHint: t.keywordHint };
}

function listRow(base: string, t: OnboardingTemplate): TemplateListRow {
  return {
    ...searchRow(base, t),
    memories: t.memories.map((m) => ({ title: m.title, content: m.content, importance: m.importance, kind: m.kind })),
    signals: t.signals.map((s) => ({ title: s.title, detail: s.detail, kind: s.kind, priority: s.priority })),
  };
}

const link = (base: string, t: OnboardingTemplate | undefined): TemplateLink | null =>
  t === undefined ? null : { key: t.key, name: t.name, url: templateUrl(base, t.key), apiUrl: templateApiUrl(base, t.key) };

/** Newest launch first; the same launch date keeps declaration order (Array.prototype.sort is stable). */
const byLaunchDesc = (templates: readonly OnboardingTemplate[]) =>
  [...templates].sort((a, b) => releaseDate(b.launchRev).localeCompare(releaseDate(a.launchRev)));

export function templateNotFound(key: string): TemplateNotFoundBody {
  return { error: 'template_not_found', message: `No onboarding template with key ${key}`, key };
}

export function categoryNotFound(category: string): CategoryNotFoundBody {
  return { error: 'category_not_found', message: `No template category ${category}`, category, validCategories: [...CATEGORY_KEYS] };
}

/** GET /onboarding-templates. */
export function listTemplates(base: string): TemplateCatalog {
  return {
    total: ONBOARDING_TEMPLATES.length,
    templates: ONBOARDING_TEMPLATES.map((t) => listRow(base, t)),
    categories: TEMPLATE_CATEGORIES.map((c) => ({ key: c.key, label: c.label, templateCount: templatesOf(c.key).length, archiveUrl: categoryUrl(base, c.key) })),
  };
}

function categoryRow(base: string, c: TemplateCategory): TemplateCategoryRow {
  const members = templatesOf(c.key);
  const memoryEntries = members.reduce((n, t) => n + t.memories.length, 0);
  const sampleSignals = members.reduce((n, t) => n + t.signals.length, 0);
  const latest = byLaunchDesc(members)[0];
  return {
    key: c.key,
    label: c.label,
    description: c.description,
    templateCount: members.length,
    archiveUrl: categoryUrl(base, c.key),
    apiUrl: categoryApiUrl(base, c.key),
    coverageDepth: { memoryEntries, sampleSignals, totalEvidence: memoryEntries + sampleSignals },
    latestLaunch: latest === undefined ? null : { templateKey: latest.key, templateName: latest.name, rev: latest.launchRev, date: releaseDate(latest.launchRev) },
  };
}

/** GET /onboarding-templates/categories. */
export function listCategories(base: string): TemplateCategoryList {
  return { total: TEMPLATE_CATEGORIES.length, categories: TEMPLATE_CATEGORIES.map((c) => categoryRow(base, c)) };
}

/** GET /onboarding-templates/{key}; undefined for an unknown key. */
export function templateDetail(base: string, key: string): TemplateDetail | undefined {
  const found = byKey.get(key);
  if (found === undefined) return undefined;
  const { template: t, index } = found;
  const related = templatesOf(t.category).filter((o) => o.key !== t.key).slice(0, RELATED_TEMPLATES_MAX);
  return {
    ...listRow(base, t),
    neighbors: { prev: link(base, ONBOARDING_TEMPLATES[index - 1]), next: link(base, ONBOARDING_TEMPLATES[index + 1]) },
    relatedByCategory: { category: t.category, categoryLabel: labelOf(t.category), templates: related.map((o) => baseRow(base, o)) },
    total: ONBOARDING_TEMPLATES.length,
  };
}

/** GET /onboarding-templates/by-category/{category}; undefined for an unknown category. */
export function categoryDetail(base: string, category: string): TemplateCategoryDetail | undefined {
  const c = categoryOf(category);
  if (c === undefined) return undefined;
  const members = templatesOf(c.key);
  return {
    category: c.key,
    label: c.label,
    description: c.description,
    templateCount: members.length,
    archiveUrl: categoryUrl(base, c.key),
    apiUrl: categoryApiUrl(base, c.key),
    templates: members.map((t) => baseRow(base, t)),
  };
}

/** The text a search looks through, lower-cased once per template. */
const haystacks = new Map(
  ONBOARDING_TEMPLATES.map((t) => [
    t.key,
    [t.name, t.description, ...t.memories.flatMap((m) => [m.title, m.content]), ...t.signals.flatMap((s) => [s.title, s.detail])].map((s) => s.toLowerCase()),
  ]),
);

/** Whether any searched field of the template holds `needle` (already lower-cased). */
export const templateMatches = (t: OnboardingTemplate, needle: string) => (haystacks.get(t.key) ?? []).some((s) => s.includes(needle));

/** GET /onboarding-templates/search. */
export function searchTemplates(base: string, query: { q?: string; limit?: number }): TemplateSearchResult {
  const q = checkTemplateQuery(query.q);
  const limit = checkTemplateLimit(TEMPLATE_SEARCH_LIMIT, query.limit);
  const needle = q?.toLowerCase();
  const matches = needle === undefined ? [...ONBOARDING_TEMPLATES] : ONBOARDING_TEMPLATES.filter((t) => templateMatches(t, needle));
  const templates = matches.slice(0, limit).map((t) => searchRow(base, t));
  return { q: q ?? null, total: matches.length, returned: templates.length, templates };
}

/** GET /onboarding-templates/recent. */
export function recentTemplates(base: string, query: { limit?: number }): RecentTemplates {
  const limit = checkTemplateLimit(TEMPLATE_RECENT_LIMIT, query.limit);
  const templates = byLaunchDesc(ONBOARDING_TEMPLATES).slice(0, limit).map((t) => searchRow(base, t));
  return { returned: templates.length, templates };
}

/** GET /onboarding-templates/by-category/{category}/recent; undefined for an unknown category (the limit is checked first). */
export function recentCategoryTemplates(base: string, category: string, query: { limit?: number }): RecentCategoryTemplates | undefined {
  const limit = checkTemplateLimit(CATEGORY_RECENT_LIMIT, query.limit);
  const c = categoryOf(category);
  if (c === undefined) return undefined;
  const templates = byLaunchDesc(templatesOf(c.key)).slice(0, limit).map((t) => searchRow(base, t));
  return { category: c.key, categoryLabel: c.label, returned: templates.length, templates };
}

const zeroes = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

/** GET /onboarding-templates/stats. */
export function templateStats(): TemplateStats {
  const all = ONBOARDING_TEMPLATES;
  const memories = all.flatMap((t) => t.memories);
  const signals = all.flatMap((t) => t.signals);
  const memoryKinds = zeroes(MEMORY_KINDS);
  for (const m of memories) memoryKinds[m.kind] += 1;
  const signalKinds = zeroes(SIGNAL_KINDS);
  const signalPriorities = zeroes(SIGNAL_PRIORITIES);
  for (const s of signals) {
    signalKinds[s.kind] += 1;
    signalPriorities[s.priority] += 1;
  }
  const revs = [...new Set(all.map((t) => t.launchRev))].sort((a, b) => revNumber(a) - revNumber(b));
  const mark = (rev: string | undefined) => (rev === undefined ? null : { rev, date: releaseDate(rev) });
  return {
    totalTemplates: all.length,
    totalCategories: TEMPLATE_CATEGORIES.length,
    totalMemoryEntries: memories.length,
    totalSignals: signals.length,
    averageMemoryEntriesPerTemplate: mean(memories.length, all.length),
    averageSignalsPerTemplate: mean(signals.length, all.length),
    averageMemoryImportance: mean(memories.reduce((n, m) => n + m.importance, 0), memories.length),
    memoryKinds,
    signalKinds,
    signalPriorities,
    perCategory: TEMPLATE_CATEGORIES.map((c) => {
      const members = templatesOf(c.key);
      const memoryEntries = members.reduce((n, t) => n + t.memories.length, 0);
      return {
        key: c.key,
        label: c.label,
        templateCount: members.length,
        memoryEntries,
        signalEntries: members.reduce((n, t) => n + t.signals.length, 0),
        averageMemoryEntriesPerTemplate: mean(memoryEntries, members.length),
      };
    }),
    launchTimeline: { first: mark(revs[0]), latest: mark(revs[revs.length - 1]), releasesWithLaunches: revs.length },
  };
}
