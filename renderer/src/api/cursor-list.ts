import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery, type QueryKey } from '@tanstack/react-query';
import { useMemo } from 'react';

/**
 * Lists with cursors, the API's one list convention: a list endpoint takes an opaque `cursor` and answers
 * its array beside `nextCursor` (null on the last page). `cursorList()` makes react-query infinite-query
 * options for one such list; `useCursorList()` flattens the loaded pages; `<LoadMore>` asks for the next.
 *
 *   export const activityList = (f) => cursorList({
 *     queryKey: queryKeys.activity.list(f),
 *     fetchPage: (cursor) => unwrap(api.GET('/api/v1/activity', { params: { query: withCursor({ ...f }, cursor) } })),
 *     items: (page) => page.activities,
 *   });
 *   const list = useCursorList(activityList(f));   // list.items, list.hasNextPage, list.fetchNextPage()
 */

/** A page of a list: its array under its own name, and where the next page starts. */
export interface CursorPage {
  nextCursor?: string | null;
}

/** The query of a list request with the cursor added when there is one (the first page has none). */
export function withCursor<Query extends object>(query: Query, cursor: string | undefined): Query {
  return cursor ? { ...query, cursor } : query;
}

export interface CursorListOptions<Page extends CursorPage, Item> {
  queryKey: QueryKey;
  fetchPage: (cursor: string | undefined) => Promise<Page>;
  /** The page's array (`page.signals`). */
  items: (page: Page) => Item[];
  /** A number, or a function read each time the list updates (e.g. poll only while the event stream is down). */
  refetchInterval?: number | (() => number | false);
  /** Keep showing the previous filter's rows while a new filter loads (filters typed as you go). */
  keepPrevious?: boolean;
}

export function cursorList<Page extends CursorPage, Item>({ queryKey, fetchPage, items, refetchInterval, keepPrevious = false }: CursorListOptions<Page, Item>) {
  return {
    items,
    query: infiniteQueryOptions({
      queryKey,
      queryFn: ({ pageParam }) => fetchPage(pageParam),
      initialPageParam: undefined as string | undefined,
      // No nextCursor (or null): this was the last page.
      getNextPageParam: (last: Page) => last.nextCursor ?? undefined,
      refetchInterval,
      placeholderData: keepPrevious ? keepPreviousData : undefined,
    }),
  };
}

/** The loaded pages of a list as one array, with react-query's state for the next page. */
export function useCursorList<Page extends CursorPage, Item>(list: ReturnType<typeof cursorList<Page, Item>>) {
  const query = useInfiniteQuery(list.query);
  const { items: pick } = list;
  const items = useMemo(() => query.data?.pages.flatMap(pick) ?? [], [query.data, pick]);
  return { ...query, items, firstPage: query.data?.pages[0] };
}

/**
 * Every page of a list, following the cursors (a picker needs every source, not the first page);
 * stops after `maxPages` so a runaway cursor cannot loop forever.
 */
export async function fetchAllPages<Page extends CursorPage, Item>(fetchPage: (cursor: string | undefined) => Promise<Page>, items: (page: Page) => Item[], maxPages = 50): Promise<Item[]> {
  const all: Item[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const page = await fetchPage(cursor);
    all.push(...items(page));
    cursor = page.nextCursor ?? undefined;
    if (!cursor) break;
  }
  return all;
}
