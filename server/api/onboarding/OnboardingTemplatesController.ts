import type { Request as ExRequest } from 'express';
import { Controller, Get, Path, Query, Request, Res, Response, Route, Tags, type TsoaResponse } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import {
  categoryDetail,
  categoryNotFound,
  listCategories,
  listTemplates,
  recentCategoryTemplates,
  recentTemplates,
  searchTemplates,
  templateDetail,
  templateNotFound,
  templateStats,
} from '../../domain/onboarding/catalog';
import type {
  RecentCategoryTemplates,
  RecentTemplates,
  TemplateCatalog,
  TemplateCategoryDetail,
  TemplateCategoryList,
  TemplateDetail,
  TemplateSearchResult,
  TemplateStats,
} from '../../domain/onboarding/catalog-views';
import { baseUrlOf, cachePublicly, PUBLIC_CACHE_CONTROL } from '../public/public-http';

/**
 * The public onboarding-template catalog (no authorization header). Every answer, the 404s
 * included, carries `Cache-Control: public, max-age=300, s-maxage=1800`: the catalog only changes
 * with a release, so a cached "not found" is as true as a cached template. Addresses in the rows
 * are built from the address the request reached the desk on (`{base_url}`).
 *
 * The fixed paths (categories, search, stats, recent) are declared before `{key}` so it never
 * captures them.
 */
@Route('api/v1/onboarding-templates')
@Tags('Onboarding templates')
export class OnboardingTemplatesController extends Controller {
  /**
   * Every template (declaration order: categories in their order, each in its own) with its full
   * memories and sample signals, plus a `categories` summary of the 10 buckets with their counts.
   */
  @Get()
  public async listOnboardingTemplates(@Request() req: ExRequest): Promise<TemplateCatalog> {
    cachePublicly(this);
    return listTemplates(baseUrlOf(req));
  }

  /** Every category row: label, description, template count, addresses, coverage depth and latest launch. */
  @Get('categories')
  public async listOnboardingTemplateCategories(@Request() req: ExRequest): Promise<TemplateCategoryList> {
    cachePublicly(this);
    return listCategories(baseUrlOf(req));
  }

  /**
   * Case-insensitive substring search over template name, description, memory titles and content,
   * and signal titles and detail; matches in declaration order. Without `q` (or with a blank one),
   * every template up to `limit`.
   * @param q the text looked for, at most 200 characters (a 422 naming `q` past that)
   * @param limit rows answered, 1-50 (default 20)
   * @isInt limit must be an integer
   */
  @Get('search')
  @Response<ErrorBody>('422', 'q or limit is out of bounds')
  public async searchOnboardingTemplates(@Request() req: ExRequest, @Query() q?: string, @Query() limit = 20): Promise<TemplateSearchResult> {
    cachePublicly(this);
    return searchTemplates(baseUrlOf(req), { q, limit });
  }

  /** Catalog figures: totals, averages, per-kind and per-priority breakdowns, per category, and the launch timeline. */
  @Get('stats')
  public async getOnboardingTemplateStats(): Promise<TemplateStats> {
    cachePublicly(this);
    return templateStats();
  }

  /**
   * The most recently launched templates: launch date descending, the same date in declaration order.
   * @param limit rows answered, 1-20 (default 4)
   * @isInt limit must be an integer
   */
  @Get('recent')
  @Response<ErrorBody>('422', 'limit is out of bounds')
  public async recentOnboardingTemplates(@Request() req: ExRequest, @Query() limit = 4): Promise<RecentTemplates> {
    cachePublicly(this);
    return recentTemplates(baseUrlOf(req), { limit });
  }

  /**
   * Every template of one category (declaration order) with the category's label and description.
   * @param category a category key, e.g. `retail-ecommerce`
   * @param unknownCategory No such category: `{ error: "category_not_found", message, category, validCategories }` (the public document's body plus the message every error carries), cacheable like the rest
   */
  @Get('by-category/{category}')
  public async onboardingTemplatesByCategory(
    @Path() category: string,
    @Request() req: ExRequest,
    @Res() unknownCategory: TsoaResponse<404, ErrorBody, { 'Cache-Control': string }>,
  ): Promise<TemplateCategoryDetail> {
    cachePublicly(this);
    const answer = categoryDetail(baseUrlOf(req), category);
    if (answer === undefined) return unknownCategory(404, categoryNotFound(category), { 'Cache-Control': PUBLIC_CACHE_CONTROL });
    return answer;
  }

  /**
   * The most recently launched templates of one category, in the order of /recent.
   * @param category a category key, e.g. `retail-ecommerce`
   * @param unknownCategory No such category: `{ error: "category_not_found", message, category, validCategories }`, as by-category answers it
   * @param limit rows answered, 1-20 (default 3)
   * @isInt limit must be an integer
   */
  @Get('by-category/{category}/recent')
  @Response<ErrorBody>('422', 'limit is out of bounds')
  public async recentOnboardingTemplatesByCategory(
    @Path() category: string,
    @Request() req: ExRequest,
    @Res() unknownCategory: TsoaResponse<404, ErrorBody, { 'Cache-Control': string }>,
    @Query() limit = 3,
  ): Promise<RecentCategoryTemplates> {
    cachePublicly(this);
    const answer = recentCategoryTemplates(baseUrlOf(req), category, { limit });
    if (answer === undefined) return unknownCategory(404, categoryNotFound(category), { 'Cache-Control': PUBLIC_CACHE_CONTROL });
    return answer;
  }

  /**
   * One template whole, with its neighbours in declaration order, up to 6 other templates of its
   * category and the catalog's total.
   * @param key the template's key, e.g. `online-fashion-boutique`
   * @param unknownTemplate No such template: `{ error: "template_not_found", message, key }` (the public document's body plus the message every error carries), cacheable like the rest
   */
  @Get('{key}')
  public async getOnboardingTemplate(
    @Path() key: string,
    @Request() req: ExRequest,
    @Res() unknownTemplate: TsoaResponse<404, ErrorBody, { 'Cache-Control': string }>,
  ): Promise<TemplateDetail> {
    cachePublicly(this);
    const answer = templateDetail(baseUrlOf(req), key);
    if (answer === undefined) return unknownTemplate(404, templateNotFound(key), { 'Cache-Control': PUBLIC_CACHE_CONTROL });
    return answer;
  }
}
