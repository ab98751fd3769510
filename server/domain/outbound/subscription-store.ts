import type { Db } from '../../../db/connection';
import type { Insertable, Updateable } from 'kysely';
import type { OutboundSubscriptionTable } from '../../../db/schema';
import type { Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import type { Actor } from '../activity/activity';
import { recordActivity } from '../activity/activity';
import type { ActivityKind } from '../catalog/activity-kinds';
import type { EventName, OutboundSubscriptionData } from '../catalog/events';
import { emit } from '../events/outbox';
import { urlOrigin, type AttemptOutcome, type DisabledReason, type SubscriptionStatus } from './rules';

/** A subscription as the API shows it: never the secret, only its hint. */
export interface OutboundSubscription {
  id: string;
  /** The receiver. */
  url: string;
  label: string | null;
  events: EventName[];
  /** False while paused by the operator or disabled by Desk; PATCH { active: true } resumes either. */
  active: boolean;
  /** active, paused (by the operator) or disabled (by Desk: see disabledReason). */
  status: SubscriptionStatus;
  /** gone: the receiver answered 410; failing: every scheduled attempt failed for 5 days. null unless disabled. */
  disabledReason: DisabledReason | null;
  /** @format date-time */
  disabledAt: string | null;
  /** The first failed scheduled attempt since the last success; null when not failing. @format date-time */
  failingSince: string | null;
  /** `whsec_…` and the last 4 characters: the secret itself is shown once, when created. */
  secretHint: string;
  /** Deliveries waiting for an attempt (a retry, or held while paused). @isInt */
  pendingDeliveries: number;
  /** The newest attempt (any trigger); null before the first. */
  lastAttempt: LastAttempt | null;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}

export interface LastAttempt {
  event: string;
  outcome: AttemptOutcome;
  /** null when no HTTP answer came. @isInt */
  statusCode: number | null;
  /** @format date-time */
  at: string;
}

export type SubscriptionRow = OutboundSubscriptionTable;

export const statusOf = (row: Pick<SubscriptionRow, 'active' | 'disabledReason'>): SubscriptionStatus =>
  row.disabledReason !== null ? 'disabled' : row.active ? 'active' : 'paused';

export async function eventsOf(db: Db, subscriptionId: string): Promise<EventName[]> {
  const rows = await db.selectFrom('outboundSubscriptionEvents').select('event').where('subscriptionId', '=', subscriptionId).orderBy('event').execute();
  return rows.map((r) => r.event as EventName);
}

export async function toView(db: Db, row: SubscriptionRow): Promise<OutboundSubscription> {
  const [events, pending, last] = await Promise.all([
    eventsOf(db, row.id),
    db
      .selectFrom('outboundDeliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('subscriptionId', '=', row.id)
      .where('state', '=', 'pending')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('outboundAttempts')
      .select(['event', 'outcome', 'statusCode', 'createdAt'])
      .where('subscriptionId', '=', row.id)
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),
  ]);
  return {
    id: row.id,
    url: row.url,
    label: row.label,
    events,
    active: row.active === 1,
    status: statusOf(row),
    disabledReason: row.disabledReason,
    disabledAt: row.disabledAt,
    failingSince: row.failingSince,
    secretHint: row.secretHint,
    pendingDeliveries: Number(pending.n),
    lastAttempt: last ? { event: last.event, outcome: last.outcome, statusCode: last.statusCode, at: last.createdAt } : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** What events and activity rows say of a subscription: its origin, never the path or the secret. */
export function eventData(row: Pick<SubscriptionRow, 'id' | 'label' | 'url' | 'active'>, events: readonly string[]): OutboundSubscriptionData {
  return { subscriptionId: row.id, label: row.label, origin: urlOrigin(row.url), events: [...events], active: row.active === 1 };
}

export const nameOf = (row: Pick<SubscriptionRow, 'label' | 'url'>): string => row.label ?? urlOrigin(row.url);

/** One activity row and one event for a change of a subscription, in the change's transaction. */
export async function logSubscriptionChange(
  trx: Trx,
  clock: Clock,
  actor: Actor,
  kind: Extract<ActivityKind, 'outbound.subscription_created' | 'outbound.subscription_updated' | 'outbound.subscription_deleted'>,
  row: SubscriptionRow,
  events: readonly string[],
  detail: string,
): Promise<void> {
  await recordActivity(trx, clock, { kind, detail, actor, entityType: 'outbound_subscription', entityId: row.id });
  await emit(trx, clock, kind, eventData(row, events));
}

/** A new subscription with the events it receives. */
export async function insertSubscription(trx: Trx, row: Insertable<OutboundSubscriptionTable>, events: readonly string[]): Promise<void> {
  await trx.insertInto('outboundSubscriptions').values(row).execute();
  await trx.insertInto('outboundSubscriptionEvents').values(events.map((event) => ({ subscriptionId: row.id, event }))).execute();
}

/** Sets columns of one subscription (pause, resume, the worker's failing streak and disabling). */
export async function updateSubscription(trx: Trx, id: string, change: Updateable<OutboundSubscriptionTable>): Promise<void> {
  await trx.updateTable('outboundSubscriptions').set(change).where('id', '=', id).execute();
}

export async function replaceSubscriptionEvents(trx: Trx, subscriptionId: string, events: readonly string[]): Promise<void> {
  await trx.deleteFrom('outboundSubscriptionEvents').where('subscriptionId', '=', subscriptionId).execute();
  await trx.insertInto('outboundSubscriptionEvents').values(events.map((event) => ({ subscriptionId, event }))).execute();
}

/** Deletes a subscription with its deliveries and their log (cascade). */
export async function deleteSubscription(trx: Trx, id: string): Promise<void> {
  await trx.deleteFrom('outboundSubscriptions').where('id', '=', id).execute();
}
