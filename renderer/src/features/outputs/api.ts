import { queryOptions, type InfiniteData } from '@tanstack/react-query';
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

export type QueueRow = Schema<'ReviewQueueRow'>;
export type ApprovalAttention = Schema<'ApprovalAttention'>;
export type ReviewerFilter = Schema<'ReviewerFilter'>;
export type ArtifactPage = Schema<'ArtifactList'> & CursorPage;
export type BulkAction = Schema<'BulkDecisionAction'>;
export type QueueSort = Schema<'QueueSort'>;

/** The list's filters; attention and the reviewer filters only narrow the ready queue (the API refuses them elsewhere). */
export interface OutputsFilter {
  status: ArtifactStatus;
  attention?: ApprovalAttention;
  reviewer?: ReviewerFilter;
  reviewerId?: string;
  /** Omitted: the API's default for the status. */
  sort?: QueueSort;
}

/** Outputs of one status as GET /artifacts orders them (ready: pinned then oldest wait). */
export const outputsList = (filter: OutputsFilter) =>
  cursorList({
    queryKey: queryKeys.artifacts.list({ ...filter }),
    fetchPage: (cursor): Promise<ArtifactPage> => unwrap(api.GET('/api/v1/artifacts', { params: { query: withCursor({ ...filter }, cursor) } })),
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

// A decision moves an output out of the queue and changes the desk's counts: lists, that output and stats.
export const decisionAffects = (id?: string) => [queryKeys.artifacts.lists, ...(id ? [queryKeys.artifacts.detail(id), queryKeys.artifacts.versions(id)] : [queryKeys.artifacts.all]), queryKeys.stats.all];

export type Decision = 'approve' | 'archive';

/**
 * Sends one decision (POST /artifacts/{id}/approve|archive). `keepalive` lets the request outlive the
 * page (a hold committed while the window closes).
 */
export const sendDecision = (id: string, decision: Decision, keepalive = false) =>
  decision === 'approve'
    ? unwrap(api.POST('/api/v1/artifacts/{id}/approve', { params: { path: { id } }, body: {}, keepalive }))
    : unwrap(api.POST('/api/v1/artifacts/{id}/archive', { params: { path: { id } }, body: {}, keepalive }));

/** Sends "approve all" or "archive all" (POST /artifacts/bulk). */
export const sendBulkDecision = (action: BulkAction, keepalive = false) => unwrap(api.POST('/api/v1/artifacts/bulk', { body: { action }, keepalive }));

/**
 * Saves an edited draft as a new version authored by the member (POST /artifacts/{id}/versions);
 * the edited one leaves the queue (superseded), so the lists and the chain change.
 */
export const useEditOutput = (id: string) =>
  useDeskMutation({
    mutationFn: (body: { content: string; title?: string }) => unwrap(api.POST('/api/v1/artifacts/{id}/versions', { params: { path: { id } }, body })),
    update: (qc, created) => {
      qc.setQueryData(queryKeys.artifacts.detail(created.id), created);
      // The new version takes the edited one's place in every loaded list at once (the refetch that
      // follows confirms it), so the selection and the keys never point at a row that left.
      const { content: _content, ...summary } = created;
      qc.setQueriesData<InfiniteData<ArtifactPage>>({ queryKey: queryKeys.artifacts.lists }, (data) =>
        data ? { ...data, pages: data.pages.map((p) => ({ ...p, artifacts: p.artifacts.map((r) => (r.id === id ? { ...r, ...summary } : r)) })) } : data,
      );
    },
    affects: (created) => [queryKeys.artifacts.lists, queryKeys.artifacts.detail(id), queryKeys.artifacts.versions(id), queryKeys.artifacts.versions(created.id), queryKeys.stats.all],
  });

/** Reopens a decided output: a new ready version from it (POST /artifacts/{id}/reopen); the decided one stays as it was. */
export const useReopenOutput = () =>
  useDeskMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/v1/artifacts/{id}/reopen', { params: { path: { id } }, body: {} })),
    update: (qc, created) => qc.setQueryData(queryKeys.artifacts.detail(created.id), created),
    affects: (_created, id) => [queryKeys.artifacts.lists, queryKeys.artifacts.versions(id), queryKeys.stats.all],
  });

/** The cycle that made an output (GET /runs/{id}): which engine drafted it. */
export const outputRunQuery = (runId: string) =>
  queryOptions({
    queryKey: queryKeys.runs.detail(runId),
    queryFn: () => unwrap(api.GET('/api/v1/runs/{runId}', { params: { path: { runId } } })),
    staleTime: Infinity,
  });
