import { FormError } from './FormError';

/**
 * The footer of a list with cursors (api/cursor-list.ts): "Load more" while the API has another page,
 * the next page's error if asking for it failed, else `end` (e.g. "That is all of them.").
 */
export function LoadMore({
  list,
  end = null,
}: {
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; isFetchNextPageError: boolean; error: unknown; fetchNextPage: () => unknown };
  end?: string | null;
}) {
  return (
    <div className="list-footer">
      {list.isFetchNextPageError ? <FormError error={list.error} /> : null}
      {list.hasNextPage ? (
        <button type="button" className="button button--secondary" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {list.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      ) : end ? (
        <p className="muted small">{end}</p>
      ) : null}
    </div>
  );
}
