import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';

/** Query options and mutation hooks for signals (/api/v1/signals/...). */

export type Signal = Schema<'Signal'>;
export type SignalList = Schema<'SignalList'>;
export type SignalKind = Schema<'SignalKind'>;
export type SignalPriority = Schema<'SignalPriority'>;
export type ReactionEmoji = Schema<'ReactionEmoji'>;

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

export const signalsQuery = (f: SignalFilter) =>
  queryOptions({
    queryKey: queryKeys.signals.list({ ...f }),
    queryFn: () => unwrap(api.GET('/api/v1/signals', { params: { query: { limit: f.limit, ...(f.sourceId ? { sourceId: f.sourceId } : {}) } } })),
    placeholderData: keepPreviousData,
    refetchInterval: SIGNALS_REFRESH_MS,
  });

/** Applies a change to one signal in every cached list, so the answer shows at once. */
function patchSignal(qc: QueryClient, id: string, patch: (s: Signal) => Signal) {
  qc.setQueriesData<SignalList>({ queryKey: queryKeys.signals.lists }, (list) => (list ? { ...list, signals: list.signals.map((s) => (s.id === id ? patch(s) : s)) } : list));
}

export const useCreateSignal = () =>
  useDeskMutation({
    mutationFn: (body: Schema<'NewSignalBody'>): Promise<Signal> => unwrap(api.POST('/api/v1/signals', { body })),
    affects: [queryKeys.signals.all],
  });

export const useBulkSignals = () =>
  useDeskMutation({
    mutationFn: (body: Schema<'SignalBulkBody'>): Promise<Schema<'SignalBulkResult'>> => unwrap(api.POST('/api/v1/signals/bulk', { body })),
    update: (qc, _result, body) => {
      if (body.action === 'pin') for (const id of body.signalIds) patchSignal(qc, id, (s) => ({ ...s, pinned: body.pinned ?? true }));
    },
    affects: [queryKeys.signals.all],
  });

/** Toggles one reaction; the answer carries the signal's reactions after the toggle, so nothing is refetched. */
export const useReact = () =>
  useDeskMutation({
    mutationFn: ({ id, emoji }: { id: string; emoji: ReactionEmoji }): Promise<Schema<'SignalReactionResult'>> =>
      unwrap(api.POST('/api/v1/signals/{id}/reaction', { params: { path: { id } }, body: { emoji } })),
    update: (qc, result) => patchSignal(qc, result.signalId, (s) => ({ ...s, reactions: result.reactions })),
    affects: [],
  });
