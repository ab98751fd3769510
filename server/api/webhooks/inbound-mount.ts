import net from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import ipaddr from 'ipaddr.js';
import type { Mount } from '../../app';
import { MINUTE_MS } from '../../core/clock';
import { DeskError, type ErrorBody } from '../../core/errors';
import { readInboundDelivery, scopeDelivery, type InboundDelivery } from '../../domain/signals/signal-rules';
import { hostileJson } from '../../http-guards';
import { pathTokenMatches } from '../auth';
import { NO_SUCH_ROUTE, type InboundCredential } from './inbound-credential';
import { FixedWindowLimiter, policyName, setRateLimitHeaders } from './rate-window';
import { sentence } from '../../core/sentence';

export { NO_SUCH_ROUTE, type InboundCredential } from './inbound-credential';

export const INBOUND_BODY_LIMIT = '256kb';
/** Deliveries per minute per token (workspace or scoped); DESK_WEBHOOK_RATE_LIMIT_PER_MINUTE overrides it. */
export const DEFAULT_WEBHOOK_RATE_LIMIT_PER_MINUTE = 6000;
/** Wrong-token attempts per minute per client address; past it that address's wrong tokens get 429. */
export const DEFAULT_WEBHOOK_FAILED_AUTH_PER_MINUTE = 20;
/** The webhook's route, as the controller declares it (tsoa's Express path). */
export const INBOUND_ROUTE = '/api/webhooks/signals/:token';

/**
 * The address a failed attempt counts against. Every loopback address (127.0.0.0/8, ::1) is one
 * client: otherwise a local process could spread its guesses over 127.0.0.2, 127.0.0.3 ...
 * IPv6 addresses count by their /56 network: one subscriber's allocation, so a client cannot spread
 * its guesses over the addresses of its own prefix.
 */
export function attemptKey(ip: string | undefined): string {
  const address = (ip ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  if (address === '::1' || (net.isIPv4(address) && address.startsWith('127.'))) return 'loopback';
  if (net.isIPv6(address)) return `${ipaddr.IPv6.networkAddressFromCIDR(`${address}/56`).toString()}/56`;
  return address || 'unknown';
}

const limited = (res: Response, message: string, resetSeconds: number) => {
  res.setHeader('Retry-After', String(Math.max(1, resetSeconds)));
  const body: ErrorBody = { error: 'rate_limited', message: sentence(message) };
  res.status(429).json(body);
};

/**
 * The transport of the inbound webhook, mounted before the /api/v1 body parser: the token check
 * (the only one: before the body is parsed or validated, so a wrong token cannot learn what the
 * route would accept, nor make Desk read its body), two rate limits and its own smaller JSON body
 * limit, read whatever the Content-Type. It then serves the delivery itself: readInboundDelivery
 * validates the body to the field (422 naming `signals[3].title`, which tsoa's errors for a union
 * body cannot), so tsoa's second validation of the same body, its controller instance and its
 * response template would only add work to the desk's busiest write. InboundWebhookController
 * declares the operation for the OpenAPI document; its tsoa route is never reached while this
 * mount is registered (it answers every POST to the path) and answers as an unknown route without it.
 *
 * Limits, where they belong: failed token attempts count per client address (brute-force
 * protection; past the limit that address's wrong tokens get 429, while a correct token still
 * gets through, so nobody can lock a legitimate sender out); an authenticated sender's deliveries
 * count per token, against a generous, configurable limit. Relayed events never come this way
 * (the relay hands them to the signal service in-process). The windows run in real time
 * (transport, not domain, time).
 */
export const inboundWebhookMount: Mount = (app, services) => {
  const perMinute = services.config.webhookRateLimitPerMinute ?? DEFAULT_WEBHOOK_RATE_LIMIT_PER_MINUTE;
  const failuresPerMinute = services.config.webhookFailedAuthPerMinute ?? DEFAULT_WEBHOOK_FAILED_AUTH_PER_MINUTE;
  const perToken = new FixedWindowLimiter(perMinute, MINUTE_MS);
  const perTokenPolicy = policyName(perMinute, MINUTE_MS);
  const failures = new FixedWindowLimiter(failuresPerMinute, MINUTE_MS);
  // JSON whatever the Content-Type: senders often omit it (`curl -d` sends form encoding) or send
  // text/plain; a body that is not JSON still gets the 400 malformed_body answer.
  const parse = express.json({ limit: INBOUND_BODY_LIMIT, strict: false, type: () => true });

  const deliver = (credential: InboundCredential, req: Request, res: Response, next: NextFunction): void => {
    let delivery: InboundDelivery;
    try {
      const read = readInboundDelivery(req.body, req.header('Idempotency-Key'));
      // A scoped ingest token binds every signal to its source.
      delivery = credential.kind === 'source' ? scopeDelivery(read, credential) : read;
    } catch (err) {
      return next(err);
    }
    services.signals.receive(delivery).then(({ replayed, result }) => {
      if (replayed) res.setHeader('Idempotent-Replayed', 'true');
      res.status(201).json(result);
    }, next);
  };

  const admit = (credential: InboundCredential | null, req: Request, res: Response, next: NextFunction): void => {
    if (credential === null) {
      // No RateLimit headers on refusals: a wrong token's 404 stays the answer of an unknown route.
      const hit = failures.hit(attemptKey(req.ip));
      if (hit.exceeded) return limited(res, `Too many failed webhook token attempts from this address: at most ${failuresPerMinute} per minute`, hit.resetSeconds);
      res.status(404).json(NO_SUCH_ROUTE);
      return;
    }
    const hit = perToken.hit(credential.kind === 'source' ? `ingest:${credential.tokenId}` : 'workspace');
    setRateLimitHeaders(res, perToken, perTokenPolicy, hit);
    if (hit.exceeded) return limited(res, `Too many inbound webhook requests: at most ${perMinute} per minute per token; retry after Retry-After seconds`, hit.resetSeconds);
    // Only a POST is a delivery: other methods go on, unread, to the unknown-route answer.
    if (req.method !== 'POST') return next();
    parse(req, res, (err?: unknown) => {
      if ((err as { type?: string } | undefined)?.type === 'entity.too.large') {
        const body: ErrorBody = { error: 'body_too_large', message: `The request body is larger than ${INBOUND_BODY_LIMIT}.` };
        res.status(413).json(body);
        return;
      }
      if (err !== undefined) return next(err);
      // Parsed JSON that would slip through or crash validation, as every /api body is checked.
      const problem = req.body === undefined ? null : hostileJson(req.body);
      if (problem !== null) return next(new DeskError(400, 'malformed_body', `The request body ${problem}`));
      deliver(credential, req, res, next);
    });
  };

  app.all(INBOUND_ROUTE, (req: Request, res: Response, next: NextFunction) => {
    const token = req.params.token ?? '';
    // The workspace token needs no lookup: admitted without a trip through the promise queue.
    if (pathTokenMatches(req, token, services.token)) return admit({ kind: 'workspace' }, req, res, next);
    services.ingest.resolve(token).then(
      (scope) => admit(scope ? { kind: 'source', ...scope } : null, req, res, next),
      (err: unknown) => next(err),
    );
  });
};
