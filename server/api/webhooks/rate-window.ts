import crypto from 'node:crypto';
import type { Response } from 'express';

/** One counted request: whether it is over the limit, and what the RateLimit headers say. */
export interface WindowHit {
  exceeded: boolean;
  remaining: number;
  /** Whole seconds until this key's window ends (at least 0). */
  resetSeconds: number;
  /** The key's partition id of the draft-8 RateLimit-Policy header (a hash prefix, not the key). */
  partition: string;
}

interface Window {
  hits: number;
  resetAt: number;
  partition: string;
}

/** What express-rate-limit sends as the policy's `pk` for a key: the first 12 hex digits of its SHA-256, base64-encoded. */
const partitionOf = (key: string): string => Buffer.from(crypto.createHash('sha256').update(key).digest('hex').slice(0, 12)).toString('base64');

/**
 * Fixed windows per key, counted in memory, as express-rate-limit's MemoryStore counts them: a
 * key's window opens at its first request and lasts `windowMs`; the request past `limit` in it is
 * refused. Synchronous, so the webhook's hot path pays a map lookup instead of the library's
 * chain of awaits, debug calls and a hash per request (the partition id is hashed once per key).
 * Expired windows are dropped at most once per window length, so the map holds only keys seen recently.
 */
export class FixedWindowLimiter {
  private readonly windows = new Map<string, Window>();
  private nextSweep = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    /** Transport time: the windows run in real time, like the sockets they protect. */
    private readonly now: () => number = Date.now,
  ) {}

  hit(key: string): WindowHit {
    const now = this.now();
    if (now >= this.nextSweep) this.sweep(now);
    let window = this.windows.get(key);
    if (window === undefined) {
      window = { hits: 0, resetAt: now + this.windowMs, partition: partitionOf(key) };
      this.windows.set(key, window);
    } else if (window.resetAt <= now) {
      window.hits = 0;
      window.resetAt = now + this.windowMs;
    }
    window.hits += 1;
    return {
      exceeded: window.hits > this.limit,
      remaining: Math.max(this.limit - window.hits, 0),
      resetSeconds: Math.max(0, Math.ceil((window.resetAt - now) / 1000)),
      partition: window.partition,
    };
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    this.nextSweep = now + this.windowMs;
  }
}

/** The policy's name in the headers, as express-rate-limit names it: `6000-in-1min`. */
export function policyName(limit: number, windowMs: number): string {
  const seconds = windowMs / 1000;
  return seconds < 60 ? `${limit}-in-${seconds}sec` : `${limit}-in-${seconds / 60}min`;
}

/** The IETF draft-8 headers (`RateLimit`, `RateLimit-Policy`) of a counted request. */
export function setRateLimitHeaders(res: Response, limiter: FixedWindowLimiter, name: string, hit: WindowHit): void {
  res.setHeader('RateLimit', `"${name}"; r=${hit.remaining}; t=${hit.resetSeconds}`);
  res.setHeader('RateLimit-Policy', `"${name}"; q=${limiter.limit}; w=${Math.ceil(limiter.windowMs / 1000)}; pk=:${hit.partition}:`);
}
