import { Body, Controller, Delete, Get, Patch, Path, Post, Query, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { EventName } from '../../domain/catalog/events';
import type { DeliveryAttempt, DeliveryAttemptList } from '../../domain/outbound/delivery-log';
import type { OutboundSubscriptionList } from '../../domain/outbound/outbound-service';
import type { AttemptOutcome, OutboundBulkAction } from '../../domain/outbound/rules';
import type { CreatedOutboundSubscription, OutboundBulkResult } from '../../domain/outbound/subscription-service';
import type { OutboundSubscription } from '../../domain/outbound/subscription-store';
import type { Services } from '../../services';

/** An outbound event name (GET /outbound/subscriptions lists them with descriptions). */
export type OutboundEvent = EventName;

export interface CreateOutboundSubscriptionBody {
  /**
   * The receiver: an absolute http(s) URL, at most 2000 characters. Local services are fine
   * (e.g. http://127.0.0.1:8080/hooks). Redirects are never followed.
   * @example "https://hooks.example.com/desk"
   */
  url: string;
  /**
   * The events it receives: at least one known event name; duplicates are folded.
   * @example ["task.created", "artifact.ready"]
   */
  events: OutboundEvent[];
  /**
   * A name for it (trimmed; blank means none).
   */
  label?: string | null;
}

export interface PatchOutboundSubscriptionBody {
  /** false pauses it (nothing new is queued; queued deliveries wait); true resumes it, also after Desk disabled it. */
  active?: boolean;
  /**
   * Replaces the event set: at least one known event name.
   */
  events?: OutboundEvent[];
}

export interface OutboundBulkBody {
  action: OutboundBulkAction;
  subscriptionIds: string[];
}

/**
 * Outbound webhooks: every event (GET /events lists them with payloads) can be delivered to
 * receivers you subscribe. Deliveries follow the Standard Webhooks spec (https://www.standardwebhooks.com):
 * headers `webhook-id` (the event id: the same on every retry, dedupe on it), `webhook-timestamp`
 * (seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with the
 * subscription's `whsec_` secret), so any Standard Webhooks library verifies it in one line. The
 * body is the event envelope `{ id, event, createdAt, data }`, byte for byte the same on every
 * attempt. Only a 2xx answer counts as delivered (redirects are not followed). Retries: immediately,
 * then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (each plus up to 10% jitter), then given up;
 * on 429 and 503 a Retry-After (seconds or HTTP date, 1 s to 24 h) replaces the next wait. A 410
 * answer disables the subscription, and so do 5 days in which every scheduled attempt failed (an
 * activity row `outbound.subscription_disabled` and the event of that name tell the operator);
 * deliveries are kept in the database and resume after a restart. Each attempt waits at most 15 s
 * and keeps the first 1 KiB of the answer in the delivery log (30 days). The signing secret is
 * shown once, when the subscription is created; it is kept in the desk's database in its private
 * data folder and never logged.
 */
@Route('api/v1/outbound')
@Tags('Outbound webhooks')
@Security('bearer')
export class OutboundController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /** Every subscription (oldest first, at most 25: no paging), and the full vocabulary of event names with descriptions. */
  @Get('subscriptions')
  public async listOutboundSubscriptions(): Promise<OutboundSubscriptionList> {
    return this.s.outbound.list();
  }

  /**
   * Creates a subscription (logged as `outbound.subscription_created`). The answer carries the
   * signing secret `whsec_...`: the only time it is shown.
   */
  @Post('subscriptions')
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>('409', '`limit_reached`: 50 subscriptions (as many as one bulk call takes); nothing was created')
  @Response<ErrorBody>('422', 'url is not an http(s) URL, events is empty or names an unknown event, or label is longer than 80 characters')
  public async createOutboundSubscription(@Body() body: CreateOutboundSubscriptionBody): Promise<CreatedOutboundSubscription> {
    const created = await this.s.outbound.subscriptions.create(body);
    this.setStatus(201);
    return created;
  }

  /** Pauses, resumes or changes the event set (at least one of active, events). Logged as `outbound.subscription_updated` when something changed. */
  @Patch('subscriptions/{id}')
  @Response<ErrorBody>('404', '`outbound_subscription_not_found`')
  @Response<ErrorBody>('422', 'neither active nor events given, or events is empty or names an unknown event')
  public async patchOutboundSubscription(@Path() id: string, @Body() body: PatchOutboundSubscriptionBody): Promise<OutboundSubscription> {
    return this.s.outbound.subscriptions.patch(id, body);
  }

  /** Deletes a subscription with its queued deliveries and its delivery log; answers it as it was. */
  @Delete('subscriptions/{id}')
  @Response<ErrorBody>('404', '`outbound_subscription_not_found`')
  public async deleteOutboundSubscription(@Path() id: string): Promise<OutboundSubscription> {
    return this.s.outbound.subscriptions.remove(id);
  }

  /** pause, resume or delete up to 50 subscriptions (bulk policy: unknown ids in notFound; already paused or active ones in unchanged). */
  @Post('subscriptions/bulk')
  @Response<ErrorBody>('422', 'action unknown, or subscriptionIds not 1-50 ids')
  public async bulkOutboundSubscriptions(@Body() body: OutboundBulkBody): Promise<OutboundBulkResult> {
    return this.s.outbound.subscriptions.bulk(body);
  }

  /**
   * Sends an `artifact.test` event, signed like any other, to this subscription now (whatever its
   * status or events) and answers the attempt as the delivery log records it: a failed test is a
   * 200 with outcome `failed`. Manual: never retried, never counts toward disabling.
   */
  @Post('subscriptions/{id}/test')
  @Response<ErrorBody>('404', '`outbound_subscription_not_found`')
  public async testOutboundSubscription(@Path() id: string): Promise<DeliveryAttempt> {
    return this.s.outbound.log.test(id);
  }

  /**
   * The delivery log: recent attempts, newest first.
   * @param limit attempts per page
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page, as it was served
   * @param subscriptionId only this subscription's attempts
   * @param outcome only succeeded or only failed attempts
   */
  @Get('deliveries')
  @Response<ErrorBody>('422', 'limit, cursor or outcome is invalid')
  public async listOutboundDeliveries(@Query() limit = 20, @Query() cursor?: string, @Query() subscriptionId?: string, @Query() outcome?: AttemptOutcome): Promise<DeliveryAttemptList> {
    return this.s.outbound.log.list({ limit, cursor, subscriptionId, outcome });
  }

  /**
   * Re-posts a delivery's stored payload now (the same bytes and webhook-id, a fresh signature), as
   * a manual attempt: it never counts toward disabling; a 2xx marks the delivery succeeded. `id` is a
   * delivery id or the id of any of its attempts (the log's `id`). Answers the attempt; a failed
   * one is a 200 with outcome `failed`.
   */
  @Post('deliveries/{id}/retry')
  @Response<ErrorBody>('404', '`outbound_delivery_not_found`')
  public async retryOutboundDelivery(@Path() id: string): Promise<DeliveryAttempt> {
    return this.s.outbound.log.retry(id);
  }
}
