import { queryOptions } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { cursorList, withCursor, type CursorPage } from '../../api/cursor-list';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';
import type { ReactionEmoji } from '../../components/ReactionBar';

/** Query options and mutation hooks for outputs (/api/v1/artifacts/...): the list, one output, its sources, versions and reactions. */

export type Artifact = Schema<'Artifact'>;
/** A list row without its queue-only field (an output read alone has no reviewOwnerCapacity). */
export type ArtifactSummary = Omit<Schema<'ReviewQueueRow'>, 'reviewOwnerCapacity'>;
export type ArtifactStatus = Schema<'ArtifactStatus'>;
export type ArtifactSources = Schema<'ArtifactSources'>;
export type ArtifactVersions = Schema<'ArtifactVersions'>;

type ArtifactPage = Schema<'ArtifactList'> & CursorPage;

/** Outputs, newest first; `status` null for every status. */
export const outputsList = (status: ArtifactStatus) =>
  cursorList({
    queryKey: queryKeys.artifacts.list({ status }),
    fetchPage: (cursor): Promise<ArtifactPage> => unwrap(api.GET('/api/v1/artifacts', { params: { query: withCursor({ status }, cursor) } })),
    items: (page) => page.artifacts,
    keepPrevious: true,
  });

export const outputQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.artifacts.detail(id),
    queryFn: () => unwrap(api.GET('/api/v1/artifacts/{id}', { params: { path: { id } } })),
  });

export const outputSourcesQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.artifacts.sources(id),
    queryFn: () => unwrap(api.GET('/api/v1/artifacts/{id}/sources', { params: { path: { id } } })),
  });

export const outputVersionsQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.artifacts.versions(id),
    queryFn: () => unwrap(api.GET('/api/v1/artifacts/{id}/versions', { params: { path: { id } } })),
  });

/** Toggles the owner's reaction; the answer's reactions go into the output at once. */
export const useReactToOutput = (id: string) =>
  useDeskMutation({
    mutationFn: (emoji: ReactionEmoji) => unwrap(api.POST('/api/v1/artifacts/{id}/reaction', { params: { path: { id } }, body: { emoji } })),
    update: (qc, result) => qc.setQueryData<Artifact>(queryKeys.artifacts.detail(id), (prev) => (prev ? { ...prev, reactions: result.reactions } : prev)),
    affects: [queryKeys.artifacts.detail(id), queryKeys.artifacts.lists],
  });
