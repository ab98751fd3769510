import { FeedError } from './feed-error';

export const FEED_TIMEOUT_MS = 10_000;
export const FEED_MAX_BYTES = 5 * 1024 * 1024;

export interface FetchFeedOptions {
  /** Validators from the previous answer: sent as If-None-Match / If-Modified-Since. */
  etag?: string | null;
  lastModified?: string | null;
  timeoutMs?: number;
  maxBytes?: number;
}

export type FetchFeedResult =
  | { notModified: true }
  | { notModified: false; text: string; etag: string | null; lastModified: string | null };

const ACCEPT =
  'application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.9, application/json;q=0.8, */*;q=0.5';

function describeCause(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}

/** Reads the body stream and gives up as soon as it passes the cap, so a huge answer never sits in memory. */
async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number, host: string): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new FeedError('feed_too_large', `The answer from ${host} is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** Charset from the Content-Type header, else from the XML declaration, else UTF-8. */
export function decodeBody(bytes: Uint8Array, contentType: string | null): string {
  let label = /charset=["']?([\w-]+)/i.exec(contentType ?? '')?.[1];
  if (!label) {
    const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
    label = /^\s*<\?xml[^>]*encoding=["']([\w-]+)["']/i.exec(head)?.[1];
  }
  try {
    return new TextDecoder(label ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/**
 * One conditional GET of a feed, with a timeout over the whole exchange and a size cap.
 * 304 is a success without a body. Every failure is a FeedError with a code and a plain message.
 */
export async function fetchFeed(url: string, options: FetchFeedOptions = {}): Promise<FetchFeedResult> {
  const timeoutMs = options.timeoutMs ?? FEED_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? FEED_MAX_BYTES;
  const host = new URL(url).host;
  const headers: Record<string, string> = { accept: ACCEPT, 'user-agent': 'Desk feed reader (+local)' };
  if (options.etag) headers['if-none-match'] = options.etag;
  if (options.lastModified) headers['if-modified-since'] = options.lastModified;

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const timeoutError = () => new FeedError('feed_timeout', `${host} did not answer within ${Math.round(timeoutMs / 1000)} s`);
  try {
    let res: Response;
    try {
      res = await fetch(url, { headers, signal: controller.signal, redirect: 'follow' });
    } catch (err) {
      if (controller.signal.aborted) throw timeoutError();
      throw new FeedError('feed_unreachable', `Could not reach ${host} (${describeCause(err)})`);
    }
    if (res.status === 304) {
      await res.body?.cancel().catch(() => undefined);
      return { notModified: true };
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw new FeedError('feed_http_error', `${host} answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`);
    }
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > maxBytes) {
      await res.body?.cancel().catch(() => undefined);
      throw new FeedError('feed_too_large', `The answer from ${host} is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
    }
    let bytes: Uint8Array;
    try {
      bytes = await readCapped(res.body, maxBytes, host);
    } catch (err) {
      if (err instanceof FeedError) throw err;
      if (controller.signal.aborted) throw timeoutError();
      throw new FeedError('feed_unreachable', `The connection to ${host} broke off (${describeCause(err)})`);
    }
    return {
      notModified: false,
      text: decodeBody(bytes, res.headers.get('content-type')),
      etag: res.headers.get('etag'),
      lastModified: res.headers.get('last-modified'),
    };
  } finally {
    clearTimeout(timer);
  }
}
