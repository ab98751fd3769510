import type { IntRange } from '../workspace/rules';

/** GET /blog, /blog/by-author/{slug}, /blog/by-tag/{slug} `limit`: 1-100, default 20 (the cap is ours). */
export const BLOG_LIMIT: IntRange & { default: number } = { min: 1, max: 100, default: 20 };
/** GET /blog/related/{slug} `limit`: 1-20, default 5. */
export const BLOG_RELATED_LIMIT: IntRange & { default: number } = { min: 1, max: 20, default: 5 };
/** `q` of GET /blog: at most 200 characters (the public document's limit). */
export const MAX_BLOG_QUERY = 200;
/** `tag` filter of GET /blog: at most 100 characters. */
export const MAX_BLOG_TAG_FILTER = 100;
/** Related posts in a post's detail. */
export const DETAIL_RELATED = 3;
/** Reading speed behind readTime and estimatedMinutes: 225 words a minute, rounded up, at least 1. */
export const WORDS_PER_MINUTE = 225;

export const minutesToRead = (words: number): number => Math.max(1, Math.ceil(words / WORDS_PER_MINUTE));

/** A tag's slug: lowercase letters and digits joined by single hyphens (`Review queue` → `review-queue`). */
export const tagSlug = (tag: string): string =>
  tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** Words of an HTML body: the text between the tags, split on whitespace. */
export function countWords(html: string): number {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&[a-z]+;|&#\d+;/gi, ' ')
    .trim();
  return text === '' ? 0 : text.split(/\s+/).length;
}
