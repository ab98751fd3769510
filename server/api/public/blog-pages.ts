import type { NextFunction, Request, Response } from 'express';
import type { Mount } from '../../app';
import { DeskError } from '../../core/errors';
import { escapeHtml } from '../../core/html';
import { BlogService, type BlogAuthorRow, type BlogPostRow } from '../../domain/blog/blog-service';
import type { AuthorProfile } from '../../domain/blog/content-types';
import { tagSlug } from '../../domain/blog/rules';
import { baseUrlOf, cachePublicly } from './public-http';
import { renderNotFoundPage, renderPublicPage } from './public-page';

const BLOG_STYLE = `<style>.avatar{border-radius:50%;vertical-align:middle}.author-card{display:flex;gap:1rem;align-items:flex-start;border:1px solid var(--line);border-radius:.6rem;padding:1rem;margin:2rem 0;background:var(--card)}
.author-card p{margin:.2rem 0}.category{border-left:4px solid var(--accent-c,var(--line));padding-left:.5rem}.post-nav{display:flex;justify-content:space-between;gap:1rem;flex-wrap:wrap}</style>`;

const tagLinks = (tags: string[]): string => tags.map((t) => `<a class="tag" href="/blog/tag/${escapeHtml(tagSlug(t))}">${escapeHtml(t)}</a>`).join('');

const postMeta = (p: BlogPostRow): string =>
  `<p class="meta"><time datetime="${escapeHtml(p.date)}">${escapeHtml(p.date)}</time> · <a href="/blog/author/${escapeHtml(p.author.slug)}">${escapeHtml(p.author.name)}</a> · ${p.readTime} min read · <span class="category" style="--accent-c:${escapeHtml(p.category.accentColor)}">${escapeHtml(p.category.name)}</span></p>`;

/** `level` is the card heading's: h2 right under the page's h1, h3 under a section's h2 (no level skipped). */
const postCard = (p: BlogPostRow, level: 2 | 3): string =>
  `<li class="card"><h${level}><a href="/blog/${escapeHtml(p.slug)}">${escapeHtml(p.title)}</a></h${level}>${postMeta(p)}<p>${escapeHtml(p.excerpt)}</p><p>${tagLinks(p.tags)}</p></li>`;

const postCards = (posts: BlogPostRow[], level: 2 | 3 = 2): string => `<ul class="cards">${posts.map((p) => postCard(p, level)).join('')}</ul>`;

const avatar = (profile: AuthorProfile | null, name: string, size: number): string =>
  profile === null ? '' : `<img class="avatar" src="${escapeHtml(profile.avatarUrl)}" alt="${escapeHtml(name)}" width="${size}" height="${size}">`;

function authorCard(author: BlogAuthorRow): string {
  const p = author.profile;
  const links = p === null ? [] : [...(p.homepageUrl === null ? [] : [{ label: 'Homepage', url: p.homepageUrl }]), ...p.links];
  const linkList = links.length === 0 ? '' : `<p>${links.map((l) => `<a href="${escapeHtml(l.url)}" rel="nofollow noopener">${escapeHtml(l.label)}</a>`).join(' · ')}</p>`;
  const about = p === null ? '' : `<p><em>${escapeHtml(p.tagline)}</em></p><p>${escapeHtml(p.bio)}</p>`;
  return `<aside class="author-card">${avatar(p, author.name, 64)}<div><p><strong><a href="/blog/author/${escapeHtml(author.slug)}">${escapeHtml(author.name)}</a></strong> · ${author.postCount} post${author.postCount === 1 ? '' : 's'}</p>${about}${linkList}</div></aside>`;
}

/** Sends a page, cached like the blog API. */
function sendPage(res: Response, html: string): void {
  cachePublicly(res);
  res.status(200).type('html').send(html);
}

/** Runs a page renderer; an unknown slug (the service's 404) is the 404 page, never cached. */
function page(what: string, render: (blog: BlogService, slug: string, base: string) => string) {
  return (req: Request, res: Response, next: NextFunction) => {
    const base = baseUrlOf(req);
    try {
      sendPage(res, render(new BlogService(base), req.params.slug ?? '', base));
    } catch (error) {
      if (error instanceof DeskError && error.status === 404) res.status(404).type('html').send(renderNotFoundPage(`${base}/blog`, what));
      else next(error);
    }
  };
}

function renderIndex(blog: BlogService, base: string): string {
  const { posts } = blog.list({ limit: 100 });
  const { tags } = blog.tags();
  const { authors } = blog.authors();
  const { categories } = blog.categories();
  const categoryList = categories
    .map((c) => `<li class="category" style="--accent-c:${escapeHtml(c.accentColor)}"><strong>${escapeHtml(c.name)}</strong> <span class="meta">${c.postCount} posts</span><br><span class="meta">${escapeHtml(c.description)}</span></li>`)
    .join('');
  const tagList = tags.map((t) => `<a class="tag" href="/blog/tag/${escapeHtml(t.slug)}">${escapeHtml(t.tag)} (${t.postCount})</a>`).join('');
  const authorList = authors.map((a) => `<li>${avatar(a.profile, a.name, 28)} <a href="/blog/author/${escapeHtml(a.slug)}">${escapeHtml(a.name)}</a> <span class="meta">${a.postCount} posts</span></li>`).join('');
  return renderPublicPage({
    title: 'Blog',
    description: 'Notes on running an AI operations desk: cost caps, memory, reviews, webhooks, and case studies from the field.',
    canonicalUrl: `${base}/blog`,
    section: 'blog',
    body: `${BLOG_STYLE}${postCards(posts)}<h2>Categories</h2><ul style="list-style:none;padding:0">${categoryList}</ul><h2>Tags</h2><p>${tagList}</p><h2>Authors</h2><ul style="list-style:none;padding:0">${authorList}</ul>`,
  });
}

function renderPost(blog: BlogService, slug: string): string {
  const post = blog.detail(slug);
  const author = blog.authors().authors.find((a) => a.slug === post.author.slug);
  const { newer, older } = blog.neighbors(slug);
  const nav = `<nav class="post-nav meta" aria-label="More posts"><span>${newer === null ? '' : `Newer: <a rel="next" href="/blog/${escapeHtml(newer.slug)}">${escapeHtml(newer.title)}</a>`}</span><span>${older === null ? '' : `Older: <a rel="prev" href="/blog/${escapeHtml(older.slug)}">${escapeHtml(older.title)}</a>`}</span></nav>`;
  const related = post.related.length === 0 ? '' : `<h2>Related posts</h2>${postCards(post.related, 3)}`;
  return renderPublicPage({
    title: post.title,
    description: post.excerpt,
    canonicalUrl: post.canonicalUrl,
    section: 'blog',
    // bodyHtml is trusted content of this repository (tested free of scripts); every other value is escaped
    body: `${BLOG_STYLE}<article>${postMeta(post)}<p>${tagLinks(post.tags)}</p>${post.bodyHtml}</article>${author === undefined ? '' : authorCard(author)}${related}${nav}`,
  });
}

function renderTag(blog: BlogService, slug: string, base: string): string {
  const { tag, posts, summary } = blog.byTag(slug, { limit: 100 });
  return renderPublicPage({
    title: `Posts tagged ${tag.tag}`,
    description: `${tag.postCount} post${tag.postCount === 1 ? '' : 's'}, about ${summary.estimatedMinutes} minutes of reading.`,
    canonicalUrl: `${base}/blog/tag/${tag.slug}`,
    section: 'blog',
    body: `${BLOG_STYLE}${postCards(posts)}<p><a href="/blog">All posts</a></p>`,
  });
}

function renderAuthor(blog: BlogService, slug: string, base: string): string {
  const { author, posts } = blog.byAuthor(slug, { limit: 100 });
  return renderPublicPage({
    title: author.name,
    description: author.profile?.tagline ?? `Posts by ${author.name}.`,
    canonicalUrl: `${base}/blog/author/${author.slug}`,
    section: 'blog',
    body: `${BLOG_STYLE}${authorCard(author)}${postCards(posts)}<p><a href="/blog">All posts</a></p>`,
  });
}

/**
 * The blog's human pages: /blog (posts, tags, authors), /blog/<slug> (the article, its author card,
 * related posts, newer and older), /blog/tag/<slug> and /blog/author/<slug>. Unknown slugs get the
 * 404 page.
 */
export const blogPagesMount: Mount = (app) => {
  app.get('/blog', (req: Request, res: Response) => {
    const base = baseUrlOf(req);
    sendPage(res, renderIndex(new BlogService(base), base));
  });
  app.get('/blog/tag/:slug', page('tag', renderTag));
  app.get('/blog/author/:slug', page('author', renderAuthor));
  app.get('/blog/:slug', page('post', renderPost));
};
