/**
 * Guards in front of every route, before anything is parsed or served:
 * - the Host allow-list (DNS rebinding: a web page whose name now resolves to 127.0.0.1 would
 *   otherwise talk to Desk as a same-origin page, token-free UI and docs included);
 * - foreign Origins refused on state-changing requests (cross-site form posts);
 * - which /api/v1 operations are public, read from the OpenAPI document (tsoa's @Security is the
 *   one source), so the token is checked before a body is read;
 * - hostile JSON (non-finite numbers, absurd nesting) refused before validation.
 */
import type { NextFunction, Request, Response } from 'express';
import type { ErrorBody } from './core/errors';
import { sentence } from './core/sentence';

/** Where a request arrived: the port and address of the listening socket. */
export interface Arrival {
  localPort: number | undefined;
  localAddress: string | undefined;
}

/** `name` as the URL parser normalises it (lower case, IPv6 in brackets) and the port (80 when absent). */
function hostAndPort(authority: string): { name: string; port: number } | null {
  if (authority === '' || /[/?#@\s\\]/.test(authority)) return null;
  try {
    const url = new URL(`http://${authority}`);
    return { name: url.hostname, port: url.port === '' ? 80 : Number(url.port) };
  } catch {
    return null;
  }
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** Names that can only mean this machine, so a page cannot rebind them to Desk. */
export function isLoopbackName(name: string): boolean {
  return name === 'localhost' || name === '[::1]' || (IPV4.test(name) && name.startsWith('127.'));
}

/** An IP address written as the URL parser writes a hostname (IPv4-mapped IPv6 unwrapped). */
function addressAsHostname(address: string | undefined): string | null {
  if (!address) return null;
  const v4 = /^::ffff:(\d{1,3}(\.\d{1,3}){3})$/i.exec(address);
  if (v4) return v4[1];
  return address.includes(':') ? `[${address.toLowerCase()}]` : address;
}

/**
 * Host names a request may name: loopback names, the configured DESK_HOST (unless it is a
 * wildcard bind address), and the IP address the connection arrived on (an IP literal cannot be
 * rebound, and it is how a desk bound to 0.0.0.0 is reached from the LAN). Always with the
 * desk's own port.
 */
export function hostAllowed(hostHeader: string | undefined, configuredHost: string, arrival: Arrival): boolean {
  if (hostHeader === undefined) return false;
  const host = hostAndPort(hostHeader);
  if (host === null) return false;
  if (arrival.localPort !== undefined && host.port !== arrival.localPort) return false;
  if (isLoopbackName(host.name)) return true;
  if (host.name === addressAsHostname(arrival.localAddress)) return true;
  const configured = configuredHost === '0.0.0.0' || configuredHost === '::' ? null : hostAndPort(configuredHost.includes(':') && !configuredHost.startsWith('[') ? `[${configuredHost}]` : configuredHost);
  return configured !== null && host.name === configured.name;
}

/** An Origin header names one of the desk's own addresses (any allowed host, same port). */
export function originAllowed(origin: string, configuredHost: string, arrival: Arrival): boolean {
  const m = /^https?:\/\/([^/]+)$/i.exec(origin);
  return m !== null && hostAllowed(m[1], configuredHost, arrival);
}

/** The inbound webhook: a tunnel or relay reaches it under another host name; its token guards it. */
export function isWebhookPath(urlPath: string): boolean {
  return urlPath.toLowerCase().startsWith('/api/webhooks/');
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function refuse(res: Response, status: number, body: ErrorBody): void {
  res.status(status).json({ ...body, message: sentence(body.message) });
}

/** 421 for a foreign Host, 403 for a state-changing request from a foreign Origin. */
export function hostAndOriginGuard(configuredHost: string) {
  // Every request asks about the same few Host values: remember the verdicts (bounded, since a
  // client chooses the header).
  const verdicts = new Map<string, boolean>();
  const allowed = (host: string | undefined, arrival: Arrival): boolean => {
    const key = `${host}|${arrival.localPort}|${arrival.localAddress}`;
    let verdict = verdicts.get(key);
    if (verdict === undefined) {
      verdict = hostAllowed(host, configuredHost, arrival);
      if (verdicts.size >= 64) verdicts.clear();
      verdicts.set(key, verdict);
    }
    return verdict;
  };
  return (req: Request, res: Response, next: NextFunction): void => {
    if (isWebhookPath(req.path)) return next();
    const arrival = { localPort: req.socket.localPort, localAddress: req.socket.localAddress };
    if (!allowed(req.headers.host, arrival)) {
      return refuse(res, 421, {
        error: 'host_not_allowed',
        message: `Desk answers only to its own addresses (localhost, 127.0.0.1, [::1] or DESK_HOST) with its port, not to Host "${String(req.headers.host ?? '').slice(0, 100)}"`,
      });
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !SAFE_METHODS.has(req.method) && !originAllowed(origin, configuredHost, arrival)) {
      return refuse(res, 403, { error: 'origin_not_allowed', message: `Changes are not accepted from pages of another origin (${origin.slice(0, 100)})` });
    }
    next();
  };
}

/** Which operations of the OpenAPI document exist, and which of them take no token. */
export interface OperationTable {
  /**
   * undefined: no such operation (the request will be a 404, so its body is never read). `key`,
   * for an operation without path parameters: "METHOD /path" in lower case (HEAD as GET).
   * `operationId`: the operation's, as the document names it.
   */
  match(method: string, urlPath: string): Readonly<{ public: boolean; key?: string; operationId?: string }> | undefined;
}

interface OpenApiLike {
  security?: Record<string, unknown>[];
  paths?: Record<string, Record<string, { security?: Record<string, unknown>[]; operationId?: string } | unknown>>;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

export function operationTable(openApi: object): OperationTable {
  const document = openApi as OpenApiLike;
  // Paths without parameters are looked up directly ("GET /api/v1/workspace"); the others are
  // matched one by one. Express routes match case-insensitively and forgive a trailing slash: so does this.
  // The answers for fixed paths are made once (read-only to callers): no object per request.
  const exact = new Map<string, { public: boolean; key: string; operationId?: string }>();
  const templated: { method: string; pattern: RegExp; public: boolean; operationId?: string }[] = [];
  for (const [template, item] of Object.entries(document.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) continue;
      const { security = document.security ?? [], operationId } = op as { security?: Record<string, unknown>[]; operationId?: string };
      // No requirement, or an empty one ({}), means the operation is public.
      const verdict = { public: security.length === 0 || security.some((s) => Object.keys(s).length === 0), ...(operationId === undefined ? {} : { operationId }) };
      if (!template.includes('{')) {
        const key = `${method.toUpperCase()} ${template.toLowerCase()}`;
        exact.set(key, { ...verdict, key });
        continue;
      }
      const source = template
        .split(/(\{[^}]+\})/)
        .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('');
      templated.push({ method: method.toUpperCase(), pattern: new RegExp(`^${source}/?$`, 'i'), ...verdict });
    }
  }
  return {
    match(method, urlPath) {
      const m = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
      const key = `${m} ${urlPath.toLowerCase().replace(/(.)\/$/, '$1')}`;
      const hit = exact.get(key);
      if (hit) return hit;
      const row = templated.find((r) => r.method === m && r.pattern.test(urlPath));
      return row ? { public: row.public, ...(row.operationId === undefined ? {} : { operationId: row.operationId }) } : undefined;
    },
  };
}

/** Deeper than any request Desk accepts, far below what overflows a recursive validator. */
export const MAX_JSON_DEPTH = 64;

/**
 * Why a parsed JSON body is refused, or null. Iterative and O(size): JSON turns 1e400 into
 * Infinity (which a later clone turns into null, silently clearing a field), and thousands of
 * nested arrays overflow the stack of tsoa's recursive union validation.
 */
export function hostileJson(value: unknown, maxDepth = MAX_JSON_DEPTH): string | null {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const v = values.pop();
    const depth = depths.pop() as number;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return 'holds a number out of range (JSON numbers must be finite)';
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= maxDepth) return `is nested deeper than ${maxDepth} levels`;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      values.push(child);
      depths.push(depth + 1);
    }
  }
  return null;
}
