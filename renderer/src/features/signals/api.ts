import { queryOptions, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { cursorList, withCursor, type CursorPage } from '../../api/cursor-list';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';
import { pollWhenStreamDown } from '../live/live-store';

/** Query options and mutation hooks for signals (/api/v1/signals/...). */

export type Signal = Schema<'Signal'>;
export type SignalList = Schema<'SignalList'>;
export type SignalKind = Schema<'SignalKind'>;
export type SignalPriority = Schema<'SignalPriority'>;
export type ReactionEmoji = Schema<'ReactionEmoji'>;


/**
 * Polled feed items and webhook pushes arrive on their own: the event stream refreshes the list as
 * each arrives; while the stream is down, it polls this often.
 */
export const SIGNALS_REFRESH_MS = 15_000;
const refresh = pollWhenStreamDown(SIGNALS_REFRESH_MS);

export interface SignalFilter {
  /** Empty for every source. */
  sourceId: string;
}

type SignalPage = SignalList & CursorPage;

/** Signals, newest first, a page (the API's default size) at a time. */
export const signalsList = (f: SignalFilter) =>
  cursorList({
    queryKey: queryKeys.signals.list({ ...f }),
    fetchPage: (cursor): Promise<SignalPage> =>
      unwrap(api.GET('/api/v1/signals', { params: { query: withCursor({ ...(f.sourceId ? { sourceId: f.sourceId } : {}) }, cursor) } })),
    items: (page) => page.signals,
    refetchInterval: refresh,
    keepPrevious: true,
  });

/** One signal (what a search hit opens: /signals?signal=<id>); refreshed with the list. */
export const signalQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.signals.detail(id),
    queryFn: (): Promise<Signal> => unwrap(api.GET('/api/v1/signals/{id}', { params: { path: { id } } })),
    refetchInterval: refresh,
  });

/** Applies a change to one signal in every loaded page of every cached list, so the answer shows at once. */
function patchSignal(qc: QueryClient, id: string, patch: (s: Signal) => Signal) {
  qc.setQueriesData<InfiniteData<SignalPage>>({ queryKey: queryKeys.signals.lists }, (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, signals: page.signals.map((s) => (s.id === id ? patch(s) : s)) })) } : data,
  );
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
