import crypto from 'node:crypto';
import type { Request } from 'express';
import { DeskError } from '../core/errors';
import { servicesOf } from './ioc';

// One-shot hashing (Node >= 20.12) skips building a Hash object per request.
const sha256 = (value: string): Buffer =>
  typeof crypto.hash === 'function' ? (crypto.hash('sha256', value, 'buffer') as unknown as Buffer) : crypto.createHash('sha256').update(value).digest();

/** The digest of the expected token, computed once per token value (it changes only on rotation). */
let expectedDigest: { token: string; digest: Buffer } | null = null;

function digestOfExpected(expected: string): Buffer {
  if (expectedDigest?.token !== expected) expectedDigest = { token: expected, digest: sha256(expected) };
  return expectedDigest.digest;
}

/** Constant-time comparison; hashing first keeps the length of the token from leaking too. */
export function tokenMatches(given: string, expected: string): boolean {
  return crypto.timingSafeEqual(sha256(given), digestOfExpected(expected));
}

/**
 * Requests whose bearer token was already checked, with the token it matched: app.ts checks it
 * before reading a body and tsoa's route checks it again; the second check need not hash again.
 */
const verified = new WeakMap<Request, string>();

export function bearerOf(req: Request): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

/**
 * What a keep-alive connection last showed with the right token (its Authorization header, or the
 * inbound webhook's path token), and that token: its next requests showing the very same value need
 * no hashing. Only a connection that has already shown the token is ever compared this way, so the
 * plain comparison tells it nothing new; a rotated token no longer matches the kept one.
 */
const verifiedOnSocket = new WeakMap<object, { shown: string; expected: string }>();

/** True when `req`'s connection already showed `shown` for the token `expected`. */
function shownBefore(req: Request, shown: string | undefined, expected: string): boolean {
  const kept = req.socket ? verifiedOnSocket.get(req.socket) : undefined;
  return kept !== undefined && kept.expected === expected && kept.shown === shown;
}

function rememberShown(req: Request, shown: string | undefined, expected: string): void {
  if (req.socket && shown !== undefined) verifiedOnSocket.set(req.socket, { shown, expected });
}

/** The inbound webhook's path token against the workspace token (hashed once per keep-alive connection). */
export function pathTokenMatches(req: Request, token: string, expected: string): boolean {
  if (shownBefore(req, token, expected)) return true;
  if (!tokenMatches(token, expected)) return false;
  rememberShown(req, token, expected);
  return true;
}

/** The bearer check, synchronously: null when the request carries the workspace token, else the 401 to answer. */
export function bearerProblem(req: Request): DeskError | null {
  const expected = servicesOf(req).token;
  if (verified.get(req) === expected) return null;
  const header = req.headers.authorization;
  if (shownBefore(req, header, expected)) {
    verified.set(req, expected);
    return null;
  }
  const given = bearerOf(req);
  if (given === null) return new DeskError(401, 'unauthorized', 'Missing bearer token: send Authorization: Bearer <token>');
  if (!tokenMatches(given, expected)) return new DeskError(401, 'unauthorized', 'Invalid bearer token');
  verified.set(req, expected);
  rememberShown(req, header, expected);
  return null;
}

/** tsoa authentication module: every route marked @Security('bearer') passes through here. */
export async function expressAuthentication(req: Request, securityName: string): Promise<unknown> {
  if (securityName !== 'bearer') throw new DeskError(500, 'internal_error', `Unknown security scheme ${securityName}`);
  const problem = bearerProblem(req);
  if (problem !== null) throw problem;
  return { workspace: true };
}
