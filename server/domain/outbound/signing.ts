import crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): `webhook-id` (the event id, the
 * same on every retry), `webhook-timestamp` (seconds, per attempt) and `webhook-signature`
 * (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`) over the exact bytes sent. Signed with the
 * reference `standardwebhooks` package, so any receiver library verifies it in one line.
 */

export const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and 32 random bytes, base64 (the format the libraries take). */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${crypto.randomBytes(32).toString('base64')}`;
}

/** Enough to recognise a secret, not to use it: `whsec_…AbC9`. */
export function secretHint(secret: string): string {
  return `${SECRET_PREFIX}…${secret.slice(-4)}`;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three Standard Webhooks headers for one attempt of `payload`. */
export function signDelivery(secret: string, webhookId: string, at: Date, payload: string): SignedHeaders {
  const signature = new Webhook(secret).sign(webhookId, at, payload);
  return { 'webhook-id': webhookId, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
}
