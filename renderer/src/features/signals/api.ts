import { keepPreviousData, queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiError, type Schema } from '../../api/client';

/** Query options and mutation hooks for signals (/api/v1/signals/...). */

export type Signal = Schema<'Signal'>;
export type SignalList = Schema<'SignalList'>;
export type SignalKind = Schema<'SignalKind'>;
export type SignalPriority = Schema<'SignalPriority'>;
export type ReactionEmoji = Schema<'ReactionEmoji'>;

export const SIGNAL_KINDS: readonly SignalKind[] = ['news', 'mention', 'review', 'message', 'alert', 'metric', 'note', 'other'];
export const SIGNAL_PRIORITIES: readonly SignalPriority[] = ['low', 'normal', 'high', 'urgent'];
/** The API's order (❤️ is U+2764 U+FE0F). */
export const REACTION_EMOJIS: readonly ReactionEmoji[] = ['👍', '👀', '🎯', '❤️', '🚀'];
export const REACTION_NAMES: Record<ReactionEmoji, string> = { '👍': 'thumbs up', '👀': 'eyes', '🎯': 'on target', '❤️': 'heart', '🚀': 'rocket' };

export const PAGE_SIZE = 50;
/** The API's cap for one list. */
export const MAX_SIGNALS = 200;
/** Polled feed items and webhook pushes arrive on their own: the list refreshes this often. */
export const SIGNALS_REFRESH_MS = 15_000;

export interface SignalFilter {
  limit: number;
  /** Empty for every source. */
  sourceId: string;
}

export const signalKeys = {
  all: ['signals'] as const,
  lists: () => [...signalKeys.all, 'list'] as const,
  list: (f: SignalFilter) => [...signalKeys.lists(), f] as const,
};

export const signalsQuery = (f: SignalFilter) =>
  queryOptions({
    queryKey: signalKeys.list(f),
    queryFn: () => unwrap(api.GET('/api/v1/signals', { params: { query: { limit: f.limit, ...(f.sourceId ? { sourceId: f.sourceId } : {}) } } })),
    placeholderData: keepPreviousData,
    refetchInterval: SIGNALS_REFRESH_MS,
  });

/** Applies a change to one signal in every cached list, so the answer shows at once. */
function patchSignal(qc: QueryClient, id: string, patch: (s: Signal) => Signal) {
  qc.setQueriesData<SignalList>({ queryKey: signalKeys.lists() }, (list) => (list ? { ...list, signals: list.signals.map((s) => (s.id === id ? patch(s) : s)) } : list));
}

export const useCreateSignal = () => {
  const qc = useQueryClient();
  return useMutation<Signal, ApiError, Schema<'NewSignalBody'>>({
    mutationFn: (body) => unwrap(api.POST('/api/v1/signals', { body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: signalKeys.all }),
  });
};

export const useBulkSignals = () => {
  const qc = useQueryClient();
  return useMutation<Schema<'SignalBulkResult'>, ApiError, Schema<'SignalBulkBody'>>({
    mutationFn: (body) => unwrap(api.POST('/api/v1/signals/bulk', { body })),
    onSuccess: async (_result, body) => {
      if (body.action === 'pin') for (const id of body.signalIds) patchSignal(qc, id, (s) => ({ ...s, pinned: body.pinned ?? true }));
      await qc.invalidateQueries({ queryKey: signalKeys.all });
    },
  });
};

/** Toggles one reaction; the answer carries the signal's reactions after the toggle. */
export const useReact = () => {
  const qc = useQueryClient();
  return useMutation<Schema<'SignalReactionResult'>, ApiError, { id: string; emoji: ReactionEmoji }>({
    mutationFn: ({ id, emoji }) => unwrap(api.POST('/api/v1/signals/{id}/reaction', { params: { path: { id } }, body: { emoji } })),
    onSuccess: (result) => patchSignal(qc, result.signalId, (s) => ({ ...s, reactions: result.reactions })),
  });
};
