import { DELIVERY_TIMEOUT_MS, RESPONSE_EXCERPT_BYTES } from './rules';

/**
 * One webhook POST, with no domain knowledge: the answer's status, the first bytes of its body,
 * Retry-After and Location, or the transport error. Never throws. Redirects are not followed (a
 * 3xx is reported with its Location: a receiver that moved must be re-subscribed by the operator,
 * never followed silently to another origin). At most RESPONSE_EXCERPT_BYTES of the body are read.
 */

export interface PostResult {
  /** The HTTP status; null when no answer came (refused, timeout, DNS, aborted). */
  statusCode: number | null;
  /** What went wrong, in words; null for an answer (whatever its status). */
  error: string | null;
  /** The answer's first bytes as text (at most RESPONSE_EXCERPT_BYTES). */
  excerpt: string | null;
  retryAfter: string | null;
  location: string | null;
  /** True when `stop` aborted it (the desk is stopping): not a receiver failure. */
  aborted: boolean;
}

export interface PostOptions {
  timeoutMs?: number;
  /** Aborts the request when the desk stops. */
  stop?: AbortSignal;
}

export async function postWebhook(url: string, headers: Record<string, string>, body: string, options: PostOptions = {}): Promise<PostResult> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DELIVERY_TIMEOUT_MS);
  const signal = options.stop ? AbortSignal.any([timeout, options.stop]) : timeout;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Desk-Webhooks/1', ...headers },
      body,
      redirect: 'manual',
      signal,
    });
    const excerpt = await readExcerpt(res);
    return { statusCode: res.status, error: null, excerpt, retryAfter: res.headers.get('retry-after'), location: res.headers.get('location'), aborted: false };
  } catch (err) {
    const aborted = options.stop?.aborted === true;
    const error = timeout.aborted ? `no answer within ${Math.round((options.timeoutMs ?? DELIVERY_TIMEOUT_MS) / 1000)} s` : describe(err);
    return { statusCode: null, error: aborted ? 'the desk stopped during the attempt' : error, excerpt: null, retryAfter: null, location: null, aborted };
  }
}

async function readExcerpt(res: Response): Promise<string | null> {
  if (!res.body) return null;
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < RESPONSE_EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // A body cut off mid-way still leaves the status: keep what arrived.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  if (size === 0) return null;
  const bytes = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES);
  // A multi-byte character cut at the limit decodes as U+FFFD; drop it.
  return bytes.toString('utf8').replace(/\uFFFD$/, '');
}

function describe(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code}${cause.message ? `: ${cause.message}` : ''}`.slice(0, 300);
  return (err instanceof Error ? err.message : String(err)).slice(0, 300);
}
