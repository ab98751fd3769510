import { requiredText } from '../templates/rules';

/** Pure rules of shared saved searches: the cap and the bounds of name and query. */

export const MAX_SHARED_SAVED_SEARCHES = 30;
export const SAVED_SEARCH_NAME = { min: 1, max: 80 } as const;
export const SAVED_SEARCH_QUERY = { min: 1, max: 500 } as const;

export function checkSavedSearch(input: { name: unknown; query: unknown }): { name: string; query: string } {
  return { name: requiredText('name', input.name, SAVED_SEARCH_NAME), query: requiredText('query', input.query, SAVED_SEARCH_QUERY) };
}
