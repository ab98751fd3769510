import type { Db } from '../../../db/connection';
import { inTransaction } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { notFound } from '../../core/errors';
import { newId } from '../../core/ids';
import { afterKey, pageRequest, toPage } from '../../core/lists';
import type { ArtifactTestData, EventEnvelope } from '../catalog/events';
import { pruneDeliveredEvents } from '../events/outbox';
import { insertDeliveries, pruneDeliveryLog } from './delivery-store';
import { pendingDelivery, type DeliveryWorker } from './delivery-worker';
import { ATTEMPT_OUTCOMES, DELIVERIES_LIST, RETENTION_DAYS, type AttemptOutcome, type AttemptTrigger, type DeliveryState } from './rules';
import { invalid } from '../../core/errors';

/** One row of the delivery log: one HTTP attempt of one event to one subscription. */
export interface DeliveryAttempt {
  /** The attempt's id (POST /outbound/deliveries/{id}/retry takes it, or deliveryId). */
  id: string;
  /** The delivery (one event for one subscription) this attempt belongs to. */
  deliveryId: string;
  subscriptionId: string;
  /** The subscription's label; null without one. */
  subscriptionLabel: string | null;
  event: string;
  /** The `webhook-id` header: the event id, the same on every attempt and retry (receivers dedupe on it). */
  webhookId: string;
  /** Where it was posted. */
  url: string;
  /** 1 for the first attempt of the delivery, counting scheduled and manual ones. @isInt */
  attemptNumber: number;
  /** scheduled (the worker) or manual (a test send or a retry by hand; never counts toward disabling). */
  trigger: AttemptTrigger;
  /** succeeded: a 2xx answer. */
  outcome: AttemptOutcome;
  /** The receiver's HTTP status; null when no answer came. @isInt */
  statusCode: number | null;
  /** Why it failed (status, redirect with its Location, timeout, connection error); null on success. */
  error: string | null;
  /** The first 1 KiB of the receiver's answer; null when empty. */
  responseExcerpt: string | null;
  /** @isInt */
  durationMs: number;
  /** When the worker tries again after this failed scheduled attempt; null when it does not. @format date-time */
  nextRetryAt: string | null;
  /** The delivery's state now: pending (more attempts to come), succeeded, failed (a test send) or given_up. */
  deliveryState: DeliveryState;
  /** @format date-time */
  createdAt: string;
}

export interface DeliveryAttemptList {
  deliveries: DeliveryAttempt[];
  nextCursor: string | null;
}

export interface DeliveryLogQuery {
  limit?: number;
  cursor?: string;
  subscriptionId?: string;
  outcome?: string;
}

const TEST_MESSAGE = 'Test delivery from Desk: your receiver got a signed event.';

/** The delivery log (list), test sends and retries by hand, and the retention sweep. */
export class DeliveryLog {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly worker: DeliveryWorker,
  ) {}

  /** Newest attempts first (keyset on createdAt, id); filters by subscription and outcome. */
  async list(q: DeliveryLogQuery): Promise<DeliveryAttemptList> {
    const page = pageRequest(DELIVERIES_LIST, q, ['string', 'string']);
    if (q.outcome !== undefined && !(ATTEMPT_OUTCOMES as readonly string[]).includes(q.outcome)) throw invalid('outcome', `must be one of ${ATTEMPT_OUTCOMES.join(', ')}`);
    let query = this.attempts();
    if (q.subscriptionId !== undefined) query = query.where('a.subscriptionId', '=', q.subscriptionId);
    if (q.outcome !== undefined) query = query.where('a.outcome', '=', q.outcome as AttemptOutcome);
    if (page.after) query = query.where(afterKey(['a.created_at', 'a.id'], page.after, 'desc'));
    const rows = await query.orderBy('a.createdAt', 'desc').orderBy('a.id', 'desc').limit(page.limit + 1).execute();
    const { rows: served, nextCursor } = toPage(rows, page.limit, (r) => [r.createdAt, r.id]);
    return { deliveries: served, nextCursor };
  }

  /** Sends an `artifact.test` event to one subscription now (whatever its status and events) and answers the attempt. */
  async test(subscriptionId: string): Promise<DeliveryAttempt> {
    const deliveryId = await inTransaction(this.db, async (trx) => {
      const sub = await trx.selectFrom('outboundSubscriptions').select('id').where('id', '=', subscriptionId).executeTakeFirst();
      if (!sub) throw notFound('outbound_subscription', subscriptionId);
      const now = this.clock.now().toISOString();
      const eventId = newId('evt', this.clock);
      const data: ArtifactTestData = {
        subscriptionId,
        message: TEST_MESSAGE,
        sample: { artifactId: 'art_test', taskId: null, runId: null, title: 'Sample output', kind: 'draft', version: 1, readyAt: now },
      };
      const envelope: EventEnvelope<'artifact.test'> = { id: eventId, event: 'artifact.test', createdAt: now, data };
      const id = newId('dlv', this.clock);
      // No next attempt: a test is one manual attempt, never retried by the worker.
      await insertDeliveries(trx, [pendingDelivery(id, subscriptionId, eventId, 'artifact.test', JSON.stringify(envelope), now, null)]);
      return id;
    });
    return this.answer(await this.worker.attempt(deliveryId, 'manual'), deliveryId);
  }

  /**
   * Re-posts a delivery's stored payload now, as a manual attempt (same webhook-id and bytes, a
   * fresh signature). `id` is a delivery id or the id of one of its attempts.
   */
  async retry(id: string): Promise<DeliveryAttempt> {
    const deliveryId = await this.deliveryIdOf(id);
    return this.answer(await this.worker.attempt(deliveryId, 'manual'), deliveryId);
  }

  /** Drops attempts and finished deliveries older than RETENTION_DAYS, and outbox rows delivered before then. */
  async prune(): Promise<{ attempts: number; deliveries: number; outbox: number }> {
    const cutoff = new Date(this.clock.now().getTime() - RETENTION_DAYS * 24 * 3600 * 1000).toISOString();
    return inTransaction(this.db, async (trx) => {
      const { attempts, deliveries } = await pruneDeliveryLog(trx, cutoff);
      return { attempts, deliveries, outbox: await pruneDeliveredEvents(trx, cutoff) };
    });
  }

  private async deliveryIdOf(id: string): Promise<string> {
    const delivery = await this.db.selectFrom('outboundDeliveries').select('id').where('id', '=', id).executeTakeFirst();
    if (delivery) return delivery.id;
    const attempt = await this.db.selectFrom('outboundAttempts').select('deliveryId').where('id', '=', id).executeTakeFirst();
    if (attempt) return attempt.deliveryId;
    throw notFound('outbound_delivery', id);
  }

  private async answer(record: { attemptId: string } | null, deliveryId: string): Promise<DeliveryAttempt> {
    // null: the subscription was deleted during the POST, or the desk is stopping.
    if (!record) throw notFound('outbound_delivery', deliveryId);
    return this.attempts().where('a.id', '=', record.attemptId).executeTakeFirstOrThrow();
  }

  private attempts() {
    return this.db
      .selectFrom('outboundAttempts as a')
      .innerJoin('outboundDeliveries as d', 'd.id', 'a.deliveryId')
      .leftJoin('outboundSubscriptions as s', 's.id', 'a.subscriptionId')
      .select([
        'a.id',
        'a.deliveryId',
        'a.subscriptionId',
        's.label as subscriptionLabel',
        'a.event',
        'a.eventId as webhookId',
        'a.url',
        'a.attemptNumber',
        'a.trigger',
        'a.outcome',
        'a.statusCode',
        'a.error',
        'a.responseExcerpt',
        'a.durationMs',
        'a.nextRetryAt',
        'd.state as deliveryState',
        'a.createdAt',
      ]);
  }
}
