import { performance } from 'node:perf_hooks';
import type { Db } from '../../../db/connection';
import { inTransaction, type Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { newId } from '../../core/ids';
import { recordActivity, SYSTEM_ACTOR } from '../activity/activity';
import { emit, markEventsDelivered } from '../events/outbox';
import { giveUpPending, insertAttempt, insertDeliveries, rewindPendingDeliveries, updateDelivery } from './delivery-store';
import { postWebhook, type PostResult } from './http-post';
import {
  DELIVERY_TIMEOUT_MS,
  failingTooLong,
  honoursRetryAfter,
  isSuccess,
  MAX_IN_FLIGHT,
  parseRetryAfter,
  retryDelayMs,
  type AttemptTrigger,
  type DisabledReason,
} from './rules';
import { signDelivery } from './signing';
import { eventData, eventsOf, nameOf, updateSubscription, type SubscriptionRow } from './subscription-store';
import type { OutboundDeliveryTable } from '../../../db/schema';

/**
 * The delivery worker. Runs on the main event loop, never inside a transaction while a POST is
 * under way: a transaction reads what to send, the POST runs, another transaction records it.
 *
 * - fan-out: undelivered outbox events become one delivery per subscription whose events contain
 *   the name (active ones only), and the outbox row is marked, in one transaction.
 * - sending: due pending deliveries, at most MAX_IN_FLIGHT POSTs at once and one per subscription,
 *   so a slow receiver holds one slot and never delays the others.
 * - recording: only 2xx succeeds; a failed scheduled attempt is retried on the schedule in rules.ts
 *   (Retry-After on 429/503), 410 disables the subscription, and so does a failing streak of 5 days.
 *   Manual attempts (test sends, retries by hand) never count toward disabling.
 *
 * All state is in the database: a desk that stops mid-retry sends what is due when it starts again.
 */

export interface DeliveryWorkerOptions {
  /** In [0, 1): the retry jitter (tests fix it). */
  random?: () => number;
  timeoutMs?: number;
  log?: { warn(obj: object, msg: string): void };
}

/** What one attempt did, for the answers of a test send and a retry. */
export interface AttemptRecord {
  attemptId: string;
  deliveryId: string;
}

type Delivery = OutboundDeliveryTable;

const FAN_OUT_BATCH = 200;

export class DeliveryWorker {
  private readonly random: () => number;
  private readonly timeoutMs: number;
  /** POSTs under way, by subscription id. */
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();
  private pumping: Promise<void> | null = null;
  private again = false;
  private kickQueued = false;
  /** POSTs started so far (settle() compares it across a pump). */
  private started = 0;
  /** When the last look for due deliveries was made (ms by the clock), to notice the clock going back. */
  private lastLook: number | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly options: DeliveryWorkerOptions = {},
  ) {
    this.random = options.random ?? Math.random;
    this.timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  }

  /** Runs a pump on the next turn of the event loop (after the commit of the write that called it). */
  kick(): void {
    if (this.kickQueued || this.stopping.signal.aborted) return;
    this.kickQueued = true;
    setImmediate(() => {
      this.kickQueued = false;
      if (!this.stopping.signal.aborted) void this.pump().catch((err: unknown) => this.options.log?.warn({ err: String(err) }, 'outbound pump failed'));
    });
  }

  /** Fans the outbox out and starts the due POSTs (without waiting for them). One pump at a time. */
  pump(): Promise<void> {
    if (this.pumping) {
      this.again = true;
      return this.pumping;
    }
    this.pumping = (async () => {
      do {
        this.again = false;
        while ((await this.fanOut()) === FAN_OUT_BATCH && !this.stopping.signal.aborted);
        await this.startDue();
      } while (this.again && !this.stopping.signal.aborted);
    })().finally(() => {
      this.pumping = null;
    });
    return this.pumping;
  }

  /** Pumps until nothing is due and nothing is in flight (jobs and tests). */
  async settle(): Promise<void> {
    for (;;) {
      const started = this.started;
      await this.pump();
      // Done once a whole pump started nothing and nothing is under way (an attempt that ended
      // during the pump may have freed its subscription's next delivery: pump again).
      if (this.inFlight.size === 0 && this.started === started) return;
      await Promise.allSettled([...this.inFlight.values()]);
    }
  }

  /** Aborts the POSTs under way (their deliveries stay pending, sent again after a restart) and waits for them. */
  async stop(): Promise<void> {
    this.stopping.abort();
    if (this.pumping) await this.pumping.catch(() => undefined);
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** One batch of the outbox into deliveries; the number of outbox rows it took. */
  async fanOut(): Promise<number> {
    return inTransaction(this.db, async (trx) => {
      const rows = await trx.selectFrom('outboxEvents').select(['id', 'event', 'payload']).where('deliveredAt', 'is', null).orderBy('createdAt').orderBy('id').limit(FAN_OUT_BATCH).execute();
      if (rows.length === 0) return 0;
      const names = [...new Set(rows.map((r) => r.event))];
      const subs = await trx
        .selectFrom('outboundSubscriptionEvents as e')
        .innerJoin('outboundSubscriptions as s', 's.id', 'e.subscriptionId')
        .select(['e.event', 'e.subscriptionId'])
        .where('e.event', 'in', names)
        .where('s.active', '=', 1)
        .execute();
      const byEvent = new Map<string, string[]>();
      for (const s of subs) byEvent.set(s.event, [...(byEvent.get(s.event) ?? []), s.subscriptionId]);
      const now = this.clock.now().toISOString();
      const deliveries: Delivery[] = [];
      for (const row of rows) {
        for (const subscriptionId of byEvent.get(row.event) ?? []) {
          deliveries.push(pendingDelivery(newId('dlv', this.clock), subscriptionId, row.id, row.event, row.payload, now, now));
        }
      }
      for (let i = 0; i < deliveries.length; i += 100) await insertDeliveries(trx, deliveries.slice(i, i + 100));
      await markEventsDelivered(trx, rows.map((r) => r.id), now);
      return rows.length;
    });
  }

  private async startDue(): Promise<void> {
    const free = MAX_IN_FLIGHT - this.inFlight.size;
    if (free <= 0 || this.stopping.signal.aborted) return;
    // At the first look, and whenever the clock reads earlier than at the last one, retries
    // scheduled from a later time are counted from now (rewindPendingDeliveries).
    const now = this.clock.now();
    if (this.lastLook === null || now.getTime() < this.lastLook) {
      const at = now;
      await inTransaction(this.db, (trx) => rewindPendingDeliveries(trx, at));
    }
    this.lastLook = now.getTime();
    const busy = [...this.inFlight.keys()];
    let query = this.db
      .selectFrom('outboundDeliveries as d')
      .innerJoin('outboundSubscriptions as s', 's.id', 'd.subscriptionId')
      .select(['d.id', 'd.subscriptionId'])
      .where('d.state', '=', 'pending')
      .where('d.nextAttemptAt', '<=', this.clock.now().toISOString())
      .where('s.active', '=', 1)
      .orderBy('d.nextAttemptAt')
      .orderBy('d.id')
      .limit(free * 8);
    if (busy.length) query = query.where('d.subscriptionId', 'not in', busy);
    const due = await query.execute();
    const picked = new Map<string, string>();
    for (const d of due) if (!picked.has(d.subscriptionId) && picked.size < free) picked.set(d.subscriptionId, d.id);
    for (const [subscriptionId, deliveryId] of picked) {
      const run = this.attempt(deliveryId, 'scheduled')
        .then(() => undefined)
        .catch((err: unknown) => this.options.log?.warn({ err: String(err), deliveryId }, 'outbound attempt failed to record'))
        .finally(() => {
          this.inFlight.delete(subscriptionId);
          this.kick();
        });
      this.inFlight.set(subscriptionId, run);
      this.started += 1;
    }
  }

  /**
   * One POST of a delivery's stored payload, signed now, and its record; null when the delivery
   * is gone or the desk stopped during the POST (then nothing is recorded: it stays pending).
   */
  async attempt(deliveryId: string, trigger: AttemptTrigger): Promise<AttemptRecord | null> {
    const target = await this.db
      .selectFrom('outboundDeliveries as d')
      .innerJoin('outboundSubscriptions as s', 's.id', 'd.subscriptionId')
      .select(['d.eventId', 'd.payload', 's.url', 's.secret'])
      .where('d.id', '=', deliveryId)
      .executeTakeFirst();
    if (!target) return null;
    const headers = signDelivery(target.secret, target.eventId, this.clock.now(), target.payload);
    const started = performance.now();
    const result = await postWebhook(target.url, { ...headers }, target.payload, { timeoutMs: this.timeoutMs, stop: this.stopping.signal });
    const durationMs = Math.round(performance.now() - started);
    if (result.aborted) return null;
    return inTransaction(this.db, (trx) => this.record(trx, deliveryId, target.url, trigger, result, durationMs));
  }

  private async record(trx: Trx, deliveryId: string, url: string, trigger: AttemptTrigger, result: PostResult, durationMs: number): Promise<AttemptRecord | null> {
    const delivery = await trx.selectFrom('outboundDeliveries').selectAll().where('id', '=', deliveryId).executeTakeFirst();
    if (!delivery) return null; // deleted with its subscription during the POST
    const sub = await trx.selectFrom('outboundSubscriptions').selectAll().where('id', '=', delivery.subscriptionId).executeTakeFirstOrThrow();
    const now = this.clock.now();
    const at = now.toISOString();
    const ok = result.statusCode !== null && isSuccess(result.statusCode);
    const previous = await trx.selectFrom('outboundAttempts').select((eb) => eb.fn.countAll<number>().as('n')).where('deliveryId', '=', deliveryId).executeTakeFirstOrThrow();
    let nextRetryAt: string | null = null;
    const update: Partial<Delivery> = { lastAttemptAt: at, lastStatusCode: result.statusCode };

    if (ok) {
      Object.assign(update, { state: 'succeeded', nextAttemptAt: null, finishedAt: at });
      if (sub.failingSince !== null && sub.disabledReason === null) await updateSubscription(trx, sub.id, { failingSince: null });
    } else if (trigger === 'manual') {
      // A manual attempt never counts toward disabling; a one-shot (test) delivery ends here.
      if (delivery.state === 'pending' && delivery.nextAttemptAt === null) Object.assign(update, { state: 'failed', finishedAt: at });
    } else if (delivery.state === 'pending') {
      const attempts = delivery.attempts + 1;
      update.attempts = attempts;
      const failingSince = sub.failingSince ?? at;
      const disable: DisabledReason | null = result.statusCode === 410 ? 'gone' : failingTooLong(failingSince, now) ? 'failing' : null;
      if (disable) {
        Object.assign(update, { state: 'given_up', nextAttemptAt: null, finishedAt: at });
        await this.disable(trx, sub, disable, failingSince, at);
      } else {
        if (sub.failingSince === null) await updateSubscription(trx, sub.id, { failingSince });
        const asked = result.statusCode !== null && honoursRetryAfter(result.statusCode) ? parseRetryAfter(result.retryAfter, now) : null;
        const scheduled = retryDelayMs(attempts, this.random);
        const wait = scheduled === null ? null : (asked ?? scheduled);
        if (wait === null) Object.assign(update, { state: 'given_up', nextAttemptAt: null, finishedAt: at });
        else {
          nextRetryAt = new Date(now.getTime() + wait).toISOString();
          update.nextAttemptAt = nextRetryAt;
        }
      }
    }
    await updateDelivery(trx, deliveryId, update);
    const attemptId = newId('dat', this.clock);
    await insertAttempt(trx, {
      id: attemptId,
      deliveryId,
      subscriptionId: delivery.subscriptionId,
      eventId: delivery.eventId,
      event: delivery.event,
      url,
      attemptNumber: Number(previous.n) + 1,
      trigger,
      outcome: ok ? 'succeeded' : 'failed',
      statusCode: result.statusCode,
      error: ok ? null : failureText(result),
      responseExcerpt: result.excerpt,
      durationMs,
      nextRetryAt,
      createdAt: at,
    });
    return { attemptId, deliveryId };
  }

  /** Disables a subscription (410 or a 5-day failing streak): its pending deliveries are given up, the operator told. */
  private async disable(trx: Trx, sub: SubscriptionRow, reason: DisabledReason, failingSince: string, at: string): Promise<void> {
    await updateSubscription(trx, sub.id, { active: 0, disabledReason: reason, disabledAt: at, failingSince: reason === 'failing' ? failingSince : sub.failingSince, updatedAt: at });
    await giveUpPending(trx, sub.id, at);
    const events = await eventsOf(trx, sub.id);
    const why = reason === 'gone' ? 'its receiver answered 410 Gone' : `every delivery failed since ${failingSince}`;
    await recordActivity(trx, this.clock, {
      kind: 'outbound.subscription_disabled',
      detail: `Webhook subscription ${nameOf(sub)} disabled: ${why}. Resume it once the receiver works.`,
      actor: SYSTEM_ACTOR,
      entityType: 'outbound_subscription',
      entityId: sub.id,
    });
    await emit(trx, this.clock, 'outbound.subscription_disabled', {
      ...eventData({ ...sub, active: 0 }, events),
      reason,
      failingSince: reason === 'failing' ? failingSince : null,
    });
  }
}

export function pendingDelivery(id: string, subscriptionId: string, eventId: string, event: string, payload: string, now: string, nextAttemptAt: string | null): Delivery {
  return { id, subscriptionId, eventId, event, payload, state: 'pending', attempts: 0, nextAttemptAt, lastAttemptAt: null, lastStatusCode: null, createdAt: now, finishedAt: null };
}

function failureText(r: PostResult): string {
  if (r.statusCode === null) return r.error ?? 'no answer';
  if (r.statusCode >= 300 && r.statusCode < 400) return `HTTP ${r.statusCode}: redirect not followed${r.location ? ` (Location: ${r.location.slice(0, 500)})` : ''}`;
  return `HTTP ${r.statusCode}`;
}
