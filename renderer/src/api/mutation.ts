import { useMutation, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { ApiError } from './client';
import { queryKeys } from './query-keys';

export interface DeskMutationOptions<Data, Vars> {
  /** The request; use `unwrap(api.X(...))` so failures arrive as ApiError. */
  mutationFn: (vars: Vars) => Promise<Data>;
  /**
   * What a successful change affects: keys (or key prefixes) from `queryKeys`, refetched afterwards.
   * A function when it depends on the answer (a preview affects nothing).
   */
  affects: readonly QueryKey[] | ((data: Data, vars: Vars) => readonly QueryKey[]);
  /** Folds the answer into cached data at once, so it shows before the refetch answers. */
  update?: (qc: QueryClient, data: Data, vars: Vars) => void;
  /**
   * Whether the change writes an activity row (every change does, docs/architecture.md, "activity log");
   * false for requests that change nothing (previews). The activity log is refreshed when true.
   */
  logged?: boolean | ((data: Data, vars: Vars) => boolean);
}

/**
 * The one mutation hook of the app: sends the change, folds the answer into the cache (`update`),
 * then refreshes what the change affects and the activity log. Callers still pass per-call
 * `onSuccess`/`onError` to `mutate()` for UI state (closing a form, a notice).
 */
export function useDeskMutation<Data, Vars = void>({ mutationFn, affects, update, logged = true }: DeskMutationOptions<Data, Vars>) {
  const qc = useQueryClient();
  return useMutation<Data, ApiError, Vars>({
    mutationFn,
    onSuccess: async (data, vars) => {
      update?.(qc, data, vars);
      const keys = [...(typeof affects === 'function' ? affects(data, vars) : affects)];
      if (typeof logged === 'function' ? logged(data, vars) : logged) keys.push(queryKeys.activity.all);
      await Promise.all(keys.map((queryKey) => qc.invalidateQueries({ queryKey })));
    },
  });
}
