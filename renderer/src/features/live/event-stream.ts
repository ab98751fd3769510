import { createParser } from 'eventsource-parser';

/**
 * The desk's event stream (GET /api/v1/events/stream) read with fetch, not the browser's EventSource:
 * EventSource cannot send the bearer token in a header, and the token must not travel in a URL (it
 * would reach history and logs). Parsing is eventsource-parser's (the parser behind the `eventsource`
 * package the desk's tests use); what is ours is the connection: Last-Event-ID on every reconnect,
 * a backoff that grows while the desk is unreachable, and a stop on 401.
 */

/** One event of the outbox, as the stream sends it (the envelope webhooks get). */
export interface DeskEvent {
  id: string;
  event: string;
  createdAt: string;
  data: unknown;
}

export type StreamStatus = 'connecting' | 'open' | 'down';

export interface EventStreamHandlers {
  /** Events in the order the desk committed them. */
  onEvent(event: DeskEvent): void;
  /** The events after our Last-Event-ID are gone (or we have none that the desk knows): reload everything. */
  onResync(): void;
  onStatus(status: StreamStatus): void;
  /** The token sent (`sentToken`) was refused: the stream stops. */
  onUnauthorized(sentToken: string | null): void;
}

export interface EventStreamOptions extends EventStreamHandlers {
  url: string;
  getToken: () => string | null;
  /** Takes a Request, as the API client's fetch does (tests fake one for both). */
  fetch?: (input: Request) => Promise<Response>;
  /** Timers, replaceable in tests. */
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** Backoff: the first wait after a drop, and the longest. */
  minDelayMs?: number;
  maxDelayMs?: number;
}

/** The first wait after a drop (the desk's own `retry` hint raises it), ms. */
export const RECONNECT_MIN_MS = 1_000;
/** The longest wait between attempts while the desk stays unreachable, ms. */
export const RECONNECT_MAX_MS = 30_000;

const RESYNC_EVENT = 'stream.resync';

/** The wait before attempt `n` (0-based) of a row of failures: doubling from `min`, capped at `max`. */
export function backoffDelay(attempt: number, min: number, max: number): number {
  return Math.min(max, min * 2 ** Math.min(attempt, 16));
}

function parseEnvelope(data: string, id: string | undefined): DeskEvent | typeof RESYNC_EVENT | null {
  let body: unknown;
  try {
    body = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null) return null;
  const envelope = body as Partial<DeskEvent>;
  if (envelope.event === RESYNC_EVENT) return RESYNC_EVENT;
  if (typeof envelope.event !== 'string') return null;
  return { id: typeof envelope.id === 'string' ? envelope.id : (id ?? ''), event: envelope.event, createdAt: String(envelope.createdAt ?? ''), data: envelope.data };
}

/**
 * Opens the stream and keeps it open until `close()`: after a drop it reconnects with the id of the
 * last event it saw, waiting `backoffDelay` (reset once a connection opens).
 */
export function openEventStream(options: EventStreamOptions): { close(): void } {
  // Looked up per request, so a fetch installed later (tests) is used.
  const doFetch = options.fetch ?? ((input: Request) => globalThis.fetch(input));
  const setTimer = options.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const clearTimer = options.clearTimer ?? ((h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>));
  const maxDelay = options.maxDelayMs ?? RECONNECT_MAX_MS;
  let minDelay = options.minDelayMs ?? RECONNECT_MIN_MS;
  let lastEventId: string | null = null;
  let failures = 0;
  let closed = false;
  let timer: unknown = null;
  let abort: AbortController | null = null;

  const parser = createParser({
    onEvent(message) {
      const parsed = parseEnvelope(message.data, message.id);
      if (message.id) lastEventId = message.id;
      if (parsed === RESYNC_EVENT) options.onResync();
      else if (parsed) options.onEvent(parsed);
    },
    onRetry(ms) {
      // The desk's hint is a floor: never reconnect faster than it asks.
      minDelay = Math.max(options.minDelayMs ?? RECONNECT_MIN_MS, ms);
    },
  });

  const scheduleReconnect = () => {
    if (closed) return;
    options.onStatus('down');
    const wait = backoffDelay(failures, minDelay, maxDelay);
    failures += 1;
    timer = setTimer(() => {
      timer = null;
      void connect();
    }, wait);
  };

  async function connect(): Promise<void> {
    if (closed) return;
    options.onStatus('connecting');
    abort = new AbortController();
    const headers: Record<string, string> = { Accept: 'text/event-stream' };
    const token = options.getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (lastEventId) headers['Last-Event-ID'] = lastEventId;
    parser.reset();
    let response: Response;
    try {
      response = await doFetch(new Request(options.url, { headers, signal: abort.signal, cache: 'no-store' }));
    } catch {
      scheduleReconnect();
      return;
    }
    if (closed) return;
    if (response.status === 401) {
      closed = true;
      options.onStatus('down');
      options.onUnauthorized(token);
      return;
    }
    if (!response.ok || !response.body) {
      scheduleReconnect();
      return;
    }
    failures = 0;
    options.onStatus('open');
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch {
      // The connection broke (or close() aborted it): reconnect below unless closed.
    }
    scheduleReconnect();
  }

  void connect();
  return {
    close() {
      closed = true;
      if (timer !== null) clearTimer(timer);
      abort?.abort();
    },
  };
}
