import { queryOptions } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';

export type SearchHit = Schema<'SearchHit'>;
export type SearchResult = Schema<'SearchResult'>;
export type TagSearchResult = Schema<'TagSearchResult'>;
export type TagRenameResult = Schema<'TagRenameResult'>;

/** GET /search for the box: the default 20 hits, best first. */
export const searchQuery = (q: string) =>
  queryOptions({
    queryKey: queryKeys.search.results(q),
    queryFn: (): Promise<SearchResult> => unwrap(api.GET('/api/v1/search', { params: { query: { q } } })),
    staleTime: 10_000,
  });

/** GET /workspace/tag-search: the first page of what carries the tag. */
export const tagSearchQuery = (tag: string) =>
  queryOptions({
    queryKey: queryKeys.search.tag(tag),
    queryFn: (): Promise<TagSearchResult> => unwrap(api.GET('/api/v1/workspace/tag-search', { params: { query: { tag } } })),
  });

/** POST /workspace/tags/rename: every list that shows tags (and the focus tags) changes. */
export function useRenameTag() {
  return useDeskMutation({
    mutationFn: (body: { from: string; to: string }): Promise<TagRenameResult> => unwrap(api.POST('/api/v1/workspace/tags/rename', { body })),
    affects: [queryKeys.search.all, queryKeys.tasks.all, queryKeys.artifacts.all, queryKeys.memory.all, queryKeys.workspace.all],
    logged: (r) => r.changed,
  });
}
