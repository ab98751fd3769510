/**
 * List latency at 10k against 1M signals, on one desk of its own: 200 sources, then signals
 * through the inbound webhook's delivery path (signals.receive, batches of 100 naming their
 * source, 100 batches per transaction: the "big batches"), measured at the small count, grown to
 * the large count the same way, measured again. Signals arrive a second apart on the ManualClock.
 */
import { performance } from 'node:perf_hooks';
import { inTransaction } from '../../../db/transactions';
import { ManualClock } from '../../core/clock';
import { readInboundDelivery } from '../../domain/signals/signal-rules';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { fetchRetry, rng, sequential, type Latency } from '../measure';
import { WORDS } from './bench-engine';
import { deepCursor } from './endpoints';

export const LIST_GROWTH_TARGET = 1.5;

export interface ScaleFigure {
  name: string;
  small: Latency;
  large: Latency;
  /** large p50 / small p50. */
  ratio: number;
}

export interface ScaleReport {
  smallCount: number;
  largeCount: number;
  /** Signals per second through the ingest path while growing. */
  ingestPerSecond: number;
  lists: ScaleFigure[];
}

async function ingest(desk: TestDesk, sourceIds: string[], from: number, to: number, random: () => number): Promise<void> {
  const word = () => WORDS[Math.floor(random() * WORDS.length)];
  let i = from;
  while (i < to) {
    await inTransaction(desk.services.db, async () => {
      for (let b = 0; b < 100 && i < to; b++) {
        const n = Math.min(100, to - i);
        const signals = Array.from({ length: n }, (_, k) => ({
          kind: 'news',
          priority: 'normal',
          title: `${word()} ${word()} ${word()} ${i + k}`,
          detail: `Customers report ${word()} ${word()} ${word()} ${word()} ${word()} ${word()}.`,
          sourceId: sourceIds[(i + k) % sourceIds.length],
        }));
        await desk.services.signals.receive(readInboundDelivery({ signals }, `scale-${i}`));
        i += n;
        desk.clock.advance(100_000);
      }
    });
  }
}

async function lists(desk: TestDesk, sourceId: string): Promise<Map<string, Latency>> {
  const cursor = await deepCursor(desk, '/api/v1/signals', 25);
  const paths: [string, string][] = [
    ['GET /signals (first page)', '/api/v1/signals?limit=50'],
    ['GET /signals (5k rows in)', `/api/v1/signals?limit=50&cursor=${encodeURIComponent(cursor)}`],
    ['GET /signals?sourceId', `/api/v1/signals?limit=50&sourceId=${sourceId}`],
    ['GET /activity (first page)', '/api/v1/activity?limit=50'],
    ['GET /activity?kind=signal.received', '/api/v1/activity?limit=50&kind=signal.received'],
    ['GET /search?q=pricing', '/api/v1/search?q=pricing'],
  ];
  const out = new Map<string, Latency>();
  for (const [name, p] of paths) {
    out.set(
      name,
      await sequential(200, async () => {
        const res = await fetchRetry(desk.url + p, { headers: { authorization: `Bearer ${desk.token}` } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status}`);
      }),
    );
  }
  return out;
}

export async function measureScale(smallCount: number, largeCount: number, log: (line: string) => void = () => {}): Promise<ScaleReport> {
  const clock = new ManualClock('2026-01-01T00:00:00.000Z');
  const desk = await startTestDesk({ clock });
  const random = rng(7);
  try {
    const sourceIds: string[] = [];
    await inTransaction(desk.services.db, async () => {
      for (let s = 0; s < 200; s++) sourceIds.push((await desk.services.sources.create({ type: 'manual', label: `Scale source ${s}` })).id);
    });
    await ingest(desk, sourceIds, 0, smallCount, random);
    const small = await lists(desk, sourceIds[3]);
    log(`lists measured at ${smallCount} signals; growing to ${largeCount}`);
    const t0 = performance.now();
    await ingest(desk, sourceIds, smallCount, largeCount, random);
    const ingestPerSecond = (largeCount - smallCount) / ((performance.now() - t0) / 1000);
    log(`grown at ${Math.round(ingestPerSecond)} signals/s`);
    const large = await lists(desk, sourceIds[3]);
    const figures = [...small.entries()].map(([name, s]) => {
      const l = large.get(name)!;
      return { name, small: s, large: l, ratio: l.p50 / s.p50 };
    });
    return { smallCount, largeCount, ingestPerSecond, lists: figures };
  } finally {
    await desk.stop();
  }
}
