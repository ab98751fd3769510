import { invalid } from './errors';

/** Input rules every area shares: bulk id lists, web links and email addresses. */

/**
 * Spec: at most 50 ids per bulk call, for every area. Bulk bodies document the same bounds
 * (`@minItems 1 @maxItems 50`); server/openapi/rules.ts holds each against these constants.
 */
export const MIN_BULK_IDS = 1;
export const MAX_BULK_IDS = 50;
export const MAX_ID_LENGTH = 100;
export const MAX_URL_LENGTH = 2000;

/** The id list of a bulk call: 1-50 non-empty ids, duplicates folded, order kept. */
export function checkIdList(ids: unknown, field: string): string[] {
  if (!Array.isArray(ids) || ids.length < MIN_BULK_IDS || ids.length > MAX_BULK_IDS) {
    throw invalid(field, `must hold ${MIN_BULK_IDS}-${MAX_BULK_IDS} ids`);
  }
  ids.forEach((id, i) => {
    if (typeof id !== 'string' || id.length < 1 || id.length > MAX_ID_LENGTH) {
      throw invalid(`${field}[${i}]`, `must be an id of 1-${MAX_ID_LENGTH} characters`);
    }
  });
  return [...new Set(ids as string[])];
}

/** An absolute http(s) link of at most 2000 characters; returns it trimmed. */
export function checkHttpUrl(field: string, value: string): string {
  const trimmed = value.trim();
  let url: URL | null = null;
  try {
    url = new URL(trimmed);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || trimmed.length > MAX_URL_LENGTH) {
    throw invalid(field, `must be an http(s) URL of at most ${MAX_URL_LENGTH} characters`);
  }
  return trimmed;
}

export const MAX_EMAIL_LENGTH = 254;
// No whitespace, control characters or lone surrogates anywhere in the address.
const EMAIL_PATTERN = /^[^\s@\p{Cc}\p{Cs}]+@[^\s@\p{Cc}\p{Cs}]+\.[^\s@\p{Cc}\p{Cs}]+$/u;
export function checkEmail(field: string, email: string): void {
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(email)) throw invalid(field, 'must be an email address');
}
