import { describe, expect, it } from 'vitest';
import { IMPORTANCE, MEMORY_CONTENT, MEMORY_KINDS, MEMORY_TITLE } from '../memory/rules';
import { MAX_DETAIL_LENGTH, MAX_TITLE_LENGTH } from '../signals/signal-rules';
import { SIGNAL_KINDS, SIGNAL_PRIORITIES } from '../signals/signal-store';
import { CATEGORY_KEYS, ONBOARDING_TEMPLATES, TEMPLATE_CATEGORIES } from './content';
import { RELEASE_DATES, releaseDate } from './releases';

/** The content contract of the catalog (types16): shapes, bounds and the release table. */

describe('the onboarding template catalog', () => {
  it('has the ten categories in the public order, each with a label and a description', () => {
    expect(TEMPLATE_CATEGORIES.map((c) => c.key)).toEqual([...CATEGORY_KEYS]);
    expect(CATEGORY_KEYS).toHaveLength(10);
    for (const c of TEMPLATE_CATEGORIES) {
      expect(c.label.length).toBeGreaterThan(3);
      expect(c.description.length).toBeGreaterThan(40);
    }
  });

  it('keeps every category contiguous and in CATEGORY_KEYS order', () => {
    const order = ONBOARDING_TEMPLATES.map((t) => CATEGORY_KEYS.indexOf(t.category));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('gives the first five categories 8 templates each', () => {
    for (const key of CATEGORY_KEYS.slice(0, 5)) expect(ONBOARDING_TEMPLATES.filter((t) => t.category === key), key).toHaveLength(8);
  });

  it('has unique kebab-case keys and 5-8 memories and 4-6 signals per template, each within the desk\'s own bounds', () => {
    expect(new Set(ONBOARDING_TEMPLATES.map((t) => t.key)).size).toBe(ONBOARDING_TEMPLATES.length);
    for (const t of ONBOARDING_TEMPLATES) {
      expect(t.key, t.key).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(t.key.length).toBeLessThanOrEqual(100);
      expect(t.memories.length, t.key).toBeGreaterThanOrEqual(5);
      expect(t.memories.length, t.key).toBeLessThanOrEqual(8);
      expect(t.signals.length, t.key).toBeGreaterThanOrEqual(4);
      expect(t.signals.length, t.key).toBeLessThanOrEqual(6);
      expect(new Set(t.memories.map((m) => m.title)).size, t.key).toBe(t.memories.length);
      expect(new Set(t.signals.map((s) => s.title)).size, t.key).toBe(t.signals.length);
      for (const m of t.memories) {
        expect(m.title.length, m.title).toBeGreaterThanOrEqual(MEMORY_TITLE.min);
        expect(m.title.length, m.title).toBeLessThanOrEqual(MEMORY_TITLE.max);
        expect(m.content.length, m.title).toBeLessThanOrEqual(MEMORY_CONTENT.max);
        expect(m.content.length, m.title).toBeGreaterThan(40);
        expect(m.importance).toBeGreaterThanOrEqual(IMPORTANCE.min);
        expect(m.importance).toBeLessThanOrEqual(IMPORTANCE.max);
        expect(MEMORY_KINDS).toContain(m.kind);
      }
      for (const s of t.signals) {
        expect(s.title.trim().length, s.title).toBeGreaterThan(0);
        expect(s.title.length, s.title).toBeLessThanOrEqual(MAX_TITLE_LENGTH);
        expect(s.detail.length, s.title).toBeLessThanOrEqual(MAX_DETAIL_LENGTH);
        expect(SIGNAL_KINDS).toContain(s.kind);
        expect(SIGNAL_PRIORITIES).toContain(s.priority);
      }
    }
  });

  it('launches every template in a Desk release, none before rev 12', () => {
    for (const t of ONBOARDING_TEMPLATES) {
      expect(Object.keys(RELEASE_DATES), t.key).toContain(t.launchRev);
      expect(Number(t.launchRev.slice(4)), t.key).toBeGreaterThanOrEqual(12);
    }
    expect(releaseDate('rev 12')).toBe('2026-03-20');
    expect(releaseDate('rev 48')).toBe('2026-11-23');
    expect(() => releaseDate('rev 49')).toThrow();
  });

  it('uses no placeholder names or lorem ipsum', () => {
    const text = JSON.stringify(ONBOARDING_TEMPLATES).toLowerCase();
    for (const bad of ['lorem', 'ipsum', 'acme', 'john doe', 'jane doe', 'example.com', 'todo', 'tbd']) expect(text, bad).not.toContain(bad);
  });
});
