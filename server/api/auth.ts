import crypto from 'node:crypto';
import type { Request } from 'express';
import { DeskError } from '../core/errors';
import { servicesOf } from './ioc';

/** Constant-time comparison; hashing first keeps the length of the token from leaking too. */
export function tokenMatches(given: string, expected: string): boolean {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

export function bearerOf(req: Request): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

/** tsoa authentication module: every route marked @Security('bearer') passes through here. */
export async function expressAuthentication(req: Request, securityName: string): Promise<unknown> {
  if (securityName !== 'bearer') throw new DeskError(500, 'internal_error', `Unknown security scheme ${securityName}`);
  const given = bearerOf(req);
  if (given === null) throw new DeskError(401, 'unauthorized', 'Missing bearer token: send Authorization: Bearer <token>');
  if (!tokenMatches(given, servicesOf(req).token)) throw new DeskError(401, 'unauthorized', 'Invalid bearer token');
  return { workspace: true };
}
