import { queryOptions } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';

export type IngestToken = Schema<'IngestToken'>;
export type CreatedIngestUrl = Schema<'CreatedIngestUrl'>;

/** A source's scoped ingest URLs (never their tokens). */
export const ingestTokensQuery = (sourceId: string) =>
  queryOptions({
    queryKey: queryKeys.integrations.ingestTokens(sourceId),
    queryFn: () => unwrap(api.GET('/api/v1/sources/{id}/ingest-tokens', { params: { path: { id: sourceId } } })),
  });

/** A new scoped ingest URL: the answer is the only time its token and URL are shown. */
export const useCreateIngestToken = () =>
  useDeskMutation({
    mutationFn: ({ sourceId, label }: { sourceId: string; label?: string }): Promise<CreatedIngestUrl> =>
      unwrap(api.POST('/api/v1/sources/{id}/ingest-tokens', { params: { path: { id: sourceId } }, body: label ? { label } : {} })),
    affects: (_data, vars) => [queryKeys.integrations.ingestTokens(vars.sourceId)],
  });

export const useRevokeIngestToken = () =>
  useDeskMutation({
    mutationFn: ({ tokenId }: { tokenId: string; sourceId: string }): Promise<IngestToken> =>
      unwrap(api.DELETE('/api/v1/ingest-tokens/{tokenId}', { params: { path: { tokenId } } })),
    affects: (_data, vars) => [queryKeys.integrations.ingestTokens(vars.sourceId)],
  });
