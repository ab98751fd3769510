import { queryOptions } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { cursorList, withCursor, type CursorPage } from '../../api/cursor-list';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';
import { sinceLastEvent } from '../live/live-store';

/** Outbound webhooks (/api/v1/outbound/...): subscriptions, test sends and the delivery log. */

export type OutboundSubscription = Schema<'OutboundSubscription'>;
export type CreatedOutboundSubscription = Schema<'CreatedOutboundSubscription'>;
export type OutboundEventInfo = Schema<'OutboundEventInfo'>;
export type DeliveryAttempt = Schema<'DeliveryAttempt'>;
export type OutboundBulkAction = Schema<'OutboundBulkAction'>;

/**
 * Deliveries make no events of their own, so the Webhooks section polls: every 2 s while one may be
 * on its way (one waiting, or an event heard in the last 10 s: the desk fans an event out to its
 * subscriptions a moment after it happens), else every 15 s.
 */
export const OUTBOUND_BUSY_MS = 2_000;
export const OUTBOUND_IDLE_MS = 15_000;
export const AFTER_EVENT_MS = 10_000;
export const outboundRefresh = (subscriptions: readonly OutboundSubscription[] | undefined): number =>
  (subscriptions ?? []).some((s) => s.pendingDeliveries > 0) || sinceLastEvent() < AFTER_EVENT_MS ? OUTBOUND_BUSY_MS : OUTBOUND_IDLE_MS;

export const subscriptionsQuery = () =>
  queryOptions({
    queryKey: queryKeys.outbound.subscriptions,
    queryFn: () => unwrap(api.GET('/api/v1/outbound/subscriptions')),
    // Deliveries change last outcomes and pending counts on their own.
    refetchInterval: (query) => outboundRefresh(query.state.data?.subscriptions),
  });

export interface DeliveryFilter {
  subscriptionId: string;
  outcome: '' | 'succeeded' | 'failed';
}

/** The delivery log, newest attempts first, 20 at a time; refreshed as often as `subscriptions` say (outboundRefresh). */
export const deliveryList = (f: DeliveryFilter, subscriptions: readonly OutboundSubscription[]) =>
  cursorList({
    queryKey: queryKeys.outbound.deliveries({ ...f }),
    fetchPage: (cursor): Promise<Schema<'DeliveryAttemptList'> & CursorPage> =>
      unwrap(
        api.GET('/api/v1/outbound/deliveries', {
          params: { query: withCursor({ ...(f.subscriptionId ? { subscriptionId: f.subscriptionId } : {}), ...(f.outcome ? { outcome: f.outcome } : {}) }, cursor) },
        }),
      ),
    items: (page) => page.deliveries,
    refetchInterval: () => outboundRefresh(subscriptions),
    keepPrevious: true,
  });

/** Creates a subscription: the answer is the only time its signing secret is shown. */
export const useCreateSubscription = () =>
  useDeskMutation({
    mutationFn: (body: Schema<'CreateOutboundSubscriptionBody'>): Promise<CreatedOutboundSubscription> => unwrap(api.POST('/api/v1/outbound/subscriptions', { body })),
    affects: [queryKeys.outbound.subscriptions],
  });

export const usePatchSubscription = () =>
  useDeskMutation({
    mutationFn: ({ id, ...body }: { id: string } & Schema<'PatchOutboundSubscriptionBody'>): Promise<OutboundSubscription> =>
      unwrap(api.PATCH('/api/v1/outbound/subscriptions/{id}', { params: { path: { id } }, body })),
    affects: [queryKeys.outbound.subscriptions],
  });

export const useDeleteSubscription = () =>
  useDeskMutation({
    mutationFn: (id: string): Promise<OutboundSubscription> => unwrap(api.DELETE('/api/v1/outbound/subscriptions/{id}', { params: { path: { id } } })),
    affects: [queryKeys.outbound.all],
  });

export const useBulkSubscriptions = () =>
  useDeskMutation({
    mutationFn: (body: Schema<'OutboundBulkBody'>): Promise<Schema<'OutboundBulkResult'>> => unwrap(api.POST('/api/v1/outbound/subscriptions/bulk', { body })),
    affects: [queryKeys.outbound.all],
  });

/** Sends an artifact.test event now; the answer is the attempt (a failed one is an answer too). */
export const useTestSubscription = () =>
  useDeskMutation({
    mutationFn: (id: string): Promise<DeliveryAttempt> => unwrap(api.POST('/api/v1/outbound/subscriptions/{id}/test', { params: { path: { id } } })),
    affects: [queryKeys.outbound.all],
    logged: false,
  });

/** Re-posts a delivery's stored payload (a manual attempt). */
export const useRetryDelivery = () =>
  useDeskMutation({
    mutationFn: (id: string): Promise<DeliveryAttempt> => unwrap(api.POST('/api/v1/outbound/deliveries/{id}/retry', { params: { path: { id } } })),
    affects: [queryKeys.outbound.all],
    logged: false,
  });

/** The vocabulary grouped by area (task, artifact, source, ...), areas in first-seen order. */
export function groupByArea(events: readonly OutboundEventInfo[]): [string, OutboundEventInfo[]][] {
  const groups = new Map<string, OutboundEventInfo[]>();
  for (const e of events) groups.set(e.area, [...(groups.get(e.area) ?? []), e]);
  return [...groups];
}

/** One line for an attempt's outcome: "HTTP 204 in 35 ms", "HTTP 500", "ECONNREFUSED ...". */
export function attemptSummary(a: Pick<DeliveryAttempt, 'outcome' | 'statusCode' | 'error' | 'durationMs'>): string {
  const status = a.statusCode !== null ? `HTTP ${a.statusCode}` : (a.error ?? 'no answer');
  return `${a.outcome === 'succeeded' ? 'Delivered' : 'Failed'}: ${a.outcome === 'failed' && a.error && a.statusCode !== null ? a.error : status} in ${a.durationMs} ms`;
}
