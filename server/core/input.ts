import { invalid } from './errors';

/** Input rules every area shares: bulk id lists and web links. */

/** Spec: at most 50 ids per bulk call, for every area. */
export const MAX_BULK_IDS = 50;
export const MAX_ID_LENGTH = 100;
export const MAX_URL_LENGTH = 2000;

/** The id list of a bulk call: 1-50 non-empty ids, duplicates folded, order kept. */
export function checkIdList(ids: unknown, field: string): string[] {
  if (!Array.isArray(ids) || ids.length < 1 || ids.length > MAX_BULK_IDS) {
    throw invalid(field, `must hold 1-${MAX_BULK_IDS} ids`);
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
