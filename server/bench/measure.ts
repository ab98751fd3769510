/** Small helpers the benches share: percentiles, a seeded generator, sequential latency runs. */
import { performance } from 'node:perf_hooks';

/** The p-th percentile of ascending `sorted` (nearest rank, floor). */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Latency {
  n: number;
  p50: number;
  p99: number;
  /** Sequential requests per second (one client: 1000 / mean ms). */
  perSecond: number;
}

/** Runs `call` n times one after the other (after `warmup` unmeasured calls) and summarises the times. */
export async function sequential(n: number, call: (i: number) => Promise<unknown> | unknown, warmup = Math.min(20, n)): Promise<Latency> {
  for (let i = 0; i < warmup; i++) await call(i);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await call(i);
    times.push(performance.now() - t0);
  }
  return latencyOf(times);
}

/** The latency figures of measured durations (ms). */
export function latencyOf(times: number[]): Latency {
  const sum = times.reduce((a, b) => a + b, 0);
  const sorted = [...times].sort((a, b) => a - b);
  return { n: times.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), perSecond: sum > 0 ? (1000 * times.length) / sum : 0 };
}

/**
 * fetch with one retry of a connection reset: a keep-alive socket idle for about the server's
 * keepAliveTimeout (5 s) between two measurements can be closed by the server just as the client
 * reuses it (a client-side race, not a server fault). Anything else, or a second reset, throws.
 */
export async function fetchRetry(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    if (code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET') throw err;
    return fetch(url, init);
  }
}
