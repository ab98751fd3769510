import fs from 'node:fs';
import path from 'node:path';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import { ValidateError } from '@tsoa/runtime';
import { RegisterRoutes } from './generated/routes';
import { DeskError, type ErrorBody, type ErrorDetail } from './core/errors';
import { sentence } from './core/sentence';
import type { DiskSpace } from './core/disk-space';
import { bearerProblem } from './api/auth';
import { installFastUnionValidation } from './api/fast-union';
import { hostAndOriginGuard, hostileJson, operationTable } from './http-guards';
import { openApiDocument } from './openapi/document';
import type { Services } from './services';

export const JSON_BODY_LIMIT = '1mb';
/**
 * Operations whose bodies may be larger than JSON_BODY_LIMIT ("METHOD /path", lower case): an import
 * carries a whole export file (up to 10,000 signals and 5000 memory entries and sources). The token
 * is checked before any body is read, so only the operator can make Desk parse one.
 */
export const LARGE_BODY_LIMITS: Readonly<Record<string, string>> = { 'post /api/v1/workspace/import': '64mb' };
/** The body limit of a request (the 413 message names the one that applied). */
export const bodyLimitOf = (method: string, urlPath: string): string =>
  LARGE_BODY_LIMITS[`${method.toLowerCase()} ${urlPath.toLowerCase().replace(/(.)\/$/, '$1')}`] ?? JSON_BODY_LIMIT;

/**
 * Every error body leaves here: its message and each field's message are sentences, whichever rule
 * or library wrote them (a field's message is shown under its field: "Must be at most 80 characters.").
 */
function send(res: Response, status: number, body: ErrorBody): void {
  const details = body.details?.map((d) => ({ ...d, message: sentence(d.message) }));
  res.status(status).json({ ...body, message: sentence(body.message), ...(details ? { details } : {}) });
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

const TSOA_MESSAGES: [RegExp, (m: RegExpExecArray) => string][] = [
  [/^min (\S+)$/, (m) => `must be at least ${m[1]}`],
  [/^max (\S+)$/, (m) => `must be at most ${m[1]}`],
  [/^minLength (\d+)$/, (m) => `must be at least ${m[1]} characters`],
  [/^maxLength (\d+)$/, (m) => `must be at most ${m[1]} characters`],
  [/^minItems (\d+)$/, (m) => `must hold at least ${m[1]} items`],
  [/^maxItems (\d+)$/, (m) => `must hold at most ${m[1]} items`],
  [/^invalid integer number/, () => 'must be an integer'],
  [/^invalid float number/, () => 'must be a number'],
  [/^invalid string value/, () => 'must be a string'],
  [/^invalid boolean value/, () => 'must be true or false'],
  [/^invalid array/, () => 'must be an array'],
];

function humanise(message: string): string {
  for (const [pattern, say] of TSOA_MESSAGES) {
    const m = pattern.exec(message);
    if (m) return say(m);
  }
  return message;
}

/**
 * tsoa reports a failed union (enums, nullable numbers) as one nested message: turn it into a
 * sentence that says what is allowed, e.g. "must be one of: on, paused, off" or
 * "must be at least 7 (or null)".
 */
export function readableMessage(message: string): string {
  if (!message.startsWith('Could not match the union')) return humanise(message);
  let issues: string[] = [];
  try {
    const parsed = JSON.parse(message.slice(message.indexOf('Issues: ') + 8)) as Record<string, { message: string }>[];
    issues = parsed.flatMap((issue) => Object.values(issue).map((v) => v.message));
  } catch {
    return 'does not match any of the accepted values';
  }
  const literals: string[] = [];
  const others: string[] = [];
  for (const issue of issues) {
    const literal = /^should be one of the following; \[(.*)\]$/.exec(issue);
    if (literal) literals.push(...literal[1].split(',').map((v) => v.trim().replace(/^'|'$/g, '')));
    else others.push(humanise(issue));
  }
  if (others.length === 0) return `must be one of: ${literals.join(', ')}`;
  const rest = literals.length > 0 ? ` (or ${literals.join(', ')})` : '';
  return `${[...new Set(others)].join('; ')}${rest}`;
}

/** Maps every failure to the one error shape; never leaks a stack. */
/** What a request answers when SQLite reports the database damaged (the desk then switches to rescue mode). */
export const DATABASE_DAMAGED_BODY: ErrorBody = {
  error: 'database_damaged',
  message: "Desk's database is damaged (SQLite's integrity check failed): nothing was changed, and Desk is switching to rescue mode to restore a backup.",
};

/**
 * The one error shape for whatever a handler throws. `onDatabaseDamage` is told of an error in which
 * SQLite says the file is damaged (a read of a bad page while the start's check still runs, or damage
 * found later) and answers whether it was one: such a request gets 503, never a 500.
 */
export function errorHandler(log: { error(msg: string): void } = console, diskSpace?: DiskSpace, onDatabaseDamage?: (err: unknown) => boolean) {
  return (err: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next(err);
    if (onDatabaseDamage?.(err)) return send(res, 503, DATABASE_DAMAGED_BODY);
    // A write refused for want of space: 507, and the desk holds its scheduled work until there is room.
    if (diskSpace?.noteFailure(err)) {
      const full = diskSpace.error();
      return send(res, full.status, { error: full.code, message: full.message });
    }
    // RFC 6750: a refused bearer request says which scheme it expects.
    if (err instanceof DeskError && err.status === 401) res.setHeader('WWW-Authenticate', 'Bearer realm="desk"');
    if (err instanceof DeskError) return send(res, err.status, { error: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) });
    if (err instanceof ValidateError) {
      const details = validationDetails(err);
      return send(res, 422, { error: 'validation_failed', message: details.map((d) => `${d.field}: ${d.message}`).join('; '), details });
    }
    const e = err as { type?: string; status?: number; message?: string };
    if (e?.type === 'entity.parse.failed') return send(res, 400, { error: 'malformed_body', message: 'The request body is not valid JSON' });
    if (e?.type === 'entity.too.large') return send(res, 413, { error: 'body_too_large', message: `The request body is larger than ${bodyLimitOf(req.method, req.path)}` });
    if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') return send(res, 415, { error: 'unsupported_encoding', message: e.message ?? 'Unsupported encoding' });
    if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) return send(res, e.status, { error: 'bad_request', message: e.message ?? 'Bad request' });
    log.error(`unhandled error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return send(res, 500, { error: 'internal_error', message: 'Something went wrong inside Desk; see its log' });
  };
}

// Desk is served over plain HTTP on the local machine: HSTS and upgrade-insecure-requests would
// only make Safari (which upgrades even loopback requests) fetch the UI's assets over https and fail.
const plainHttp = { strictTransportSecurity: false } as const;

/** Security headers of every response but the API reference page. */
export const STRICT_HELMET: HelmetOptions = {
  ...plainHttp,
  contentSecurityPolicy: {
    directives: {
      'default-src': ["'self'"],
      'img-src': ["'self'", 'data:'],
      'style-src': ["'self'", "'unsafe-inline'"],
      'connect-src': ["'self'"],
      'upgrade-insecure-requests': null,
    },
  },
};

/** The API reference page (swagger-ui): inline styles and images. */
export const DOCS_HELMET: HelmetOptions = {
  ...plainHttp,
  contentSecurityPolicy: {
    directives: { 'default-src': ["'self'"], 'img-src': ["'self'", 'data:'], 'style-src': ["'self'", "'unsafe-inline'"], 'upgrade-insecure-requests': null },
  },
};

type HeaderOp = { set: string; value: number | string | readonly string[] } | { remove: string };

/**
 * The headers a helmet middleware sets, recorded once at start and set on each response. With
 * static options (no nonces, no functions) helmet sets the same values on every response; running
 * its chain of a dozen middlewares per request cost more than the headers. Fails at start if the
 * middleware does not finish at once (options that depend on the request).
 */
export function precomputedHeaders(middleware: RequestHandler): RequestHandler {
  const ops: HeaderOp[] = [];
  const recorder = {
    setHeader(name: string, value: number | string | readonly string[]) {
      ops.push({ set: name, value });
      return recorder;
    },
    removeHeader(name: string) {
      ops.push({ remove: name });
    },
    getHeader: () => undefined,
  };
  let finished = false;
  let failure: unknown;
  middleware({ headers: {}, method: 'GET', url: '/' } as Request, recorder as unknown as Response, (err?: unknown) => {
    finished = true;
    failure = err;
  });
  if (!finished || failure !== undefined) throw new Error('precomputedHeaders: the middleware did not set fixed headers at once');
  return (_req: Request, res: Response, next: NextFunction) => {
    for (const op of ops) {
      if ('set' in op) res.setHeader(op.set, op.value);
      else res.removeHeader(op.remove);
    }
    next();
  };
}

/** `/api/v1` or below it, as Express's `app.use('/api/v1')` matches (case-insensitive, whole segments). */
function isApiV1(urlPath: string): boolean {
  return (urlPath.length === 7 || urlPath.charCodeAt(7) === 47) && urlPath.slice(0, 7).toLowerCase() === '/api/v1';
}

let apiReference: Promise<RequestHandler> | undefined;
/**
 * swagger-ui's assets and page, loaded and made on the first request under /api/docs and then kept
 * for every desk of the process (the document is the same): loading swagger-ui-express and
 * serializing the whole OpenAPI document into the page and its init script (served by its `serve`
 * handlers, so it is made before they run) were costs every desk start paid though few ever open it.
 */
function apiReferencePage(): Promise<RequestHandler> {
  apiReference ??= import('swagger-ui-express').then(({ default: swaggerUi }) => express.Router().use(swaggerUi.serve, swaggerUi.setup(openApiDocument, { customSiteTitle: 'Desk API reference' })));
  return apiReference;
}

type Register = (router: express.Router) => void;

interface OpenApiOperations {
  security?: unknown[];
  paths?: Record<string, Record<string, { operationId?: string; security?: unknown[] } | unknown>>;
}

/**
 * The final handler of every tsoa route with a fixed path (no path parameters) and no middleware
 * of its own besides tsoa's authentication, by the operationId of its OpenAPI operation (the
 * document tsoa generates from the same controllers). Found by registering tsoa's routes on a
 * recorder once at start: a route is the operation of its method and path, and tsoa puts its
 * authentication first exactly when the operation lists a security requirement, so a route of
 * one handler more than that has middlewares of its own. Nothing depends on the names of the
 * generated functions. Such a request needs none of the router's work: its path names the route,
 * and its token was checked before its body was read (bearerProblem, the check
 * expressAuthentication makes, from the same @Security through the OpenAPI document); what tsoa's
 * handler does (validation, controller, status, JSON answer, errors to `next`) is unchanged.
 * Routes with path parameters or middlewares, routes an earlier one shadows and routes the
 * document does not describe take the router as before.
 */
export function directRoutes(register: Register, openApi: object): Map<string, RequestHandler> {
  const { paths = {}, security: anyOperation = [] } = openApi as OpenApiOperations;
  const found = new Map<string, RequestHandler>();
  // Express serves the first route registered that matches: a fixed path is direct only if no
  // earlier route of its method (fixed or with parameters) could have taken it.
  const earlier: { method: string; pattern: RegExp }[] = [];
  const record =
    (method: string) =>
    (routePath: unknown, ...handlers: RequestHandler[]) => {
      if (typeof routePath !== 'string') throw new Error('directRoutes: a route without a string path');
      const fixed = !/[:*?+()]/.test(routePath);
      const shadowed = earlier.some((r) => r.method === method && r.pattern.test(routePath));
      const source = routePath
        .split(/(:\w+)/)
        .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('');
      // A pattern beyond plain `:param` segments (never generated by tsoa) shadows everything after it.
      earlier.push({ method, pattern: /[*?+()]/.test(routePath) ? /^/ : new RegExp(`^${source}/?$`, 'i') });
      const operation = paths[routePath]?.[method.toLowerCase()] as { operationId?: string; security?: unknown[] } | undefined;
      const id = operation?.operationId;
      const authenticated = (operation?.security ?? anyOperation).length > 0;
      if (fixed && !shadowed && id !== undefined && !found.has(id) && handlers.length === (authenticated ? 2 : 1)) found.set(id, handlers[handlers.length - 1]);
      return recorder;
    };
  const recorder = { get: record('GET'), post: record('POST'), put: record('PUT'), patch: record('PATCH'), delete: record('DELETE') };
  register(recorder as unknown as express.Router);
  return found;
}

/** The rest of the route's way for a direct request: the hostile-JSON check, what tsoa's authentication sets, its handler. */
function directly(handler: RequestHandler, isPublic: boolean, req: Request, res: Response, next: NextFunction): void {
  const problem = req.body === undefined ? null : hostileJson(req.body);
  if (problem !== null) return next(new DeskError(400, 'malformed_body', `The request body ${problem}`));
  callDirect(handler, isPublic, req, res, next);
}

/** What tsoa's authentication sets (the token was checked before), then the route's handler. */
function callDirect(handler: RequestHandler, isPublic: boolean, req: Request, res: Response, next: NextFunction): void {
  if (!isPublic) (req as Request & { user?: unknown }).user = { workspace: true };
  void handler(req, res, next);
}

/**
 * Extra public or specially-parsed routes (e.g. the inbound webhook, the share pages) mount here,
 * outside /api/v1 (whose operations are authenticated, parsed and dispatched before the mounts).
 * Areas add theirs through `mounts`.
 */
export type Mount = (app: express.Express, services: Services) => void;

export interface AppHooks {
  /** Requests the composition root holds (changes, until the start's integrity check passed). */
  gate?: RequestHandler;
  /** Told of an error that says the database is damaged; answers whether it was one (see errorHandler). */
  onDatabaseDamage?: (err: unknown) => boolean;
}

export function buildApp(services: Services, mounts: Mount[] = [], log: { error(msg: string): void } = console, { gate, onDatabaseDamage }: AppHooks = {}): express.Express {
  installFastUnionValidation();
  const app = express();
  app.locals.services = services;
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  // First of all: a foreign Host (DNS rebinding) or a foreign Origin on a change gets nothing.
  app.use(hostAndOriginGuard(services.config.host));
  // Then what the composition root holds requests for (changes, until the start's integrity check passed).
  if (gate) app.use(gate);

  const strictHelmet = precomputedHeaders(helmet(STRICT_HELMET));

  // The API reference page: swagger-ui with its own assets; it needs inline styles and images.
  app.use('/api/docs', precomputedHeaders(helmet(DOCS_HELMET)));
  app.use('/api/docs', (req: Request, res: Response, next: NextFunction) => {
    apiReferencePage().then((page) => page(req, res, next), next);
  });

  app.use(strictHelmet);
  // The token is checked before a body is read: a client without it cannot make Desk buffer and
  // parse a megabyte. Which routes are public comes from the OpenAPI document (tsoa's @Security);
  // tsoa checks the token again on its routes. A request for no operation is a 404 below, unread.
  const operations = operationTable(openApiDocument);
  const parseJson = express.json({ limit: JSON_BODY_LIMIT, strict: false });
  // Keyed like operationTable's keys ("POST /api/v1/workspace/import").
  const largeParsers = new Map(
    Object.entries(LARGE_BODY_LIMITS).map(([operation, limit]) => {
      const [method, urlPath] = operation.split(' ');
      return [`${method.toUpperCase()} ${urlPath}`, express.json({ limit, strict: false })];
    }),
  );
  const direct = directRoutes(RegisterRoutes, openApiDocument);
  // Before the mounts (their paths are outside /api/v1): fewer layers to pass on the hot paths.
  app.use((req: Request, res: Response, next: NextFunction) => {
    const urlPath = req.path;
    if (!isApiV1(urlPath)) return next();
    const operation = operations.match(req.method, urlPath);
    if (operation === undefined) return next();
    // A fixed-path operation goes straight to its tsoa handler once authenticated and parsed.
    const handler = operation.operationId === undefined ? undefined : direct.get(operation.operationId);
    if (!operation.public) {
      const problem = bearerProblem(req);
      if (problem !== null) return next(problem);
    }
    // No body (most reads): what the JSON parser would do for it, without its layer and checks.
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      if (req.body === undefined) req.body = {};
      // Nothing was parsed, so there is nothing hostile to look for.
      if (handler === undefined) return next();
      return callDirect(handler, operation.public, req, res, next);
    }
    const proceed = handler === undefined ? next : (err?: unknown) => (err === undefined ? directly(handler, operation.public, req, res, next) : next(err));
    ((operation.key === undefined ? undefined : largeParsers.get(operation.key)) ?? parseJson)(req, res, proceed);
  });
  for (const mount of mounts) mount(app, services);

  // Parsed JSON that would slip through or crash validation (the webhook's body is parsed by its mount).
  app.use('/api', (req: Request, _res: Response, next: NextFunction) => {
    const problem = req.body === undefined ? null : hostileJson(req.body);
    next(problem === null ? undefined : new DeskError(400, 'malformed_body', `The request body ${problem}`));
  });
  RegisterRoutes(app);
  app.use('/api', (_req: Request, res: Response) => send(res, 404, { error: 'not_found', message: 'No such API route' }));

  if (services.config.uiDir && fs.existsSync(path.join(services.config.uiDir, 'index.html'))) {
    const uiDir = services.config.uiDir;
    app.use(express.static(uiDir, { index: false, maxAge: '1h' }));
    app.get('*', (req: Request, res: Response, next: NextFunction) => {
      // Client routes (/settings) get the app; a missing file (an old chunk after an upgrade) is a 404,
      // not index.html served as JavaScript.
      if (path.extname(req.path) !== '') return next();
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(path.join(uiDir, 'index.html'));
    });
  } else {
    app.get('/', (_req: Request, res: Response) => {
      res.type('text/plain').send('Desk API is running. The web UI is not built: run `npm run build`, or `npm start`, which builds it.');
    });
  }
  app.use((_req: Request, res: Response) => {
    res.status(404).type('text/plain').send('Not found');
  });

  app.use(errorHandler(log, services.diskSpace, onDatabaseDamage));
  return app;
}
