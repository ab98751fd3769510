/**
 * One chat-completions request as the cycle sends it: bounded, retried the way a real provider
 * asks (Retry-After on a 429 or 503 honoured, within reason), cancellable, and turned into an
 * EngineError in the provider's own words (redacted) when it fails. The SDK's own retries are off:
 * its waits cannot be cancelled with the cycle, and Desk decides which failures may be paid twice.
 */
import OpenAI from 'openai';
import { CycleCancelledError, EngineError } from '../types';
import { refusesFormat } from './answer-format';
import { providerError } from './errors';

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type Format = Pick<OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming, 'response_format' | 'tools' | 'tool_choice'>;

/** A wait longer than this is not waited for: the cycle fails, saying what the provider asked. */
export const MAX_RETRY_WAIT_MS = 60_000;
/** Without a Retry-After, the waits between tries: 1 s, 2 s, 4 s ... */
export const BACKOFF_BASE_MS = 1_000;

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** A real wait, ended early (rejecting) by the signal. */
export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new CycleCancelledError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CycleCancelledError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export interface CallerOptions {
  client: OpenAI;
  model: string;
  /** Hosts that take `max_tokens` rather than `max_completion_tokens` (see tokenParamFor). */
  baseUrl: string;
  /** Tries after the first for a failure worth trying again (connection refused or reset, 408, 409, 429, 5xx). */
  maxRetries: number;
  secrets: readonly string[];
  sleep: Sleep;
  /** For a Retry-After given as an HTTP date. */
  now: () => number;
}

/**
 * OpenAI wants `max_completion_tokens` (its reasoning models refuse `max_tokens`); the servers
 * people run themselves and most gateways know `max_tokens`. A server that refuses the one it was
 * sent is sent the other (remembered for the engine's life).
 */
export function tokenParamFor(baseUrl: string): 'max_completion_tokens' | 'max_tokens' {
  try {
    const host = new URL(baseUrl).hostname;
    return host === 'api.openai.com' || host.endsWith('.openai.azure.com') ? 'max_completion_tokens' : 'max_tokens';
  } catch {
    return 'max_tokens';
  }
}

const RETRYABLE = new Set([408, 409, 429, 500, 502, 503, 504]);

/** The wait a failed response asks for (retry-after-ms, Retry-After in seconds or as a date), if any. */
export function retryAfterMs(headers: Headers | undefined, now: number): number | null {
  const ms = Number(headers?.get('retry-after-ms') ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers?.get('retry-after');
  if (!raw) return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export class ChatCaller {
  private tokenParam: 'max_completion_tokens' | 'max_tokens';

  constructor(private readonly o: CallerOptions) {
    this.tokenParam = tokenParamFor(o.baseUrl);
  }

  async call(messages: Message[], format: Format, maxOutputTokens: number, signal?: AbortSignal): Promise<OpenAI.Chat.Completions.ChatCompletion> {
    let switched = false;
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw new CycleCancelledError();
      try {
        return await this.o.client.chat.completions.create(
          { model: this.o.model, messages, ...format, [this.tokenParam]: maxOutputTokens },
          { signal, maxRetries: 0 },
        );
      } catch (err) {
        if (err instanceof OpenAI.APIUserAbortError || signal?.aborted) throw new CycleCancelledError();
        if (!switched && this.refusesTokenParam(err)) {
          switched = true;
          this.tokenParam = this.tokenParam === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens';
          attempt--;
          continue;
        }
        // The caller tries the next way of asking for a structured answer.
        if (refusesFormat(err)) throw err;
        const status = err instanceof OpenAI.APIError ? err.status : undefined;
        // A timed-out request may have been answered and billed: it is not sent again.
        const retryable = err instanceof OpenAI.APIConnectionTimeoutError ? false : err instanceof OpenAI.APIConnectionError || (status !== undefined && RETRYABLE.has(status));
        if (!retryable || attempt >= this.o.maxRetries) throw providerError(err, this.o.secrets);
        const asked = err instanceof OpenAI.APIError ? retryAfterMs(err.headers as Headers | undefined, this.o.now()) : null;
        const wait = asked ?? BACKOFF_BASE_MS * 2 ** attempt;
        if (wait > MAX_RETRY_WAIT_MS) {
          const base = providerError(err, this.o.secrets);
          throw new EngineError(`${base.message.replace(/\.$/, '')}; it asks to wait ${Math.ceil(wait / 1000)} s before trying again, longer than a cycle waits. The next cycle tries again.`);
        }
        await this.o.sleep(wait, signal);
      }
    }
  }

  private refusesTokenParam(err: unknown): boolean {
    if (!(err instanceof OpenAI.APIError) || (err.status !== 400 && err.status !== 422)) return false;
    const body = err.error as { message?: unknown; param?: unknown } | undefined;
    const text = `${typeof body?.message === 'string' ? body.message : err.message} ${typeof body?.param === 'string' ? body.param : ''}`;
    return text.includes(this.tokenParam);
  }
}
