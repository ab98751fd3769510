import { invalid } from '../../core/errors';

/** Bounds of the public template endpoints (public-api-v1: Limits). */
export const TEMPLATE_SEARCH_MAX_QUERY = 200;
export const TEMPLATE_SEARCH_LIMIT = { default: 20, min: 1, max: 50 } as const;
export const TEMPLATE_RECENT_LIMIT = { default: 4, min: 1, max: 20 } as const;
export const CATEGORY_RECENT_LIMIT = { default: 3, min: 1, max: 20 } as const;
/** Same-category templates listed with a template's detail. */
export const RELATED_TEMPLATES_MAX = 6;

type Bound = { readonly default: number; readonly min: number; readonly max: number };

/** `limit` of a template list: its default when absent, else an integer within the bound (a 422 naming `limit`). */
export function checkTemplateLimit(bound: Bound, value: number | undefined): number {
  if (value === undefined) return bound.default;
  if (!Number.isInteger(value) || value < bound.min || value > bound.max) throw invalid('limit', `must be an integer from ${bound.min} to ${bound.max}`);
  return value;
}

/** `q` of the template search: at most 200 characters; blank means no filter. */
export function checkTemplateQuery(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.length > TEMPLATE_SEARCH_MAX_QUERY) throw invalid('q', `must be at most ${TEMPLATE_SEARCH_MAX_QUERY} characters`);
  const q = value.trim();
  return q === '' ? undefined : q;
}
