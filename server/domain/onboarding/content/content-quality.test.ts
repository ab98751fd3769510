import { describe, expect, it } from 'vitest';
import { IMPORTANCE, MEMORY_CONTENT, MEMORY_KINDS, MEMORY_TITLE } from '../../memory/rules';
import { MAX_DETAIL_LENGTH, MAX_TITLE_LENGTH } from '../../signals/signal-rules';
import { SIGNAL_KINDS, SIGNAL_PRIORITIES } from '../../signals/signal-store';
import { creativeMediaTemplates } from './creative-media';
import { educationMembershipTemplates } from './education-membership';
import { financeInsuranceTemplates } from './finance-insurance';
import { manufacturingSpecialtyTemplates } from './manufacturing-specialty';
import { propertyRealestateTemplates } from './property-realestate';
import type { CategoryKey, OnboardingTemplate } from './types';

/** The five content files of this part, with the counts the catalog contract fixes for each. */
const FILES: { category: CategoryKey; templates: OnboardingTemplate[]; count: number }[] = [
  { category: 'creative-media', templates: creativeMediaTemplates, count: 8 },
  { category: 'property-realestate', templates: propertyRealestateTemplates, count: 8 },
  { category: 'finance-insurance', templates: financeInsuranceTemplates, count: 7 },
  { category: 'education-membership', templates: educationMembershipTemplates, count: 7 },
  { category: 'manufacturing-specialty', templates: manufacturingSpecialtyTemplates, count: 7 },
];
const ALL = FILES.flatMap((f) => f.templates);

/** Words that betray filler text or made-up stand-in names. */
const PLACEHOLDER = /\b(acme|lorem|ipsum|dolor sit|john doe|jane doe|company x|foo|foobar|todo|tbd|tbc|placeholder|xyz|example\.(com|org|net)|sample text|insert .* here)\b/i;
const URL_LIKE = /(https?:\/\/|www\.|\b[a-z0-9-]+\.(com|org|net|io|co\.uk)\b)/i;
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const revNumber = (rev: string) => Number(/^rev (\d+)$/.exec(rev)?.[1] ?? NaN);

/** Every piece of free text of a template, labelled for failure messages. */
function textsOf(t: OnboardingTemplate): [string, string][] {
  return [
    [`${t.key}.name`, t.name],
    [`${t.key}.description`, t.description],
    [`${t.key}.keywordHint`, t.keywordHint ?? ''],
    ...t.memories.flatMap((m, i): [string, string][] => [[`${t.key}.memories[${i}].title`, m.title], [`${t.key}.memories[${i}].content`, m.content]]),
    ...t.signals.flatMap((s, i): [string, string][] => [[`${t.key}.signals[${i}].title`, s.title], [`${t.key}.signals[${i}].detail`, s.detail]]),
  ];
}

describe('onboarding template content (creative, property, finance, education, manufacturing)', () => {
  it.each(FILES)('$category holds $count templates, all of that category', ({ category, templates, count }) => {
    expect(templates).toHaveLength(count);
    for (const t of templates) expect(t.category).toBe(category);
  });

  it('gives every template 5-8 memories and 4-6 sample signals', () => {
    expect(ALL).toHaveLength(37);
    for (const t of ALL) {
      expect(t.memories.length, t.key).toBeGreaterThanOrEqual(5);
      expect(t.memories.length, t.key).toBeLessThanOrEqual(8);
      expect(t.signals.length, t.key).toBeGreaterThanOrEqual(4);
      expect(t.signals.length, t.key).toBeLessThanOrEqual(6);
    }
  });

  it('uses unique kebab-case keys and unique names', () => {
    const keys = ALL.map((t) => t.key);
    for (const key of keys) expect(key).toMatch(KEBAB);
    expect(new Set(keys).size).toBe(keys.length);
    const names = ALL.map((t) => t.name.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
  });

  it('uses only valid memory kinds, importances, signal kinds and priorities', () => {
    for (const t of ALL) {
      for (const m of t.memories) {
        expect(MEMORY_KINDS, `${t.key}: ${m.title}`).toContain(m.kind);
        expect(m.importance, `${t.key}: ${m.title}`).toBeGreaterThanOrEqual(IMPORTANCE.min);
        expect(m.importance, `${t.key}: ${m.title}`).toBeLessThanOrEqual(IMPORTANCE.max);
      }
      for (const s of t.signals) {
        expect(SIGNAL_KINDS, `${t.key}: ${s.title}`).toContain(s.kind);
        expect(SIGNAL_PRIORITIES, `${t.key}: ${s.title}`).toContain(s.priority);
      }
    }
  });

  it('keeps every text within the bounds the workspace API accepts', () => {
    for (const t of ALL) {
      expect(t.name.length).toBeGreaterThan(0);
      expect(t.name.length).toBeLessThanOrEqual(120);
      for (const m of t.memories) {
        expect([...m.title.trim()].length, `${t.key}: ${m.title}`).toBeGreaterThanOrEqual(MEMORY_TITLE.min);
        expect([...m.title].length, `${t.key}: ${m.title}`).toBeLessThanOrEqual(MEMORY_TITLE.max);
        expect([...m.content].length, `${t.key}: ${m.title}`).toBeLessThanOrEqual(MEMORY_CONTENT.max);
        expect(m.content.trim().length, `${t.key}: ${m.title}`).toBeGreaterThan(60);
      }
      for (const s of t.signals) {
        expect([...s.title].length, `${t.key}: ${s.title}`).toBeLessThanOrEqual(Math.min(200, MAX_TITLE_LENGTH));
        expect([...s.detail].length, `${t.key}: ${s.title}`).toBeLessThanOrEqual(Math.min(4000, MAX_DETAIL_LENGTH));
        expect(s.detail.trim().length, `${t.key}: ${s.title}`).toBeGreaterThan(40);
      }
      // 1-2 sentences: who it is for and what the desk watches.
      const sentences = t.description.split(/(?<=[.!?])\s+(?=[A-Z])/).filter(Boolean);
      expect(sentences.length, t.key).toBeGreaterThanOrEqual(1);
      expect(sentences.length, t.key).toBeLessThanOrEqual(2);
      expect(t.keywordHint, t.key).toBeTruthy();
      expect(t.keywordHint!.length, t.key).toBeLessThanOrEqual(120);
    }
  });

  it('launches every template in a release from rev 12 to rev 48, the first batch included', () => {
    for (const t of ALL) {
      expect(t.launchRev, t.key).toMatch(/^rev \d+$/);
      const n = revNumber(t.launchRev);
      expect(n, t.key).toBeGreaterThanOrEqual(12);
      expect(n, t.key).toBeLessThanOrEqual(48);
    }
    // One template per category ships in the first batch; some later releases launch several.
    for (const f of FILES) expect(f.templates.filter((t) => t.launchRev === 'rev 12')).toHaveLength(1);
    const perRev = new Map<string, number>();
    for (const t of ALL) perRev.set(t.launchRev, (perRev.get(t.launchRev) ?? 0) + 1);
    expect([...perRev.entries()].filter(([rev, n]) => rev !== 'rev 12' && n > 1).length).toBeGreaterThan(0);
    expect(perRev.size).toBeGreaterThan(20);
  });

  it('never repeats a text across templates or within one', () => {
    const seen = new Map<string, string>();
    for (const t of ALL) {
      for (const [where, text] of textsOf(t)) {
        const norm = text.trim().toLowerCase();
        if (!norm) continue;
        expect(seen.get(norm), `${where} repeats ${seen.get(norm)}`).toBeUndefined();
        seen.set(norm, where);
      }
    }
  });

  it('contains no placeholder words, stand-in names or web addresses', () => {
    for (const t of ALL) {
      for (const [where, text] of textsOf(t)) {
        expect(text, where).not.toMatch(PLACEHOLDER);
        expect(text, where).not.toMatch(URL_LIKE);
        expect(text, where).toBe(text.trim());
      }
    }
    // Substrings too, as the catalog test checks them over the whole catalog (so "todo" inside any word fails here first).
    const all = JSON.stringify(ALL).toLowerCase();
    for (const bad of ['lorem', 'ipsum', 'acme', 'john doe', 'jane doe', 'example.com', 'todo', 'tbd']) expect(all, bad).not.toContain(bad);
  });
});
