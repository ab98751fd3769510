import express, { type NextFunction, type Request, type Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { Mount } from '../../app';
import { MINUTE_MS } from '../../core/clock';
import type { ErrorBody } from '../../core/errors';
import { tokenMatches } from '../auth';

export const INBOUND_BODY_LIMIT = '256kb';
export const DEFAULT_WEBHOOK_RATE_LIMIT_PER_MINUTE = 120;

/** The answer to an unknown route; a wrong webhook token gets exactly this, so it reveals nothing. */
export const NO_SUCH_ROUTE: ErrorBody = { error: 'not_found', message: 'No such API route' };

/** Whether the mount's token check passed for this request (the route trusts it, never re-compares). */
export const tokenChecked = (res: Response): boolean => res.locals.inboundTokenChecked === true;

/**
 * The transport of the inbound webhook, mounted before the /api/v1 body parser:
 * a per-IP rate limit, the token check (the only one: before the body is parsed or validated, so
 * a wrong token cannot learn what the route would accept) and its own smaller JSON body limit,
 * read whatever the Content-Type. The route's middleware then reads the delivery once.
 * The rate limiter keeps its window in real time (it is transport, not domain, time).
 */
export const inboundWebhookMount: Mount = (app, services) => {
  const perMinute = services.config.webhookRateLimitPerMinute ?? DEFAULT_WEBHOOK_RATE_LIMIT_PER_MINUTE;
  app.use(
    '/api/webhooks',
    rateLimit({
      windowMs: MINUTE_MS,
      limit: perMinute,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      // A relay in front may add X-Forwarded-For; Desk does not trust it and counts the peer address.
      validate: { xForwardedForHeader: false },
      handler: (_req: Request, res: Response) => {
        const body: ErrorBody = { error: 'rate_limited', message: `Too many inbound webhook requests: at most ${perMinute} per minute; retry after Retry-After seconds` };
        res.status(429).json(body);
      },
    }),
  );

  app.all('/api/webhooks/signals/:token', (req: Request, res: Response, next: NextFunction) => {
    if (!tokenMatches(req.params.token ?? '', services.token)) {
      res.status(404).json(NO_SUCH_ROUTE);
      return;
    }
    res.locals.inboundTokenChecked = true;
    next();
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
