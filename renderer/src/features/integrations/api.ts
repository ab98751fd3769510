import { queryOptions } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';
import { useAuth } from '../../lib/auth';

/** The inbound webhook and its relay (/api/v1/integrations/...). Bearer-only: the answers carry the ingest token. */

export type InboundIntegrations = Schema<'InboundIntegrations'>;
export type RelayStatus = Schema<'RelayStatus'>;

/**
 * The relay connects, drops and delivers on its own, with no event for it: the section polls every
 * 10 s, and every second while the relay is connecting (a channel just saved shows Connected at once).
 */
export const RELAY_IDLE_POLL_MS = 10_000;
export const RELAY_CONNECTING_POLL_MS = 1_000;
export const inboundRefresh = (relay: RelayStatus | undefined): number => (relay?.state === 'connecting' ? RELAY_CONNECTING_POLL_MS : RELAY_IDLE_POLL_MS);

export const inboundQuery = () =>
  queryOptions({
    queryKey: queryKeys.integrations.inbound,
    queryFn: () => unwrap(api.GET('/api/v1/integrations/inbound')),
    refetchInterval: (query) => inboundRefresh(query.state.data?.relay),
  });

export const useSetRelay = () =>
  useDeskMutation({
    mutationFn: (body: Schema<'RelayUrlBody'>): Promise<RelayStatus> => unwrap(api.PUT('/api/v1/integrations/relay', { body })),
    update: (qc, relay) =>
      qc.setQueryData(inboundQuery().queryKey, (cur) => (cur ? { ...cur, relay, inboundWebhook: { ...cur.inboundWebhook, relayedUrl: relay.channelUrl } } : cur)),
    affects: [queryKeys.integrations.all],
  });

export type RotatedToken = Schema<'RotatedToken'>;

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
