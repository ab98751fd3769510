import { queryOptions, type QueryKey } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { cursorList, fetchAllPages, withCursor, type CursorPage } from '../../api/cursor-list';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';
import { pollWhenStreamDown } from '../live/live-store';

/** Query options and mutation hooks for sources (/api/v1/sources/...). */

export type Source = Schema<'SourceView'>;
export type SourcePreview = Schema<'SourcePreview'>;
export type CadenceOverview = Schema<'CadenceOverview'>;
export type QuietnessReport = Schema<'QuietnessReport'>;
export type QuietSource = Schema<'QuietSource'>;
export type ScheduledPauseRow = Schema<'ScheduledPauseRow'>;
export type BulkRenameResult = Schema<'BulkRenameResult'>;
export type PollOutcome = Schema<'PollOutcome'>;

/** Poll times and statuses move on their own (the desk polls in the background): events refresh them, and this poll while the event stream is down. */
const REFRESH_MS = pollWhenStreamDown(30_000);

type SourcePage = Schema<'SourceList'> & CursorPage;

const fetchSourcePage = (cursor: string | undefined): Promise<SourcePage> => unwrap(api.GET('/api/v1/sources', { params: { query: withCursor({}, cursor) } }));

/** Sources, newest first, a page (the API's default size) at a time. */
export const sourcesList = () => cursorList({ queryKey: queryKeys.sources.list(), fetchPage: fetchSourcePage, items: (page) => page.sources, refetchInterval: REFRESH_MS });

/** Every source, all pages followed, for pickers (the Signals page's source filter). */
export const sourceOptionsQuery = () =>
  queryOptions({
    queryKey: queryKeys.sources.options,
    queryFn: () => fetchAllPages(fetchSourcePage, (page) => page.sources),
    refetchInterval: REFRESH_MS,
  });

/** One source by id (a deep link to a source that is not on the loaded page of the list). */
export const sourceQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.sources.detail(id),
    queryFn: () => unwrap(api.GET('/api/v1/sources/{id}', { params: { path: { id } } })),
    refetchInterval: REFRESH_MS,
  });

export const cadenceOverviewQuery = () =>
  queryOptions({
    queryKey: queryKeys.sources.cadence,
    queryFn: () => unwrap(api.GET('/api/v1/sources/cadence-overview')),
    refetchInterval: REFRESH_MS,
  });

export const quietnessQuery = () =>
  queryOptions({
    queryKey: queryKeys.sources.quietness,
    queryFn: () => unwrap(api.GET('/api/v1/sources/quietness')),
    refetchInterval: REFRESH_MS,
  });

export const scheduledPausedQuery = () =>
  queryOptions({
    queryKey: queryKeys.sources.scheduledPaused,
    queryFn: () => unwrap(api.GET('/api/v1/sources/scheduled-paused')),
    refetchInterval: REFRESH_MS,
  });

/** Every source view; changes that bring in or drop signals (polls, imports, deletes) affect the signals too. */
const SOURCES: readonly QueryKey[] = [queryKeys.sources.all];
const SOURCES_AND_SIGNALS: readonly QueryKey[] = [queryKeys.sources.all, queryKeys.signals.all];

/** Not a change: fetches and parses the feed without saving anything. */
export const usePreviewSource = () =>
  useDeskMutation({
    mutationFn: (body: Schema<'PreviewBody'>): Promise<SourcePreview> => unwrap(api.POST('/api/v1/sources/preview', { body })),
    affects: [],
    logged: false,
  });

/** A file source is imported at once, so its signals change too. */
export const useCreateSource = () =>
  useDeskMutation({ mutationFn: (body: Schema<'CreateSourceBody'>) => unwrap(api.POST('/api/v1/sources', { body })), affects: SOURCES_AND_SIGNALS });

export const useUpdateSource = () =>
  useDeskMutation({
    mutationFn: ({ id, body }: { id: string; body: Schema<'SourcePatchBody'> }) => unwrap(api.PATCH('/api/v1/sources/{id}', { params: { path: { id } }, body })),
    affects: SOURCES,
  });

export const useSetKeywords = () =>
  useDeskMutation({
    mutationFn: ({ id, body }: { id: string; body: Schema<'KeywordsBody'> }) => unwrap(api.PUT('/api/v1/sources/{id}/keywords', { params: { path: { id } }, body })),
    affects: SOURCES,
  });

export const useSetSourcePause = () =>
  useDeskMutation({
    mutationFn: ({ id, pausedUntilAt }: { id: string; pausedUntilAt: string | null }) =>
      unwrap(api.PATCH('/api/v1/sources/{sourceId}/pause-until', { params: { path: { sourceId: id } }, body: { pausedUntilAt } })),
    affects: SOURCES,
  });

export const usePollNow = () =>
  useDeskMutation({ mutationFn: (id: string) => unwrap(api.POST('/api/v1/sources/{id}/poll', { params: { path: { id } } })), affects: SOURCES_AND_SIGNALS });

export const useImportFile = () =>
  useDeskMutation({ mutationFn: (id: string) => unwrap(api.POST('/api/v1/sources/{id}/import', { params: { path: { id } } })), affects: SOURCES_AND_SIGNALS });

/** Pause, resume or delete; deleting keeps the signals but they lose their source. */
export const useBulkSources = () =>
  useDeskMutation({ mutationFn: (body: Schema<'BulkBody'>) => unwrap(api.POST('/api/v1/sources/bulk', { body })), affects: SOURCES_AND_SIGNALS });

export const useBulkCadence = () =>
  useDeskMutation({ mutationFn: (body: Schema<'BulkCadenceBody'>) => unwrap(api.POST('/api/v1/sources/bulk-cadence', { body })), affects: SOURCES });

/** Rename with `preview: true` changes nothing, so it refreshes nothing. */
export const useBulkRename = () =>
  useDeskMutation({
    mutationFn: (body: Schema<'BulkRenameBody'>): Promise<BulkRenameResult> => unwrap(api.POST('/api/v1/sources/bulk-rename', { body })),
    affects: (result) => (result.preview ? [] : SOURCES_AND_SIGNALS),
    logged: (result) => !result.preview,
  });

/** Ack mutes a quiet feed's warning for 7 days; unack revokes it. One id uses the single route, more the bulk one. */
export const useQuietnessAck = () =>
  useDeskMutation({
    mutationFn: async ({ sourceIds, ack }: { sourceIds: string[]; ack: boolean }): Promise<unknown> => {
      if (sourceIds.length === 1) {
        const params = { path: { sourceId: sourceIds[0] } };
        return ack
          ? unwrap(api.POST('/api/v1/sources/{sourceId}/quietness-ack', { params }))
          : unwrap(api.POST('/api/v1/sources/{sourceId}/quietness-unack', { params }));
      }
      return ack
        ? unwrap(api.POST('/api/v1/sources/quietness-ack/bulk', { body: { sourceIds } }))
        : unwrap(api.POST('/api/v1/sources/quietness-unack/bulk', { body: { sourceIds } }));
    },
    affects: SOURCES,
  });
