import crypto from 'node:crypto';
import { invalid } from '../../core/errors';

/**
 * Scoped ingest URLs: per-source tokens that can only push signals to their source through the
 * inbound webhook. Pure rules: the token's shape, its hash and hint, the label and the cap.
 */

/** Every scoped token starts with this, so it is recognisable (in a leak scan, in a config file). */
export const INGEST_TOKEN_PREFIX = 'dski_';
/** Active (unrevoked) scoped URLs per source; one per sending service is the idea. */
export const MAX_INGEST_TOKENS_PER_SOURCE = 10;
export const MAX_INGEST_TOKEN_LABEL_LENGTH = 100;
/** Characters of the token kept in its hint (after the prefix). */
const HINT_TAIL = 4;

/** A new token: the prefix and 256 random bits, base64url. */
export function newIngestToken(): string {
  return `${INGEST_TOKEN_PREFIX}${crypto.randomBytes(32).toString('base64url')}`;
}

export const isScopedToken = (token: string): boolean => token.startsWith(INGEST_TOKEN_PREFIX) && token.length <= 200;

/** What is stored instead of the token: SHA-256, hex. A 256-bit random token needs no slow hash. */
export function hashIngestToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** Enough of the token to recognise it in a list, not enough to use it: `dski_…AbC9`. */
export function ingestTokenHint(token: string): string {
  return `${INGEST_TOKEN_PREFIX}…${token.slice(-HINT_TAIL)}`;
}

/** The label (trimmed, 1-100 characters); without one, the source's label. */
export function checkIngestTokenLabel(label: unknown, fallback: string): string {
  if (label === undefined || label === null) return fallback.slice(0, MAX_INGEST_TOKEN_LABEL_LENGTH);
  const text = typeof label === 'string' ? label.trim() : '';
  if (text.length < 1 || text.length > MAX_INGEST_TOKEN_LABEL_LENGTH) {
    throw invalid('label', `must be 1-${MAX_INGEST_TOKEN_LABEL_LENGTH} characters and not only spaces`);
  }
  return text;
}

export const WEBHOOK_PATH = '/api/webhooks/signals/';

/** The inbound webhook URL for a token (the workspace token or a scoped one) on a base URL. */
export function webhookUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${WEBHOOK_PATH}${encodeURIComponent(token)}`;
}
