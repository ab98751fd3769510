import { describe, expect, it } from 'vitest';
import { invalidFieldOf } from '../../testing/errors';
import { checkImportance, isExempt, keywordExpression, normaliseMemoryTags } from './rules';
import { daysBetween, withinCutoff } from './memory-usage';

describe('memory rules', () => {
  it('importance is a number from 0 to 10 or null', () => {
    expect(checkImportance(0)).toBe(0);
    expect(checkImportance(10)).toBe(10);
    expect(checkImportance(8.5)).toBe(8.5);
    expect(checkImportance(null)).toBeNull();
    expect(checkImportance(undefined)).toBeNull();
    for (const bad of [-0.01, 10.01, Number.NaN, '5']) expect(invalidFieldOf(() => checkImportance(bad))).toBe('importance');
  });

  it('exempts pinned entries and importance 9 or higher', () => {
    expect(isExempt({ pinned: 1, importance: null })).toBe(true);
    expect(isExempt({ pinned: false, importance: 9 })).toBe(true);
    expect(isExempt({ pinned: 0, importance: 8.99 })).toBe(false);
    expect(isExempt({ pinned: 0, importance: null })).toBe(false);
  });

  it('keyword filter: each word as a quoted prefix, all required; no word or too long is a 422 naming q', () => {
    expect(keywordExpression('Pricing, per-seat!')).toBe('"pricing"* AND "per"* AND "seat"*');
    expect(keywordExpression('"quote" OR x')).toBe('"quote"* AND "or"* AND "x"*');
    expect(invalidFieldOf(() => keywordExpression('!!'))).toBe('q');
    expect(invalidFieldOf(() => keywordExpression('a'.repeat(201)))).toBe('q');
  });

  it('tags: at most 10 lowercase-hyphen tags, duplicates folded', () => {
    expect(normaliseMemoryTags([' pricing ', 'pricing', 'ops-team'])).toEqual(['pricing', 'ops-team']);
    expect(invalidFieldOf(() => normaliseMemoryTags(Array.from({ length: 11 }, (_, i) => `t${i}`)))).toBe('tags');
    expect(invalidFieldOf(() => normaliseMemoryTags(['ok', 'Not Ok']))).toBe('tags[1]');
  });

  it('the staleness window starts at a workspace midnight, also on a DST day', () => {
    // 2026-03-08 is 23 hours long in New York: the window of 2 days starting that day begins at 05:00Z (EST).
    expect(withinCutoff(new Date('2026-03-09T15:00:00Z'), 'America/New_York', 2)).toBe('2026-03-08T05:00:00.000Z');
    expect(withinCutoff(new Date('2026-03-10T15:00:00Z'), 'America/New_York', 1)).toBe('2026-03-10T04:00:00.000Z');
    expect(daysBetween('2026-02-08', '2026-03-10')).toBe(30);
    expect(daysBetween('2026-10-31', '2026-11-02')).toBe(2);
  });
});
