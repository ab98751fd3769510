import { DeskError, invalid } from '../../core/errors';
import { BLOG_AUTHORS, BLOG_CATEGORIES } from './authors';
import type { AuthorProfile, BlogPostRecord } from './content-types';
import { BLOG_POSTS } from './posts';
import { BLOG_LIMIT, BLOG_RELATED_LIMIT, DETAIL_RELATED, MAX_BLOG_QUERY, MAX_BLOG_TAG_FILTER, countWords, minutesToRead, tagSlug } from './rules';

export interface BlogAuthorRef {
  slug: string;
  name: string;
  /** The author's page: `{base_url}/blog/author/<slug>`. */
  url: string;
}

export interface BlogCategoryRef {
  slug: string;
  name: string;
  accentColor: string;
}

/** A post in a list. */
export interface BlogPostRow {
  slug: string;
  title: string;
  /** ISO date of publication. */
  date: string;
  excerpt: string;
  /** As written on the post. */
  tags: string[];
  author: BlogAuthorRef;
  category: BlogCategoryRef;
  /** Minutes to read: words / 225, rounded up, at least 1. */
  readTime: number;
  /** The post's page: `{base_url}/blog/<slug>`. */
  url: string;
}

export interface RelatedPost extends BlogPostRow {
  /** Tags (by slug) this post shares with the source post; at least 1. */
  sharedTagCount: number;
}

export interface BlogPostDetail extends BlogPostRow {
  /** The article as HTML (trusted content of Desk's own repository, free of scripts). */
  bodyHtml: string;
  wordCount: number;
  canonicalUrl: string;
  /** The author's profile, or null. */
  authorProfile: AuthorProfile | null;
  /** 3 posts sharing the most tags (then newest first). */
  related: RelatedPost[];
}

export interface BlogList {
  /** Posts on the blog. */
  total: number;
  /** Posts matching the filters. */
  filtered: number;
  returned: number;
  /** Newest first. */
  posts: BlogPostRow[];
}

export interface BlogCategoryRow extends BlogCategoryRef {
  description: string;
  postCount: number;
}

export interface BlogAuthorRow extends BlogAuthorRef {
  postCount: number;
  /** Date of the author's newest post, or null without posts. */
  latestPostDate: string | null;
  profile: AuthorProfile | null;
}

export interface BlogTagRow {
  /** The tag as most posts write it (ties: as it was first written). */
  tag: string;
  slug: string;
  postCount: number;
  latestPostDate: string;
  /** The tag's page: `{base_url}/blog/tag/<slug>`. */
  url: string;
}

export interface BlogByAuthor {
  author: BlogAuthorRow;
  profile: AuthorProfile | null;
  total: number;
  returned: number;
  posts: BlogPostRow[];
}

export interface BlogByTag {
  tag: BlogTagRow;
  /** Over every post of the tag (not only those returned): words and minutes at 225 words a minute. */
  summary: { totalWords: number; estimatedMinutes: number };
  total: number;
  returned: number;
  posts: BlogPostRow[];
}

export interface BlogRelated {
  source: { slug: string; title: string; date: string; tags: string[]; url: string };
  /** The source post's author's avatar (profile.avatarUrl), or null. */
  authorAvatarUrl: string | null;
  returned: number;
  related: RelatedPost[];
}

export interface BlogNeighbors {
  /** The next post published after this one, or null for the newest. */
  newer: BlogPostRow | null;
  /** The post published before this one, or null for the oldest. */
  older: BlogPostRow | null;
}

interface Indexed extends BlogPostRecord {
  words: number;
  tagSlugs: Set<string>;
}

/** Newest first (same date: by slug), with word counts and tag slugs worked out once. */
const POSTS: readonly Indexed[] = [...BLOG_POSTS]
  .sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug))
  .map((p) => ({ ...p, words: countWords(p.bodyHtml), tagSlugs: new Set(p.tags.map(tagSlug)) }));

const notFound = (what: string, slug: string) => new DeskError(404, 'not_found', `No blog ${what} with slug ${JSON.stringify(slug.slice(0, 100))}`);

function limitOf(value: number | undefined, r: { min: number; max: number; default: number }): number {
  if (value === undefined) return r.default;
  if (!Number.isInteger(value) || value < r.min || value > r.max) throw invalid('limit', `must be an integer from ${r.min} to ${r.max}`);
  return value;
}

function isoDate(value: string): string {
  // Date.parse rolls 2026-02-30 over to March and answers NaN for month 13: both refused
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00.000Z`) : NaN;
  const ok = !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(value);
  if (!ok) throw invalid('sinceDate', 'must be an ISO date (YYYY-MM-DD)');
  return value;
}

const postBySlug = (slug: string): Indexed => {
  const post = POSTS.find((p) => p.slug === slug);
  if (!post) throw notFound('post', slug);
  return post;
};

/**
 * The blog: posts, authors, categories and tags written in server/domain/blog/ (static content of
 * this build). Every answer that links somewhere builds the address from the request's base URL.
 */
export class BlogService {
  constructor(private readonly baseUrl: string) {}

  private row(p: Indexed): BlogPostRow {
    const author = BLOG_AUTHORS.find((a) => a.slug === p.authorSlug);
    const category = BLOG_CATEGORIES.find((c) => c.slug === p.categorySlug);
    if (!author || !category) throw new Error(`blog post ${p.slug} names an unknown author or category`);
    return {
      slug: p.slug,
      title: p.title,
      date: p.date,
      excerpt: p.excerpt,
      tags: [...p.tags],
      author: { slug: author.slug, name: author.name, url: `${this.baseUrl}/blog/author/${author.slug}` },
      category: { slug: category.slug, name: category.name, accentColor: category.accentColor },
      readTime: minutesToRead(p.words),
      url: `${this.baseUrl}/blog/${p.slug}`,
    };
  }

  private relatedTo(source: Indexed, limit: number): RelatedPost[] {
    return POSTS.filter((p) => p !== source)
      .map((p) => ({ p, shared: [...p.tagSlugs].filter((t) => source.tagSlugs.has(t)).length }))
      .filter((x) => x.shared > 0)
      .sort((a, b) => b.shared - a.shared || b.p.date.localeCompare(a.p.date) || a.p.slug.localeCompare(b.p.slug))
      .slice(0, limit)
      .map((x) => ({ ...this.row(x.p), sharedTagCount: x.shared }));
  }

  list(q: { limit?: number; tag?: string; sinceDate?: string; q?: string }): BlogList {
    const limit = limitOf(q.limit, BLOG_LIMIT);
    if (q.q !== undefined && q.q.length > MAX_BLOG_QUERY) throw invalid('q', `must be at most ${MAX_BLOG_QUERY} characters`);
    if (q.tag !== undefined && q.tag.length > MAX_BLOG_TAG_FILTER) throw invalid('tag', `must be at most ${MAX_BLOG_TAG_FILTER} characters`);
    const since = q.sinceDate === undefined ? null : isoDate(q.sinceDate);
    const tag = q.tag?.trim().toLowerCase() ?? '';
    const text = q.q?.trim().toLowerCase() ?? '';
    const matches = POSTS.filter(
      (p) =>
        (tag === '' || p.tags.some((t) => t.toLowerCase().includes(tag))) &&
        (since === null || p.date >= since) &&
        (text === '' || [p.title, p.excerpt, ...p.tags].some((s) => s.toLowerCase().includes(text))),
    );
    const posts = matches.slice(0, limit).map((p) => this.row(p));
    return { total: POSTS.length, filtered: matches.length, returned: posts.length, posts };
  }

  detail(slug: string): BlogPostDetail {
    const post = postBySlug(slug);
    const row = this.row(post);
    const profile = BLOG_AUTHORS.find((a) => a.slug === post.authorSlug)?.profile ?? null;
    return { ...row, bodyHtml: post.bodyHtml, wordCount: post.words, canonicalUrl: row.url, authorProfile: profile, related: this.relatedTo(post, DETAIL_RELATED) };
  }

  categories(): { categories: BlogCategoryRow[] } {
    return {
      categories: BLOG_CATEGORIES.map((c) => ({ slug: c.slug, name: c.name, description: c.description, accentColor: c.accentColor, postCount: POSTS.filter((p) => p.categorySlug === c.slug).length })),
    };
  }

  private authorRow(slug: string): BlogAuthorRow {
    const author = BLOG_AUTHORS.find((a) => a.slug === slug);
    if (!author) throw notFound('author', slug);
    const posts = POSTS.filter((p) => p.authorSlug === slug);
    return { slug, name: author.name, url: `${this.baseUrl}/blog/author/${slug}`, postCount: posts.length, latestPostDate: posts[0]?.date ?? null, profile: author.profile };
  }

  authors(): { authors: BlogAuthorRow[] } {
    const rows = BLOG_AUTHORS.map((a) => this.authorRow(a.slug));
    return { authors: rows.sort((a, b) => b.postCount - a.postCount || a.name.localeCompare(b.name)) };
  }

  byAuthor(slug: string, q: { limit?: number }): BlogByAuthor {
    const author = this.authorRow(slug);
    const limit = limitOf(q.limit, BLOG_LIMIT);
    const posts = POSTS.filter((p) => p.authorSlug === slug);
    return { author, profile: author.profile, total: posts.length, returned: Math.min(limit, posts.length), posts: posts.slice(0, limit).map((p) => this.row(p)) };
  }

  related(slug: string, q: { limit?: number }): BlogRelated {
    const source = postBySlug(slug);
    const limit = limitOf(q.limit, BLOG_RELATED_LIMIT);
    const related = this.relatedTo(source, limit);
    const avatar = BLOG_AUTHORS.find((a) => a.slug === source.authorSlug)?.profile?.avatarUrl ?? null;
    return { source: { slug: source.slug, title: source.title, date: source.date, tags: [...source.tags], url: `${this.baseUrl}/blog/${source.slug}` }, authorAvatarUrl: avatar, returned: related.length, related };
  }

  neighbors(slug: string): BlogNeighbors {
    const index = POSTS.indexOf(postBySlug(slug));
    return { newer: index > 0 ? this.row(POSTS[index - 1]) : null, older: index < POSTS.length - 1 ? this.row(POSTS[index + 1]) : null };
  }

  tags(): { total: number; tags: BlogTagRow[] } {
    const bySlug = new Map<string, Indexed[]>();
    for (const p of POSTS) for (const s of p.tagSlugs) bySlug.set(s, [...(bySlug.get(s) ?? []), p]);
    const rows = [...bySlug.entries()].map(([slug, posts]) => this.tagRow(slug, posts));
    return { total: rows.length, tags: rows.sort((a, b) => b.postCount - a.postCount || a.slug.localeCompare(b.slug)) };
  }

  private tagRow(slug: string, posts: Indexed[]): BlogTagRow {
    // posts are newest first: counting forms oldest first makes the form written first win a tie
    const forms = new Map<string, number>();
    for (const p of [...posts].reverse()) for (const t of p.tags) if (tagSlug(t) === slug) forms.set(t, (forms.get(t) ?? 0) + 1);
    let tag = '';
    let best = 0;
    for (const [form, count] of forms) if (count > best) [tag, best] = [form, count];
    return { tag, slug, postCount: posts.length, latestPostDate: posts[0].date, url: `${this.baseUrl}/blog/tag/${slug}` };
  }

  byTag(slug: string, q: { limit?: number }): BlogByTag {
    const key = slug.trim().toLowerCase();
    const posts = POSTS.filter((p) => p.tagSlugs.has(key));
    if (posts.length === 0) throw notFound('tag', slug);
    const limit = limitOf(q.limit, BLOG_LIMIT);
    const totalWords = posts.reduce((sum, p) => sum + p.words, 0);
    return {
      tag: this.tagRow(key, posts),
      summary: { totalWords, estimatedMinutes: minutesToRead(totalWords) },
      total: posts.length,
      returned: Math.min(limit, posts.length),
      posts: posts.slice(0, limit).map((p) => this.row(p)),
    };
  }
}
