/**
 * List latency at 10k against 1M signals, on a desk of its own: 200 sources, then signals through
 * the inbound webhook's delivery path (signals.receive, batches of 100 naming their source, 100
 * batches per transaction: the "big batches"). At the small count a copy of its database is kept
 * (VACUUM INTO); the desk then grows to the large count the same way, and a second desk opens the
 * copy. Each list is then measured on both desks in alternating rounds, so the two p50s are taken
 * under the same conditions: measured minutes apart (before and after the growth), a shared
 * machine's quiet and busy spells alone moved the ratio between 0.8x and 1.9x from run to run.
 * Signals arrive a second apart on the ManualClock.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { inTransaction } from '../../../db/transactions';
import { ManualClock } from '../../core/clock';
import { readInboundDelivery } from '../../domain/signals/signal-rules';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { fetchRetry, latencyOf, rng, type Latency } from '../measure';
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

/** Rounds per list, the desks' order alternating, and requests per desk in each (after a warm-up of WARMUP each). */
const ROUNDS = 10;
const PER_ROUND = 20;
const WARMUP = 20;

async function listPaths(desk: TestDesk, sourceId: string): Promise<[string, string][]> {
  const cursor = await deepCursor(desk, '/api/v1/signals', 25);
  return [
    ['GET /signals (first page)', '/api/v1/signals?limit=50'],
    ['GET /signals (5k rows in)', `/api/v1/signals?limit=50&cursor=${encodeURIComponent(cursor)}`],
    ['GET /signals?sourceId', `/api/v1/signals?limit=50&sourceId=${sourceId}`],
    ['GET /activity (first page)', '/api/v1/activity?limit=50'],
    ['GET /activity?kind=signal.received', '/api/v1/activity?limit=50&kind=signal.received'],
    ['GET /search?q=pricing', '/api/v1/search?q=pricing'],
  ];
}

/** One request's duration in ms. */
async function timed(desk: TestDesk, name: string, urlPath: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetchRetry(desk.url + urlPath, { headers: { authorization: `Bearer ${desk.token}` } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status}`);
  return performance.now() - t0;
}

async function listsSideBySide(small: TestDesk, large: TestDesk, sourceId: string): Promise<ScaleFigure[]> {
  const smallPaths = await listPaths(small, sourceId);
  const largePaths = await listPaths(large, sourceId);
  const figures: ScaleFigure[] = [];
  for (const [j, [name, smallPath]] of smallPaths.entries()) {
    const sides = [
      { desk: small, path: smallPath, times: [] as number[] },
      { desk: large, path: largePaths[j][1], times: [] as number[] },
    ];
    for (const side of sides) for (let i = 0; i < WARMUP; i++) await timed(side.desk, name, side.path);
    for (let r = 0; r < ROUNDS; r++) {
      for (const side of r % 2 === 0 ? sides : [...sides].reverse()) {
        for (let i = 0; i < PER_ROUND; i++) side.times.push(await timed(side.desk, name, side.path));
      }
    }
    const [s, l] = sides.map((side) => latencyOf(side.times));
    figures.push({ name, small: s, large: l, ratio: l.p50 / s.p50 });
  }
  return figures;
}

export async function measureScale(smallCount: number, largeCount: number, log: (line: string) => void = () => {}): Promise<ScaleReport> {
  const clock = new ManualClock('2026-01-01T00:00:00.000Z');
  const desk = await startTestDesk({ clock });
  const random = rng(7);
  const copyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-scale-small-'));
  let small: TestDesk | undefined;
  try {
    const sourceIds: string[] = [];
    await inTransaction(desk.services.db, async () => {
      for (let s = 0; s < 200; s++) sourceIds.push((await desk.services.sources.create({ type: 'manual', label: `Scale source ${s}` })).id);
    });
    await ingest(desk, sourceIds, 0, smallCount, random);
    // The small desk's database as it stands now; its desk opens it once the large one has grown.
    await sql`VACUUM INTO ${path.join(copyDir, 'desk.sqlite')}`.execute(desk.services.db);
    const smallAt = desk.clock.now().toISOString();
    log(`kept a copy at ${smallCount} signals; growing to ${largeCount}`);
    const t0 = performance.now();
    await ingest(desk, sourceIds, smallCount, largeCount, random);
    const ingestPerSecond = (largeCount - smallCount) / ((performance.now() - t0) / 1000);
    log(`grown at ${Math.round(ingestPerSecond)} signals/s; measuring both`);
    small = await startTestDesk({ clock: new ManualClock(smallAt), dataDir: copyDir, ownsDataDir: true });
    const figures = await listsSideBySide(small, desk, sourceIds[3]);
    return { smallCount, largeCount, ingestPerSecond, lists: figures };
  } finally {
    await small?.stop();
    fs.rmSync(copyDir, { recursive: true, force: true });
    await desk.stop();
  }
}
