import fs from 'node:fs';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import swaggerUi from 'swagger-ui-express';
import { ValidateError } from '@tsoa/runtime';
import { RegisterRoutes } from './generated/routes';
import { DeskError, type ErrorBody, type ErrorDetail } from './core/errors';
import { openApiDocument } from './openapi/document';
import type { Services } from './services';

export const JSON_BODY_LIMIT = '1mb';

function send(res: Response, status: number, body: ErrorBody): void {
  res.status(status).json(body);
}

/**
 * tsoa names fields `body.x` / `limit` / `body.tags.$0`; the error shape names them as the client
 * sent them, with array items as `tags[0]` like the domain rules do.
 */
function validationDetails(err: ValidateError): ErrorDetail[] {
  return Object.entries(err.fields).map(([field, info]) => ({
    field: field.replace(/^(body|requestBody)\.?/, '').replace(/\.\$(\d+)/g, '[$1]') || 'body',
    message: readableMessage(info.message),
  }));
}

/**
 * tsoa reports a bad enum value as a failed union of literals ("Could not match the union ...
 * should be one of the following; ['on'] ..."): say which values are allowed instead.
 */
export function readableMessage(message: string): string {
  if (message.startsWith('Could not match the union')) {
    const allowed = [...message.matchAll(/should be one of the following; \[(.*?)\]/g)].map((m) => m[1].replace(/'/g, ''));
    if (allowed.length > 0) return `must be one of: ${allowed.join(', ')}`;
    return 'does not match any of the accepted shapes';
  }
  if (/^invalid (float|integer) number/.test(message)) return 'must be a number';
  return message;
}

/** Maps every failure to the one error shape; never leaks a stack. */
export function errorHandler(log: { error(msg: string): void } = console) {
  return (err: unknown, _req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next(err);
    if (err instanceof DeskError) return send(res, err.status, { error: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) });
    if (err instanceof ValidateError) {
      const details = validationDetails(err);
      return send(res, 422, { error: 'validation_failed', message: details.map((d) => `${d.field}: ${d.message}`).join('; '), details });
    }
    const e = err as { type?: string; status?: number; message?: string };
    if (e?.type === 'entity.parse.failed') return send(res, 400, { error: 'malformed_body', message: 'The request body is not valid JSON' });
    if (e?.type === 'entity.too.large') return send(res, 413, { error: 'body_too_large', message: `The request body is larger than ${JSON_BODY_LIMIT}` });
    if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') return send(res, 415, { error: 'unsupported_encoding', message: e.message ?? 'Unsupported encoding' });
    if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) return send(res, e.status, { error: 'bad_request', message: e.message ?? 'Bad request' });
    log.error(`unhandled error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return send(res, 500, { error: 'internal_error', message: 'Something went wrong inside Desk; see its log' });
  };
}

/**
 * Extra public or specially-parsed routes (e.g. the inbound webhook) mount here, before the
 * JSON body parser of /api/v1. Areas add theirs through `mounts`.
 */
export type Mount = (app: express.Express, services: Services) => void;

export function buildApp(services: Services, mounts: Mount[] = []): express.Express {
  const app = express();
  app.locals.services = services;
  app.disable('x-powered-by');
  app.set('trust proxy', false);

  const strictHelmet = helmet({
    contentSecurityPolicy: {
      directives: { 'default-src': ["'self'"], 'img-src': ["'self'", 'data:'], 'style-src': ["'self'", "'unsafe-inline'"], 'connect-src': ["'self'"] },
    },
  });

  // The API reference page: swagger-ui with its own assets; it needs inline styles and images.
  app.use('/api/docs', helmet({ contentSecurityPolicy: { directives: { 'default-src': ["'self'"], 'img-src': ["'self'", 'data:'], 'style-src': ["'self'", "'unsafe-inline'"] } } }));
  app.use('/api/docs', swaggerUi.serve, swaggerUi.setup(openApiDocument, { customSiteTitle: 'Desk API reference' }));

  app.use(strictHelmet);
  for (const mount of mounts) mount(app, services);

  app.use('/api/v1', express.json({ limit: JSON_BODY_LIMIT, strict: false }));
  RegisterRoutes(app);
  app.use('/api', (_req: Request, res: Response) => send(res, 404, { error: 'not_found', message: 'No such API route' }));

  if (services.config.uiDir && fs.existsSync(path.join(services.config.uiDir, 'index.html'))) {
    const uiDir = services.config.uiDir;
    app.use(express.static(uiDir, { index: false, maxAge: '1h' }));
    app.get('*', (_req: Request, res: Response) => {
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(path.join(uiDir, 'index.html'));
    });
  } else {
    app.get('/', (_req: Request, res: Response) => {
      res.type('text/plain').send('Desk API is running. The web UI is not built: run `npm run build`, or `npm start`, which builds it.');
    });
  }

  app.use(errorHandler());
  return app;
}
