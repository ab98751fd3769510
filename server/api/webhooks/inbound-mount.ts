import net from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { ipKeyGenerator, rateLimit, type Options } from 'express-rate-limit';
import type { Mount } from '../../app';
import { MINUTE_MS } from '../../core/clock';
import type { ErrorBody } from '../../core/errors';
import type { IngestScope } from '../../domain/ingest/ingest-service';
import type { Services } from '../../services';
import { tokenMatches } from '../auth';

export const INBOUND_BODY_LIMIT = '256kb';
/** Deliveries per minute per token (workspace or scoped); DESK_WEBHOOK_RATE_LIMIT_PER_MINUTE overrides it. */
export const DEFAULT_WEBHOOK_RATE_LIMIT_PER_MINUTE = 6000;
/** Wrong-token attempts per minute per client address; past it that address's wrong tokens get 429. */
export const DEFAULT_WEBHOOK_FAILED_AUTH_PER_MINUTE = 20;
/** The answer to an unknown route; a wrong webhook token gets exactly this, so it reveals nothing. */
export const NO_SUCH_ROUTE: ErrorBody = { error: 'not_found', message: 'No such API route' };

/** Who the path token let in: the workspace (any source, or none) or one source's scoped ingest URL. */
export type InboundCredential = { kind: 'workspace' } | ({ kind: 'source' } & IngestScope);

/** The credential the mount's token check accepted for this request, or null (the route trusts it, never re-compares). */
export const inboundCredential = (res: Response): InboundCredential | null => (res.locals.inboundCredential as InboundCredential | undefined) ?? null;

/**
 * The address a failed attempt counts against. Every loopback address (127.0.0.0/8, ::1) is one
 * client: otherwise a local process could spread its guesses over 127.0.0.2, 127.0.0.3 ...
 * IPv6 addresses count by their /56 network, as express-rate-limit advises.
 */
export function attemptKey(ip: string | undefined): string {
  const address = (ip ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  if (address === '::1' || (net.isIPv4(address) && address.startsWith('127.'))) return 'loopback';
  return address ? ipKeyGenerator(address) : 'unknown';
}

async function credentialOf(token: string, services: Services): Promise<InboundCredential | null> {
  if (tokenMatches(token, services.token)) return { kind: 'workspace' };
  const scope = await services.ingest.resolve(token);
  return scope ? { kind: 'source', ...scope } : null;
}

const limited = (res: Response, message: string, resetTime: Date | undefined) => {
  const seconds = resetTime ? Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : 60;
  res.setHeader('Retry-After', String(seconds));
  const body: ErrorBody = { error: 'rate_limited', message };
  res.status(429).json(body);
};

/**
 * The transport of the inbound webhook, mounted before the /api/v1 body parser: the token check
 * (the only one: before the body is parsed or validated, so a wrong token cannot learn what the
 * route would accept), two rate limits and its own smaller JSON body limit, read whatever the
 * Content-Type. The route's middleware then reads the delivery once.
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
  const common: Partial<Options> = {
    windowMs: MINUTE_MS,
    legacyHeaders: false,
    // A relay or tunnel in front may add X-Forwarded-For; Desk does not trust it and counts the peer address.
    // (attemptKey applies ipKeyGenerator itself.)
    validate: { xForwardedForHeader: false, keyGeneratorIpFallback: false },
  };
  const authenticated = rateLimit({
    ...common,
    limit: perMinute,
    standardHeaders: 'draft-8',
    keyGenerator: (_req, res) => {
      const credential = inboundCredential(res);
      return credential?.kind === 'source' ? `ingest:${credential.tokenId}` : 'workspace';
    },
    handler: (req: Request, res: Response) =>
      limited(res, `Too many inbound webhook requests: at most ${perMinute} per minute per token; retry after Retry-After seconds`, (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime),
  });
  // No RateLimit headers on refusals: a wrong token's 404 stays the answer of an unknown route.
  const failed = rateLimit({
    ...common,
    limit: failuresPerMinute,
    standardHeaders: false,
    keyGenerator: (req) => attemptKey(req.ip),
    handler: (req: Request, res: Response) =>
      limited(res, `Too many failed webhook token attempts from this address: at most ${failuresPerMinute} per minute`, (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime),
  });

  app.all('/api/webhooks/signals/:token', (req: Request, res: Response, next: NextFunction) => {
    credentialOf(req.params.token ?? '', services).then(
      (credential) => {
        if (credential === null) {
          failed(req, res, () => res.status(404).json(NO_SUCH_ROUTE));
          return;
        }
        res.locals.inboundCredential = credential;
        authenticated(req, res, next);
      },
      (err: unknown) => next(err),
    );
  });
  // JSON whatever the Content-Type: senders often omit it (`curl -d` sends form encoding) or send
  // text/plain; a body that is not JSON still gets the 400 malformed_body answer.
  const parse = express.json({ limit: INBOUND_BODY_LIMIT, strict: false, type: () => true });
  app.use('/api/webhooks', (req: Request, res: Response, next: NextFunction) => {
    parse(req, res, (err?: unknown) => {
      if ((err as { type?: string } | undefined)?.type === 'entity.too.large') {
        const body: ErrorBody = { error: 'body_too_large', message: `The request body is larger than ${INBOUND_BODY_LIMIT}` };
        res.status(413).json(body);
        return;
      }
      next(err);
    });
  });
};
