/**
 * Durability cost: the hot write paths (POST /api/v1/signals and the inbound webhook, one signal per
 * request, 8 at a time) with `PRAGMA synchronous = FULL` (what db/connection.ts sets: the WAL is
 * synced at every commit) against `NORMAL` (synced only at checkpoints: a power loss can roll back
 * commits already acknowledged). Both are measured in the same run on the same desk, alternating
 * FULL and NORMAL round by round so drift of the machine falls on both; their ratio is what FULL costs.
 */
import { sql } from 'kysely';
import { performance } from 'node:perf_hooks';
import { startTestDesk, type TestDesk } from '../testing/desk';

export type SyncMode = 'FULL' | 'NORMAL';

export interface DurabilityFigures {
  /** Requests per second by mode, both paths together. */
  signals: Record<SyncMode, number>;
  webhook: Record<SyncMode, number>;
}

const CONCURRENCY = 8;

/**
 * What FULL must still serve per path, one signal per request: far above a solo desk's needs (the
 * webhook's default limit is 120 requests a minute per sender), so a miss means something broke.
 */
export const DURABILITY_MIN_FULL_RPS = 100;

/** Requests per second of `n` calls, `CONCURRENCY` at a time; any answer other than 201 fails the bench. */
async function throughput(n: number, call: (i: number) => Promise<Response>): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const res = await call(i);
      await res.arrayBuffer();
      if (res.status !== 201) throw new Error(`durability bench: HTTP ${res.status} on request ${i}`);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return n / ((performance.now() - t0) / 1000);
}

let seq = 0;
const postSignal = (desk: TestDesk) => () =>
  fetch(`${desk.url}/api/v1/signals`, {
    method: 'POST',
    headers: { authorization: `Bearer ${desk.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'news', priority: 'normal', title: `Durability signal ${++seq}`, detail: 'x'.repeat(200) }),
  });
const pushWebhook = (desk: TestDesk) => () => {
  const n = ++seq;
  return fetch(`${desk.url}/api/webhooks/signals/${desk.token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': `durability-${n}` },
    body: JSON.stringify({ signals: [{ title: `Durability webhook ${n}`, detail: 'x'.repeat(200) }] }),
  });
};

export async function setSynchronous(desk: TestDesk, mode: SyncMode): Promise<void> {
  // One SQLite connection serves the desk, so the pragma applies to every request after it.
  await sql.raw(`PRAGMA synchronous = ${mode}`).execute(desk.services.db);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * `pairs` rounds of FULL then NORMAL, `requestsPerRound` requests per path each; the figures are the
 * medians per mode, so a burst of other work on the machine moves one round, not the result.
 */
export async function benchDurability(pairs = 5, requestsPerRound = 500): Promise<DurabilityFigures> {
  // The webhook limit is per sender address; this bench is one sender sending thousands.
  const desk = await startTestDesk({ webhookRateLimitPerMinute: 1_000_000 });
  const rounds = { signals: { FULL: [] as number[], NORMAL: [] as number[] }, webhook: { FULL: [] as number[], NORMAL: [] as number[] } };
  try {
    // Warm-up (JIT, caches, first pages of the tables) outside the figures.
    await throughput(300, postSignal(desk));
    await throughput(300, pushWebhook(desk));
    for (let p = 0; p < pairs; p++) {
      for (const mode of ['FULL', 'NORMAL'] as const) {
        await setSynchronous(desk, mode);
        rounds.signals[mode].push(await throughput(requestsPerRound, postSignal(desk)));
        rounds.webhook[mode].push(await throughput(requestsPerRound, pushWebhook(desk)));
      }
    }
    return {
      signals: { FULL: median(rounds.signals.FULL), NORMAL: median(rounds.signals.NORMAL) },
      webhook: { FULL: median(rounds.webhook.FULL), NORMAL: median(rounds.webhook.NORMAL) },
    };
  } finally {
    await desk.stop();
  }
}
