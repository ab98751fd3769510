import type { NextFunction, Request as ExRequest, Response as ExResponse } from 'express';
import { Body, Controller, Header, Middlewares, Path, Post, Response, Route, SuccessResponse, Tags } from '@tsoa/runtime';
import { DeskError, type ErrorBody } from '../../core/errors';
import type { InboundDeliveryResult, SignalKind, SignalPriority } from '../../domain/signals/signal-service';
import { NO_SUCH_ROUTE } from './inbound-credential';

/**
 * The route tsoa registers for the operation answers as an unknown route, before reading anything:
 * inbound-mount.ts serves the webhook (it checks the token first and answers every POST to the
 * path), so only a desk built without that mount gets here.
 */
function servedByTheMount(_req: ExRequest, _res: ExResponse, next: NextFunction): void {
  next(new DeskError(404, NO_SUCH_ROUTE.error, NO_SUCH_ROUTE.message));
}

/** One pushed signal. */
export interface InboundSignalItem {
  /** Default `other`. */
  kind?: SignalKind;
  /** Default `normal`. */
  priority?: SignalPriority;
  /**
   * @example "New review: 2 stars on the App Store"
   */
  title: string;
  /**
   * Default empty.
   */
  detail?: string;
  /**
   * Where the signal comes from: an http(s) URL.
   * @pattern ^https?://
   */
  sourceUrl?: string;
  /**
   * The sender's own id for this signal. A signal whose externalId is already on the desk is not
   * created again (its existing id is returned and it counts as a duplicate).
   */
  externalId?: string;
  /**
   * Optional: the id of the source this signal comes from (e.g. a `manual` source created for the
   * sending service). It must be a source of this desk (422 otherwise, nothing created). The signal
   * is then listed under that source and counts as fresh signal from it, exactly like a polled
   * feed item: it updates the source's lastSignalAt and ends its quietness ack. Without it the
   * signal belongs to no source and touches no source's quietness.
   */
  sourceId?: string;
}

/** A single pushed signal. */
export interface InboundSignal extends InboundSignalItem {
  /**
   * Idempotency key of this delivery, when the sender cannot set the `Idempotency-Key` header.
   */
  idempotencyKey?: string;
}

/** A batch of 1-100 pushed signals, accepted or rejected as a whole. */
export interface InboundSignalBatch {
  signals: InboundSignalItem[];
  /**
   * Idempotency key of this delivery, when the sender cannot set the `Idempotency-Key` header.
   */
  idempotencyKey?: string;
}

/**
 * The inbound signal webhook: feeds and other services push signals to the desk (usually through
 * the relay). It lives outside /api/v1 and takes no bearer header: the ingest token in the path
 * addresses and authenticates it. This class is the operation's contract (the OpenAPI document is
 * generated from it); inbound-mount.ts serves it.
 */
@Route('api/webhooks/signals')
@Tags('Inbound webhook')
export class InboundWebhookController extends Controller {

  /**
   * Pushes one signal, or a batch `{ signals: [...] }` of at most 100, created in one transaction;
   * each is written to the activity log as `signal.received` by `webhook` and emits the
   * `signal.created` event (origin `webhook`).
   *
   * Idempotency: send a key in the `Idempotency-Key` header or the body field `idempotencyKey`
   * (1-200 characters). The first delivery's response is kept for 7 days; a repeat with the same
   * key returns that response (same ids) with `Idempotent-Replayed: true` and creates nothing,
   * whatever its body. When both are sent (e.g. the relay sets the header, the sender the field),
   * both are kept, and a later delivery carrying either one is a repeat.
   *
   * Two kinds of token address it. The workspace token (the spec's URL; it also opens the bearer
   * API, so treat this URL as an admin key) pushes to any source or none. A source's scoped ingest
   * token (`dski_...`, created with POST /api/v1/sources/{id}/ingest-tokens) can only push signals,
   * and every signal it pushes belongs to that source: a signal may repeat that `sourceId` or leave
   * it out, naming another is a 422 (nothing created). Its idempotency keys are its source's own. A
   * revoked scoped token is answered exactly like a wrong one.
   *
   * A signal may name its source with `sourceId` (see InboundSignalItem). The body is read as JSON
   * whatever its Content-Type (plain `curl -d` sends form encoding; some services send text/plain).
   *
   * Limits: body at most 256kb (413). An authenticated sender may make 6000 requests per minute
   * per token (DESK_WEBHOOK_RATE_LIMIT_PER_MINUTE changes it; 429 past it, with `RateLimit` and
   * `Retry-After` headers). A wrong token is answered 404 exactly like an unknown route; after 20
   * wrong-token attempts in a minute from one client address (every loopback address counts as
   * one), that address's wrong-token attempts get 429 with `Retry-After` for the rest of the
   * minute, while requests with a right token still go through. Events relayed through the relay
   * channel are delivered in-process and count against neither limit.
   * @param _token The workspace token, or a source's scoped ingest token.
   * @param _body One signal, or a batch of 1-100.
   * @param _idempotencyKey Idempotency key of this delivery (1-200 characters).
   */
  @Post('{token}')
  @Middlewares(servedByTheMount)
  @SuccessResponse<{
    /** `true` when this is the stored response of an earlier delivery with the same idempotency key. */
    'Idempotent-Replayed'?: string;
  }>('201', 'Created: one id per signal sent, in order')
  @Response<ErrorBody>('400', 'The body is not valid JSON')
  @Response<ErrorBody>('404', 'Wrong token (the same answer as an unknown route)', NO_SUCH_ROUTE)
  @Response<ErrorBody>('413', 'The body is larger than 256kb')
  @Response<ErrorBody>('422', 'A signal, the batch or the idempotency key is invalid, or a sourceId names no source (or, through a scoped ingest URL, another source); nothing was created')
  @Response<ErrorBody>('429', 'Too many requests with this token this minute, or too many wrong-token attempts from this address')
  public async receiveInboundSignals(
    // Declared for the API document: inbound-mount.ts reads the token, the body and the key.
    @Path('token') _token: string,
    @Body() _body: InboundSignal | InboundSignalBatch,
    @Header('Idempotency-Key') _idempotencyKey?: string,
  ): Promise<InboundDeliveryResult> {
    // servedByTheMount answered before tsoa reads the request.
    throw new DeskError(404, NO_SUCH_ROUTE.error, NO_SUCH_ROUTE.message);
  }
}
