import { describe, expect, it } from 'vitest';
import { countWords, minutesToRead, tagSlug } from './rules';

describe('blog rules', () => {
  it('slugs tags: lowercase, punctuation and spaces to single hyphens', () => {
    expect(tagSlug('Review queue')).toBe('review-queue');
    expect(tagSlug('  Local-first ')).toBe('local-first');
    expect(tagSlug('Q&A / Support')).toBe('q-a-support');
  });

  it('counts the words between tags and turns them into minutes at 225 a minute, at least 1', () => {
    expect(countWords('<p>One <strong>two</strong></p>\n<ul><li>three</li></ul>')).toBe(3);
    expect(countWords('<p></p>')).toBe(0);
    expect(minutesToRead(0)).toBe(1);
    expect(minutesToRead(225)).toBe(1);
    expect(minutesToRead(226)).toBe(2);
  });
});
