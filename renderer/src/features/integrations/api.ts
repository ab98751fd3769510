import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type ApiError, type Schema } from '../../api/client';

/** The inbound webhook and its relay (/api/v1/integrations/...). Bearer-only: the answers carry the ingest token. */

export type InboundIntegrations = Schema<'InboundIntegrations'>;
export type RelayStatus = Schema<'RelayStatus'>;

export const integrationKeys = {
  all: ['integrations'] as const,
  inbound: () => [...integrationKeys.all, 'inbound'] as const,
};

export const inboundQuery = () =>
  queryOptions({
    queryKey: integrationKeys.inbound(),
    queryFn: () => unwrap(api.GET('/api/v1/integrations/inbound')),
    // The relay connects, drops and delivers on its own.
    refetchInterval: 10_000,
  });

export const useSetRelay = () => {
  const qc = useQueryClient();
  return useMutation<RelayStatus, ApiError, Schema<'RelayUrlBody'>>({
    mutationFn: (body) => unwrap(api.PUT('/api/v1/integrations/relay', { body })),
    onSuccess: async (relay) => {
      qc.setQueryData(inboundQuery().queryKey, (cur) => (cur ? { ...cur, relay, inboundWebhook: { ...cur.inboundWebhook, relayedUrl: relay.channelUrl } } : cur));
      await qc.invalidateQueries({ queryKey: integrationKeys.all });
    },
  });
};
