import crypto from 'node:crypto';
import { EventSource, type FetchLike } from 'eventsource';
import type { Clock } from '../../core/clock';

/**
 * Relay client for the smee protocol (smee.io or a self-hosted smee/gosmee server).
 *
 * The desk usually sits behind NAT, so senders post to a public relay channel instead; the relay
 * streams every request it received to us as Server-Sent Events, and we hand each one's body to
 * the desk in-process, through the `deliver` callback (wired in server/start.ts to the signal
 * service's inbound path, the one the webhook uses). Nothing goes over HTTP, so no rate limit of
 * the webhook applies to relayed events and no event is lost to one. The relay can only ever add
 * signals: nothing in an event chooses another target, and no header of the relayed request (host,
 * authorization, cookies, forwarding headers ...) is passed on; only its idempotency key is derived.
 */

export type RelayState = 'disabled' | 'connecting' | 'connected' | 'error';
/** Where the channel comes from: the workspace setting, or the DESK_RELAY_URL default. */
export type RelaySource = 'workspace' | 'env';

export interface RelayStatus {
  /** A channel is set and the client is running (connected or trying to). */
  configured: boolean;
  /** The channel URL. It is a capability (anyone who knows it can post to the desk), so only the bearer API shows it. */
  channelUrl: string | null;
  source: RelaySource | null;
  state: RelayState;
  /** Start of the current connection, or of the last one. */
  connectedAt: string | null;
  /** When the last relayed request arrived. */
  lastEventAt: string | null;
  lastDeliveryAt: string | null;
  /** Outcome of the last delivery, as the webhook would answer it: 201 stored, 4xx refused (e.g. 422 invalid), 5xx failed. */
  lastDeliveryStatus: number | null;
  lastError: string | null;
  lastErrorAt: string | null;
  /** Relayed requests the desk accepted (2xx) on this channel. */
  deliveredCount: number;
  /** Relayed requests that could not be delivered (refused, unreadable, or failing after every try). */
  failedCount: number;
  /** Reconnections on this channel since it was set (each lost or failed connection counts one). */
  reconnectAttempts: number;
  /** When the next connection attempt is due while the relay is in the error state. */
  nextReconnectAt: string | null;
}

/**
 * The outcome of handing one relayed request to the desk, in the webhook's HTTP terms: 2xx stored
 * (or replayed), 4xx refused (not retried: the request itself is wrong), 5xx failed (retried).
 */
export interface RelayDeliveryOutcome {
  status: number;
  /** Why it was refused or failed (shown in the status; never contains a secret). */
  message?: string;
}

/** One relayed request for the desk: the body as the sender posted it, and the key that makes a repeat harmless. */
export interface RelayedRequest {
  body: unknown;
  /** Absent when the body carries its own `idempotencyKey`. */
  idempotencyKey?: string;
}

/** Stores one relayed request (server/start.ts passes the signal service's inbound path). May throw: that counts as a 5xx. */
export type RelayDeliver = (request: RelayedRequest) => Promise<RelayDeliveryOutcome>;

export interface RelayClientOptions {
  clock: Clock;
  /** Where relayed requests go: in-process, never over HTTP. */
  deliver: RelayDeliver;
  /** First reconnect delay; doubles per failed attempt. Default 1 s. */
  minDelayMs?: number;
  /** Longest reconnect delay. Default 60 s. */
  maxDelayMs?: number;
  /** Time the relay has to answer the stream request. Default 30 s. */
  connectTimeoutMs?: number;
  /** Once the relay has sent a keep-alive ping, this much silence counts as a dead connection. Default 120 s. */
  idleTimeoutMs?: number;
  /** Tries per relayed request when delivery fails (throws or 5xx). Default 3. */
  deliveryAttempts?: number;
  /**
   * Relayed requests waiting for delivery; more are dropped (and counted as failed). Default 20,000:
   * a relay replays a backlog in one burst, and each waiting request is only its parsed event.
   */
  maxQueued?: number;
  /** Total size of the events waiting (their raw data); past it new ones are dropped (and counted as failed). Default 64 MiB. */
  maxQueuedBytes?: number;
  /** Connections and failures are logged here (never the channel URL: it is a capability). */
  log?: { info(message: string): void; warn(message: string): void };
}

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const SAFE_KEY = /^[\x21-\x7e]{1,200}$/;
/** Headers of the relayed request that identify it, in order of preference. */
const KEY_HEADERS = ['idempotency-key', 'x-github-delivery', 'x-request-id'];

/**
 * The Idempotency-Key for a relayed request: the sender's own key or delivery id when it has one,
 * else a hash of the whole event (headers, body, relay timestamp), so a relay that sends the same
 * event twice never creates two signals.
 */
export function relayIdempotencyKey(event: Record<string, unknown>, rawData: string): string {
  const headers = new Map(Object.entries(event).map(([k, v]) => [k.toLowerCase(), v]));
  for (const name of KEY_HEADERS) {
    const value = headers.get(name);
    if (typeof value !== 'string' || value.trim() === '') continue;
    return SAFE_KEY.test(value) ? value : `relay-${sha256(value).slice(0, 40)}`;
  }
  return `relay-${sha256(rawData).slice(0, 40)}`;
}

/** Delay before reconnect number `failures` (1-based): min, doubling, capped at max. */
export function backoffDelay(failures: number, minDelayMs: number, maxDelayMs: number): number {
  return Math.min(maxDelayMs, minDelayMs * 2 ** Math.min(Math.max(failures, 1) - 1, 30));
}

/** The relay's host, for logs: the channel path is the secret part. */
function hostOf(url: string | null): string {
  try {
    return new URL(url ?? '').host;
  } catch {
    return 'the relay';
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

function idleStatus(): RelayStatus {
  return {
    configured: false,
    channelUrl: null,
    source: null,
    state: 'disabled',
    connectedAt: null,
    lastEventAt: null,
    lastDeliveryAt: null,
    lastDeliveryStatus: null,
    lastError: null,
    lastErrorAt: null,
    deliveredCount: 0,
    failedCount: 0,
    reconnectAttempts: 0,
    nextReconnectAt: null,
  };
}

export class RelayClient {
  private readonly clock: Clock;
  private readonly deliverTo: RelayDeliver;
  private readonly minDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly connectTimeoutMs: number;
  private readonly idleTimeoutMs: number;
  private readonly deliveryAttempts: number;
  private readonly maxQueued: number;
  private readonly maxQueuedBytes: number;
  private queuedBytes = 0;
  private readonly log: RelayClientOptions['log'];

  private state: RelayStatus = idleStatus();
  /** Bumped by start() and stop(): callbacks of an older connection see a stale value and do nothing. */
  private generation = 0;
  private source: EventSource | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private pingsSeen = false;
  /** Consecutive failed connections: drives the backoff, reset by a successful connect. */
  private failures = 0;
  private lastEventId = '';
  /** Deliveries run one at a time, in arrival order. */
  private queue: Promise<void> = Promise.resolve();
  private queued = 0;
  private deliveries = new AbortController();

  constructor(options: RelayClientOptions) {
    this.clock = options.clock;
    this.deliverTo = options.deliver;
    this.minDelayMs = options.minDelayMs ?? 1_000;
    this.maxDelayMs = options.maxDelayMs ?? 60_000;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 30_000;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 120_000;
    this.deliveryAttempts = options.deliveryAttempts ?? 3;
    this.maxQueued = options.maxQueued ?? 20_000;
    this.maxQueuedBytes = options.maxQueuedBytes ?? 64 * 1024 * 1024;
    this.log = options.log;
  }

  status(): RelayStatus {
    return { ...this.state };
  }

  setSource(source: RelaySource): void {
    if (this.state.configured) this.state.source = source;
  }

  /** Subscribes to a channel, replacing any current one; its status starts afresh. */
  start(channelUrl: string, source: RelaySource = 'workspace'): void {
    this.closeConnection();
    this.generation += 1;
    this.failures = 0;
    this.lastEventId = '';
    this.state = { ...idleStatus(), configured: true, channelUrl, source, state: 'connecting' };
    this.connect(this.generation);
  }

  /** Closes the channel and abandons deliveries still waiting; resolves once none is in flight. */
  async stop(): Promise<void> {
    this.closeConnection();
    this.generation += 1;
    this.state = idleStatus();
    this.deliveries.abort();
    await this.queue;
    this.deliveries = new AbortController();
  }

  private now(): string {
    return this.clock.now().toISOString();
  }

  private closeConnection(): void {
    this.source?.close();
    this.source = null;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.reconnectTimer = null;
    this.idleTimer = null;
    this.pingsSeen = false;
  }

  private recordError(message: string): void {
    this.log?.warn(`relay: ${message}`);
    this.state.lastError = message;
    this.state.lastErrorAt = this.now();
  }

  private connect(gen: number): void {
    if (gen !== this.generation || this.state.channelUrl === null) return;
    this.state.state = 'connecting';
    this.state.nextReconnectAt = null;
    // The library reconnects on its own at a fixed interval; we close it on the first error and
    // reconnect ourselves with backoff instead.
    const source = new EventSource(this.state.channelUrl, { fetch: this.streamFetch });
    this.source = source;
    // Events of a connection we already gave up on (closed, replaced) are ignored.
    const current = () => gen === this.generation && this.source === source;
    source.addEventListener('open', () => {
      if (!current()) return;
      this.state.state = 'connected';
      this.state.connectedAt = this.now();
      this.log?.info(`relay: connected to ${hostOf(this.state.channelUrl)}`);
      this.failures = 0;
    });
    source.addEventListener('ready', () => this.alive(gen));
    source.addEventListener('ping', () => {
      this.pingsSeen = true;
      this.alive(gen);
    });
    source.addEventListener('message', (event) => {
      if (!current()) return;
      if (event.lastEventId) this.lastEventId = event.lastEventId;
      this.alive(gen);
      this.state.lastEventAt = this.now();
      this.enqueue(String(event.data));
    });
    source.addEventListener('error', (event) => {
      if (!current()) return;
      const message = event.message || (event.code ? `relay answered HTTP ${event.code}` : 'relay closed the connection');
      this.connectionLost(gen, message);
    });
  }

  /** Any event proves the connection alive; after the relay has shown it sends pings, silence means it is dead. */
  private alive(gen: number): void {
    if (gen !== this.generation || !this.pingsSeen) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(
      () => this.connectionLost(gen, `no keep-alive from the relay for ${Math.round(this.idleTimeoutMs / 1000)} s`),
      this.idleTimeoutMs,
    );
    this.idleTimer.unref();
  }

  private connectionLost(gen: number, message: string): void {
    if (gen !== this.generation) return;
    this.closeConnection();
    this.failures += 1;
    this.state.reconnectAttempts += 1;
    this.state.state = 'error';
    this.recordError(message);
    const delay = backoffDelay(this.failures, this.minDelayMs, this.maxDelayMs);
    this.state.nextReconnectAt = new Date(this.clock.now().getTime() + delay).toISOString();
    this.reconnectTimer = setTimeout(() => this.connect(gen), delay);
    this.reconnectTimer.unref();
  }

  /** fetch for the event stream: a deadline for the relay's answer, and Last-Event-ID across our own reconnects. */
  private readonly streamFetch: FetchLike = async (url, init) => {
    const controller = new AbortController();
    const outer = init.signal as AbortSignal | undefined;
    if (outer?.aborted) controller.abort();
    else outer?.addEventListener('abort', () => controller.abort(), { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.connectTimeoutMs);
    const headers: Record<string, string> = { ...init.headers, 'User-Agent': 'desk-relay' };
    if (this.lastEventId && !headers['Last-Event-ID']) headers['Last-Event-ID'] = this.lastEventId;
    try {
      return await fetch(url, { ...(init as RequestInit), headers, signal: controller.signal });
    } catch (err) {
      // An abort is ignored by the library (it means close()); a deadline must surface as an error.
      if (timedOut) throw new Error(`relay did not answer within ${Math.round(this.connectTimeoutMs / 1000)} s`);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  };

  private enqueue(data: string): void {
    if (this.queued >= this.maxQueued || this.queuedBytes + data.length > this.maxQueuedBytes) {
      this.state.failedCount += 1;
      this.recordError(
        this.queued >= this.maxQueued
          ? `more than ${this.maxQueued} relayed requests waiting; one was dropped`
          : `more than ${Math.round(this.maxQueuedBytes / 1024)} KiB of relayed requests waiting; one was dropped`,
      );
      return;
    }
    this.queued += 1;
    this.queuedBytes += data.length;
    const signal = this.deliveries.signal;
    this.queue = this.queue
      .then(() => this.deliver(data, signal))
      .finally(() => {
        this.queued -= 1;
        this.queuedBytes -= data.length;
      });
  }

  /** Hands one relayed request's body to the desk, retrying failures. Never throws. */
  private async deliver(data: string, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    let event: unknown;
    try {
      event = JSON.parse(data);
    } catch {
      event = undefined;
    }
    if (!isObject(event) || event.body === undefined) {
      this.state.failedCount += 1;
      this.recordError('a relayed event was not a smee request (JSON with a body); skipped');
      return;
    }
    // A body that carries its own idempotencyKey is keyed by it alone: the sender's key already makes a repeat harmless.
    const request: RelayedRequest = { body: event.body };
    if (!(isObject(event.body) && 'idempotencyKey' in event.body)) request.idempotencyKey = relayIdempotencyKey(event, data);
    let problem = '';
    for (let attempt = 1; attempt <= this.deliveryAttempts; attempt += 1) {
      let outcome: RelayDeliveryOutcome;
      try {
        outcome = await this.deliverTo(request);
      } catch (err) {
        outcome = { status: 500, message: err instanceof Error ? err.message : String(err) };
      }
      if (signal.aborted) return;
      this.state.lastDeliveryAt = this.now();
      this.state.lastDeliveryStatus = outcome.status;
      if (outcome.status >= 200 && outcome.status < 300) {
        this.state.deliveredCount += 1;
        return;
      }
      const reason = outcome.message ? `: ${outcome.message.slice(0, 200)}` : '';
      problem = outcome.status < 500 ? `the desk refused it (HTTP ${outcome.status})${reason}` : `the desk could not store it (HTTP ${outcome.status})${reason}`;
      if (outcome.status < 500) break; // the request itself is wrong: retrying will not help
      if (attempt < this.deliveryAttempts) await wait(this.minDelayMs * attempt, signal);
      if (signal.aborted) return;
    }
    this.state.failedCount += 1;
    this.recordError(`relayed request not delivered: ${problem}`);
  }
}
