import type { Request as ExRequest } from 'express';
import { Controller, Get, Path, Query, Request, Response, Route, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import {
  BlogService,
  type BlogAuthorRow,
  type BlogByAuthor,
  type BlogByTag,
  type BlogCategoryRow,
  type BlogList,
  type BlogNeighbors,
  type BlogPostDetail,
  type BlogRelated,
  type BlogTagRow,
} from '../../domain/blog/blog-service';
import { baseUrlOf, cachePublicly } from '../public/public-http';

/**
 * Desk's blog (public, no authorization header). Every success answers with
 * `Cache-Control: public, max-age=300, s-maxage=1800`. An unknown post, author or tag slug is a 404
 * in the one error shape (`error: "not_found"`). `readTime` and `estimatedMinutes` are minutes at
 * 225 words a minute, rounded up (at least 1). Fixed paths are declared before `blog/{slug}`.
 */
@Route('api/v1')
@Tags('Public')
export class BlogController extends Controller {
  private blog(req: ExRequest): BlogService {
    cachePublicly(this);
    return new BlogService(baseUrlOf(req));
  }

  /**
   * Public. Posts newest first, in `{ total, filtered, returned, posts }`. Filters compose: `tag`
   * keeps posts with a tag containing it (case-insensitive), `sinceDate` posts published on or after
   * that date, `q` posts whose title, excerpt or a tag contains it (case-insensitive); an empty
   * filter is no filter.
   * @param limit posts answered, 1-100 (default 20)
   * @isInt limit must be an integer
   * @param tag a part of a tag, at most 100 characters
   * @param sinceDate an ISO date (YYYY-MM-DD); anything else is a 422 naming sinceDate
   * @param q text searched in titles, excerpts and tags, at most 200 characters
   */
  @Get('blog')
  @Response<ErrorBody>('422', 'limit, tag, sinceDate or q is invalid')
  public async listBlogPosts(@Request() req: ExRequest, @Query() limit = 20, @Query() tag?: string, @Query() sinceDate?: string, @Query() q?: string): Promise<BlogList> {
    return this.blog(req).list({ limit, tag, sinceDate, q });
  }

  /** Public. The blog's categories in their order, with description, accent colour and post count. */
  @Get('blog/categories')
  public async listBlogCategories(@Request() req: ExRequest): Promise<{ categories: BlogCategoryRow[] }> {
    return this.blog(req).categories();
  }

  /** Public. Authors with post count, latest-post date and profile (or null): most posts first, then by name. */
  @Get('blog/authors')
  public async listBlogAuthors(@Request() req: ExRequest): Promise<{ authors: BlogAuthorRow[] }> {
    return this.blog(req).authors();
  }

  /**
   * Public. The tag taxonomy: tags collapsed by slug (letter case and punctuation aside, so
   * `Webhooks` and `webhooks` are one entry, shown as most posts write it), with post count and
   * latest-post date; most posts first, then by slug.
   */
  @Get('blog/tags')
  public async listBlogTags(@Request() req: ExRequest): Promise<{ total: number; tags: BlogTagRow[] }> {
    return this.blog(req).tags();
  }

  /**
   * Public. An author's posts newest first, with the author row and `profile` (or null).
   * @param slug the author's slug; unknown: 404
   * @param limit posts answered, 1-100 (default 20)
   * @isInt limit must be an integer
   */
  @Get('blog/by-author/{slug}')
  @Response<ErrorBody>('404', 'no author has this slug')
  @Response<ErrorBody>('422', 'limit is invalid')
  public async listBlogPostsByAuthor(@Request() req: ExRequest, @Path() slug: string, @Query() limit = 20): Promise<BlogByAuthor> {
    return this.blog(req).byAuthor(slug, { limit });
  }

  /**
   * Public. Posts sharing tags (by slug) with the source post, most shared tags first (then newest
   * first), each with `sharedTagCount`; posts sharing none are left out. Carries the source post's
   * identity and its author's avatar.
   * @param slug the source post's slug; unknown: 404
   * @param limit related posts answered, 1-20 (default 5)
   * @isInt limit must be an integer
   */
  @Get('blog/related/{slug}')
  @Response<ErrorBody>('404', 'no post has this slug')
  @Response<ErrorBody>('422', 'limit is invalid')
  public async listRelatedBlogPosts(@Request() req: ExRequest, @Path() slug: string, @Query() limit = 5): Promise<BlogRelated> {
    return this.blog(req).related(slug, { limit });
  }

  /**
   * Public. A tag's posts newest first (the slug matches whatever the letter case), with
   * `summary { totalWords, estimatedMinutes }` over all of them.
   * @param slug the tag's slug, as GET /blog/tags lists it; unknown: 404
   * @param limit posts answered, 1-100 (default 20)
   * @isInt limit must be an integer
   */
  @Get('blog/by-tag/{slug}')
  @Response<ErrorBody>('404', 'no tag has this slug')
  @Response<ErrorBody>('422', 'limit is invalid')
  public async listBlogPostsByTag(@Request() req: ExRequest, @Path() slug: string, @Query() limit = 20): Promise<BlogByTag> {
    return this.blog(req).byTag(slug, { limit });
  }

  /**
   * Public. The posts published just after (`newer`) and just before (`older`) this one; null at the ends.
   * @param slug the post's slug; unknown: 404
   */
  @Get('blog/{slug}/neighbors')
  @Response<ErrorBody>('404', 'no post has this slug')
  public async getBlogPostNeighbors(@Request() req: ExRequest, @Path() slug: string): Promise<BlogNeighbors> {
    return this.blog(req).neighbors(slug);
  }

  /**
   * Public. One post: its list row plus the full HTML body, word count, canonical URL, the author's
   * profile and the 3 posts sharing the most tags with it (`sharedTagCount`, then newest first).
   * @param slug the post's slug; unknown: 404
   */
  @Get('blog/{slug}')
  @Response<ErrorBody>('404', 'no post has this slug')
  public async getBlogPost(@Request() req: ExRequest, @Path() slug: string): Promise<BlogPostDetail> {
    return this.blog(req).detail(slug);
  }
}
