import { queryOptions, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { cursorList, withCursor, type CursorPage } from '../../api/cursor-list';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';
import { pollWhenStreamDown } from '../live/live-store';

/** Query options and mutation hooks for memory (/api/v1/memory/...). */

export type MemoryEntry = Schema<'MemoryEntry'>;
export type MemoryKind = Schema<'MemoryKind'>;
export type StaleMemoryEntry = Schema<'StaleMemoryEntry'>;
export type TopRetrievedEntry = Schema<'TopRetrievedEntry'>;
export type RetrievalPoint = Schema<'RetrievalPoint'>;
export type CostPoint = Schema<'CostPoint'>;
export type CreateMemoryBody = Schema<'CreateMemoryBody'>;
export type MemoryBulkBody = Schema<'MemoryBulkBody'>;
export type ReactionEmoji = Schema<'ReactionEmoji'>;

/** Cycles update the counters on their own schedule: their events refresh the views; while the event stream is down, a poll this often. */
export const MEMORY_REFRESH_MS = 30_000;
const refresh = pollWhenStreamDown(MEMORY_REFRESH_MS);

export interface MemoryFilter {
  /** Empty for every kind. */
  kind: MemoryKind | '';
  /** Only entries carrying this tag; empty for all. */
  tag: string;
  /** Keywords; empty for none. */
  q: string;
}

type MemoryPage = Schema<'MemoryList'> & CursorPage;

/** Live entries, newest first, a page (the API's default size) at a time. */
export const memoryList = (f: MemoryFilter) =>
  cursorList({
    queryKey: queryKeys.memory.list({ ...f }),
    fetchPage: (cursor): Promise<MemoryPage> =>
      unwrap(
        api.GET('/api/v1/memory', {
          params: { query: withCursor({ ...(f.kind ? { kind: f.kind } : {}), ...(f.tag ? { tag: f.tag } : {}), ...(f.q.trim() ? { q: f.q.trim() } : {}) }, cursor) },
        }),
      ),
    items: (page) => page.memory,
    refetchInterval: refresh,
    keepPrevious: true,
  });

export const memoryQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.memory.detail(id),
    queryFn: () => unwrap(api.GET('/api/v1/memory/{id}', { params: { path: { id } } })),
  });

export interface StaleFilter {
  thresholdDays: number;
  includeNeverRetrieved: boolean;
}

export const staleMemoryQuery = (f: StaleFilter) =>
  queryOptions({
    queryKey: queryKeys.memory.stale({ ...f }),
    queryFn: () => unwrap(api.GET('/api/v1/memory/stale', { params: { query: { thresholdDays: f.thresholdDays, includeNeverRetrieved: f.includeNeverRetrieved } } })),
    placeholderData: (prev) => prev,
  });

export const topRetrievedQuery = (days: number) =>
  queryOptions({
    queryKey: queryKeys.memory.topRetrieved(days),
    queryFn: () => unwrap(api.GET('/api/v1/memory/top-retrieved', { params: { query: { days } } })),
    refetchInterval: refresh,
  });

export const topCostQuery = () =>
  queryOptions({
    queryKey: queryKeys.memory.topCost,
    queryFn: () => unwrap(api.GET('/api/v1/memory/top-cost')),
    refetchInterval: refresh,
  });

export const retrievalTrajectoryQuery = (id: string, days: number) =>
  queryOptions({
    queryKey: queryKeys.memory.retrievalTrajectory(id, days),
    queryFn: () => unwrap(api.GET('/api/v1/memory/{id}/retrieval-trajectory', { params: { path: { id }, query: { days } } })),
  });

export const costTrajectoryQuery = (id: string, days: number) =>
  queryOptions({
    queryKey: queryKeys.memory.costTrajectory(id, days),
    queryFn: () => unwrap(api.GET('/api/v1/memory/{id}/cost-trajectory', { params: { path: { id }, query: { days } } })),
  });

/** Applies a change to one entry in every loaded page of every cached list and its detail, so the answer shows at once. */
function patchEntry(qc: QueryClient, id: string, patch: (m: MemoryEntry) => MemoryEntry) {
  qc.setQueriesData<InfiniteData<MemoryPage>>({ queryKey: queryKeys.memory.lists }, (data) =>
    data ? { ...data, pages: data.pages.map((page) => ({ ...page, memory: page.memory.map((m) => (m.id === id ? patch(m) : m)) })) } : data,
  );
  qc.setQueryData<MemoryEntry>(queryKeys.memory.detail(id), (m) => (m ? patch(m) : m));
}

export const useCreateMemory = () =>
  useDeskMutation({
    mutationFn: (body: CreateMemoryBody): Promise<MemoryEntry> => unwrap(api.POST('/api/v1/memory', { body })),
    affects: [queryKeys.memory.all],
  });

export const useBulkMemory = () =>
  useDeskMutation({
    mutationFn: (body: MemoryBulkBody): Promise<Schema<'MemoryBulkResult'>> => unwrap(api.POST('/api/v1/memory/bulk-update', { body })),
    update: (qc, result, body) => {
      if (body.action === 'pin') for (const id of result.changed) patchEntry(qc, id, (m) => ({ ...m, pinned: body.pinned ?? true }));
    },
    affects: [queryKeys.memory.all],
  });

export const useDeleteMemory = () =>
  useDeskMutation({
    mutationFn: (id: string): Promise<Schema<'DeletedMemory'>> => unwrap(api.DELETE('/api/v1/memory/{id}', { params: { path: { id } }, body: {} })),
    affects: [queryKeys.memory.all],
  });

/** Toggles one reaction; the answer carries the entry's reactions after the toggle, so nothing is refetched. */
export const useReactToMemory = () =>
  useDeskMutation({
    mutationFn: ({ id, emoji }: { id: string; emoji: ReactionEmoji }): Promise<Schema<'MemoryReactionResult'>> =>
      unwrap(api.POST('/api/v1/memory/{id}/reaction', { params: { path: { id } }, body: { emoji } })),
    update: (qc, result) => patchEntry(qc, result.memoryId, (m) => ({ ...m, reactions: result.reactions })),
    affects: [],
  });
