import { invalid } from '../../core/errors';

/** Rules of GET /search and of the text queries served by the search index (activity, comments). */

/** What the index holds, as GET /search names it (`artifact` is an output). */
export const SEARCH_KINDS = ['signal', 'task', 'artifact', 'memory', 'comment', 'activity', 'source'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** `q`: 1-200 characters (the comment filter's bound, the spec's only stated one, for every search). */
export const MAX_SEARCH_QUERY_LENGTH = 200;
/** Hits per answer: 20 by default (spec), at most 50. A ranked answer has no further pages. */
export const SEARCH_LIMIT = { default: 20, min: 1, max: 50 } as const;
/**
 * Words of a query that are matched; later ones are ignored. Every word must match, so more words
 * only narrow the answer, and each one costs a pass over its postings.
 */
export const MAX_QUERY_WORDS = 16;
/**
 * Matches ranked at most. A word found in most rows (or a short prefix) matches tens of thousands
 * at 100k signals; past this many, the newest this many matches are ranked (answer `capped: true`),
 * so every query stays within a few milliseconds of work. Also the most rows a word (or the kinds
 * filtered on) may be found in for bm25 to rank: bm25 weighs a word by how many rows hold it, and
 * FTS5 counts them all whatever the window (a cost that grows with the desk); a query with a word that common is ranked by where its words match, newest first
 * (search-service.ts).
 */
export const RANK_WINDOW = 2000;
/**
 * The last word is matched as a prefix from this many characters on; shorter, as a whole word.
 * A prefix of one to three letters starts many words of the index and would merge their postings (the
 * index keeps no prefix index, see 0014_search) for hits no one can use.
 */
export const MIN_PREFIX_LENGTH = 4;
/** Tokens of context around a match in a snippet. */
export const SNIPPET_TOKENS = 16;

/** The searched text: trimmed; empty or longer than 200 characters is a 422 naming `q`. */
export function checkSearchQuery(value: string | undefined): string {
  if (value === undefined || value.trim() === '') throw invalid('q', 'must not be empty');
  if (value.length > MAX_SEARCH_QUERY_LENGTH) throw invalid('q', `must be at most ${MAX_SEARCH_QUERY_LENGTH} characters`);
  return value.trim();
}

export function checkSearchLimit(value: number | undefined): number {
  if (value === undefined) return SEARCH_LIMIT.default;
  if (!Number.isInteger(value) || value < SEARCH_LIMIT.min || value > SEARCH_LIMIT.max) throw invalid('limit', `must be an integer from ${SEARCH_LIMIT.min} to ${SEARCH_LIMIT.max}`);
  return value;
}

const isSearchKind = (k: string): k is SearchKind => (SEARCH_KINDS as readonly string[]).includes(k);

/** The `kind` filter: a comma list of SearchKinds, blanks ignored (none = every kind); an unknown one is a 422 naming `kind`. */
export function parseSearchKinds(value: string | undefined): SearchKind[] | undefined {
  const kinds = (value ?? '').split(',').map((k) => k.trim()).filter(Boolean);
  if (kinds.length === 0) return undefined;
  const unknown = kinds.filter((k) => !isSearchKind(k));
  if (unknown.length > 0) {
    const named = unknown.slice(0, 5).map((k) => (k.length > 40 ? `${k.slice(0, 40)}…` : k));
    throw invalid('kind', `has unknown kinds: ${named.join(', ')} (known: ${SEARCH_KINDS.join(', ')})`);
  }
  return [...new Set(kinds.filter(isSearchKind))];
}
