import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiError, type Schema } from '../../api/client';

/** Query options and mutation hooks for sources (/api/v1/sources/...). */

export type Source = Schema<'SourceView'>;
export type SourcePreview = Schema<'SourcePreview'>;
export type CadenceOverview = Schema<'CadenceOverview'>;
export type QuietnessReport = Schema<'QuietnessReport'>;
export type QuietSource = Schema<'QuietSource'>;
export type ScheduledPauseRow = Schema<'ScheduledPauseRow'>;
export type BulkRenameResult = Schema<'BulkRenameResult'>;
export type PollOutcome = Schema<'PollOutcome'>;

/** The list is capped by the API at 200; a desk with more sources shows the newest 200. */
export const SOURCE_LIST_LIMIT = 200;
/** Poll times and statuses move on their own (the desk polls in the background). */
const REFRESH_MS = 30_000;

export const sourceKeys = {
  all: ['sources'] as const,
  list: () => [...sourceKeys.all, 'list'] as const,
  cadence: () => [...sourceKeys.all, 'cadence-overview'] as const,
  quietness: () => [...sourceKeys.all, 'quietness'] as const,
  scheduledPaused: () => [...sourceKeys.all, 'scheduled-paused'] as const,
};

/** Signals are cached under this key by the Signals feature; polls and deletes change what it shows. */
const SIGNALS_KEY = ['signals'] as const;

export const sourcesQuery = () =>
  queryOptions({
    queryKey: sourceKeys.list(),
    queryFn: () => unwrap(api.GET('/api/v1/sources', { params: { query: { limit: SOURCE_LIST_LIMIT } } })),
    refetchInterval: REFRESH_MS,
  });

export const cadenceOverviewQuery = () =>
  queryOptions({
    queryKey: sourceKeys.cadence(),
    queryFn: () => unwrap(api.GET('/api/v1/sources/cadence-overview')),
    refetchInterval: REFRESH_MS,
  });

export const quietnessQuery = () =>
  queryOptions({
    queryKey: sourceKeys.quietness(),
    queryFn: () => unwrap(api.GET('/api/v1/sources/quietness')),
    refetchInterval: REFRESH_MS,
  });

export const scheduledPausedQuery = () =>
  queryOptions({
    queryKey: sourceKeys.scheduledPaused(),
    queryFn: () => unwrap(api.GET('/api/v1/sources/scheduled-paused')),
    refetchInterval: REFRESH_MS,
  });

/** A change to sources: afterwards every source view is refetched (and signals, when `signals` says so). */
function useSourceMutation<Vars, Data>(send: (vars: Vars) => Promise<Data>, options: { signals?: boolean } = {}) {
  const qc = useQueryClient();
  return useMutation<Data, ApiError, Vars>({
    mutationFn: send,
    onSuccess: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: sourceKeys.all }),
        options.signals ? qc.invalidateQueries({ queryKey: SIGNALS_KEY }) : Promise.resolve(),
      ]);
    },
  });
}

/** Not a change: fetches and parses the feed without saving anything. */
export const usePreviewSource = () =>
  useMutation<SourcePreview, ApiError, Schema<'PreviewBody'>>({
    mutationFn: (body) => unwrap(api.POST('/api/v1/sources/preview', { body })),
  });

/** A file source is imported at once, so its signals change too. */
export const useCreateSource = () =>
  useSourceMutation((body: Schema<'CreateSourceBody'>) => unwrap(api.POST('/api/v1/sources', { body })), { signals: true });

export const useUpdateSource = () =>
  useSourceMutation(({ id, body }: { id: string; body: Schema<'SourcePatchBody'> }) => unwrap(api.PATCH('/api/v1/sources/{id}', { params: { path: { id } }, body })));

export const useSetKeywords = () =>
  useSourceMutation(({ id, body }: { id: string; body: Schema<'KeywordsBody'> }) =>
    unwrap(api.PUT('/api/v1/sources/{id}/keywords', { params: { path: { id } }, body })),
  );

export const useSetSourcePause = () =>
  useSourceMutation(({ id, pausedUntilAt }: { id: string; pausedUntilAt: string | null }) =>
    unwrap(api.PATCH('/api/v1/sources/{sourceId}/pause-until', { params: { path: { sourceId: id } }, body: { pausedUntilAt } })),
  );

export const usePollNow = () =>
  useSourceMutation((id: string) => unwrap(api.POST('/api/v1/sources/{id}/poll', { params: { path: { id } } })), { signals: true });

export const useImportFile = () =>
  useSourceMutation((id: string) => unwrap(api.POST('/api/v1/sources/{id}/import', { params: { path: { id } } })), { signals: true });

/** Pause, resume or delete; deleting keeps the signals but they lose their source. */
export const useBulkSources = () =>
  useSourceMutation((body: Schema<'BulkBody'>) => unwrap(api.POST('/api/v1/sources/bulk', { body })), { signals: true });

export const useBulkCadence = () => useSourceMutation((body: Schema<'BulkCadenceBody'>) => unwrap(api.POST('/api/v1/sources/bulk-cadence', { body })));

/** Rename with `preview: true` changes nothing, so it refreshes nothing. */
export const useBulkRename = () => {
  const qc = useQueryClient();
  return useMutation<BulkRenameResult, ApiError, Schema<'BulkRenameBody'>>({
    mutationFn: (body) => unwrap(api.POST('/api/v1/sources/bulk-rename', { body })),
    onSuccess: async (result) => {
      if (!result.preview) await Promise.all([qc.invalidateQueries({ queryKey: sourceKeys.all }), qc.invalidateQueries({ queryKey: SIGNALS_KEY })]);
    },
  });
};

/** Ack mutes a quiet feed's warning for 7 days; unack revokes it. One id uses the single route, more the bulk one. */
export const useQuietnessAck = () =>
  useSourceMutation(async ({ sourceIds, ack }: { sourceIds: string[]; ack: boolean }): Promise<unknown> => {
    if (sourceIds.length === 1) {
      const params = { path: { sourceId: sourceIds[0] } };
      return ack
        ? unwrap(api.POST('/api/v1/sources/{sourceId}/quietness-ack', { params }))
        : unwrap(api.POST('/api/v1/sources/{sourceId}/quietness-unack', { params }));
    }
    return ack
      ? unwrap(api.POST('/api/v1/sources/quietness-ack/bulk', { body: { sourceIds } }))
      : unwrap(api.POST('/api/v1/sources/quietness-unack/bulk', { body: { sourceIds } }));
  });
