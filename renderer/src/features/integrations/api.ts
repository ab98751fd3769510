import { queryOptions } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';
import { useAuth } from '../../lib/auth';

/** The inbound webhook and its relay (/api/v1/integrations/...). Bearer-only: the answers carry the ingest token. */

export type InboundIntegrations = Schema<'InboundIntegrations'>;
export type RelayStatus = Schema<'RelayStatus'>;

export const inboundQuery = () =>
  queryOptions({
    queryKey: queryKeys.integrations.inbound,
    queryFn: () => unwrap(api.GET('/api/v1/integrations/inbound')),
    // The relay connects, drops and delivers on its own.
    refetchInterval: 10_000,
  });

export const useSetRelay = () =>
  useDeskMutation({
    mutationFn: (body: Schema<'RelayUrlBody'>): Promise<RelayStatus> => unwrap(api.PUT('/api/v1/integrations/relay', { body })),
    update: (qc, relay) =>
      qc.setQueryData(inboundQuery().queryKey, (cur) => (cur ? { ...cur, relay, inboundWebhook: { ...cur.inboundWebhook, relayedUrl: relay.channelUrl } } : cur)),
    affects: [queryKeys.integrations.all],
  });

export type IngestToken = Schema<'IngestToken'>;
export type CreatedIngestUrl = Schema<'CreatedIngestUrl'>;
export type RotatedToken = Schema<'RotatedToken'>;

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

/**
 * Rotates the workspace token. The old one is refused from the moment the server answers, so the
 * new one goes into the auth store before anything is refetched: the UI stays signed in.
 */
export const useRotateToken = () =>
  useDeskMutation({
    mutationFn: (): Promise<RotatedToken> => unwrap(api.POST('/api/v1/workspace/token/rotate')),
    update: (qc, rotated) => {
      useAuth.getState().replaceToken(rotated.token);
      qc.setQueryData(inboundQuery().queryKey, (cur) => (cur ? { ...cur, inboundWebhook: { ...cur.inboundWebhook, localUrl: rotated.webhookUrl } } : cur));
    },
    affects: [queryKeys.integrations.inbound],
  });
