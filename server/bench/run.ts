/**
 * `npm run bench`: speed and memory figures of a real desk on this machine (never a timed test).
 * Prints a table; exits non-zero when a target is missed, so it can gate a release by hand.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { inTransaction } from '../../db/transactions';
import { POLL_BATCH } from '../domain/sources/source-sync';
import { FEED_POLL_JOB } from '../jobs/feed-poller';
import { benchDurability, DURABILITY_MIN_FULL_RPS } from './durability';
import { insertBlockerRows, insertTaskRows, insertTaskTagRows, newTaskDefaults } from '../domain/tasks/task-store';
import { startTestDesk, type TestDesk } from '../testing/desk';
import { measureThroughput, printThroughput } from './throughput';
import { benchCycle } from './cycle';
import { benchReview } from './review';
import { benchOverview } from './overview';
import { benchSearch } from './search';
import { percentile } from './measure';

interface Result {
  name: string;
  value: number;
  unit: string;
  target: number;
  /** The value must reach `target` (a floor), rather than stay under it; null target = shown only. */
  atLeast?: boolean;
}

const results: Result[] = [];

function record(name: string, value: number, unit: string, target: number): void {
  results.push({ name, value: Math.round(value * 100) / 100, unit, target });
}

/** A figure that must reach `floor` (NaN: shown, no target). */
function recordAtLeast(name: string, value: number, unit: string, floor: number): void {
  results.push({ name, value: Math.round(value * 100) / 100, unit, target: floor, atLeast: true });
}

async function latency(desk: TestDesk, name: string, n: number, call: (i: number) => Promise<{ status: number }>, targetP95Ms: number) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await call(i);
    times.push(performance.now() - t0);
    if (res.status >= 400) throw new Error(`${name}: HTTP ${res.status}`);
  }
  times.sort((a, b) => a - b);
  record(`${name} p50`, percentile(times, 50), 'ms', targetP95Ms);
  record(`${name} p95`, percentile(times, 95), 'ms', targetP95Ms);
  void desk;
}

/**
 * GET /tasks at 20k tasks (2 tags each, one task in ten with a blocker): the queue's first page,
 * a status-filtered page, a 200-row page and a page deep in the list through its cursor.
 */
async function benchTasks(desk: TestDesk): Promise<void> {
  const N = 20_000;
  const statuses = ['queued', 'in_progress', 'needs_input', 'done', 'archived'] as const;
  const base = Date.parse('2026-01-01T00:00:00Z');
  await inTransaction(desk.services.db, async (trx) => {
    for (let start = 0; start < N; start += 400) {
      const rows = Array.from({ length: Math.min(400, N - start) }, (_, k) => {
        const i = start + k;
        const at = new Date(base + i * 60_000).toISOString();
        return {
          id: `tsk_bench_${String(i).padStart(6, '0')}`,
          title: `Bench task ${i}`,
          summary: 's'.repeat(200),
          kind: null,
          deliverableType: null,
          priority: null,
          dueAt: null,
          assignedToUserId: null,
          goal: '',
          context: '',
          ...newTaskDefaults(at),
          status: statuses[i % statuses.length],
        };
      });
      await insertTaskRows(trx, rows);
      await insertTaskTagRows(trx, rows.flatMap((r, k) => [{ taskId: r.id, tag: `tag-${k % 20}` }, { taskId: r.id, tag: 'bench' }]));
      const blocked = rows.filter((_, k) => k % 10 === 1).map((r, k) => ({ taskId: r.id, blockerTaskId: rows[k * 10].id }));
      if (blocked.length) await insertBlockerRows(trx, blocked);
    }
  });
  await latency(desk, 'GET /tasks?limit=50 (20k tasks)', 200, () => desk.api('GET', '/api/v1/tasks?limit=50'), 40);
  await latency(desk, 'GET /tasks?status=queued,in_progress (20k tasks)', 200, () => desk.api('GET', '/api/v1/tasks?status=queued,in_progress&limit=50'), 40);
  await latency(desk, 'GET /tasks?limit=200 (20k tasks)', 100, () => desk.api('GET', '/api/v1/tasks?limit=200'), 80);
  let cursor = '';
  for (let page = 0; page < 50; page++) {
    const res = await desk.api('GET', `/api/v1/tasks?limit=200${cursor ? `&cursor=${cursor}` : ''}`);
    cursor = res.body.nextCursor as string;
  }
  await latency(desk, 'GET /tasks?limit=50 deep page (20k tasks)', 200, () => desk.api('GET', `/api/v1/tasks?limit=50&cursor=${cursor}`), 40);
}

// `--dataset full`: the whole product on a year-old workspace (server/bench/full), then exit.
const argv = process.argv.slice(2);
// `--soak [--minutes N]`: the long run of server/bench/soak.ts, then exit.
if (argv.includes('--soak')) {
  const { runSoak } = await import('./soak');
  process.exit(await runSoak(argv.filter((a) => a !== '--soak')));
}
if (argv.includes('--dataset')) {
  const dataset = argv[argv.indexOf('--dataset') + 1];
  if (dataset !== 'full') throw new Error(`--dataset: unknown dataset "${dataset}" (only "full")`);
  const { runFull } = await import('./full/run-full');
  process.exit((await runFull(argv)) > 0 ? 1 : 0);
}

const t0 = performance.now();
const desk = await startTestDesk();
record('start (fresh workspace, migrations)', performance.now() - t0, 'ms', 1500);

try {
  await latency(desk, 'GET /workspace', 500, () => desk.api('GET', '/api/v1/workspace'), 20);
  await latency(desk, 'PATCH /workspace/loop-interval', 300, (i) => desk.api('PATCH', '/api/v1/workspace/loop-interval', { loopIntervalMinutes: 15 + (i % 100) }), 30);
  // 300 changes above wrote 300 activity rows; add more so the list reads a real-sized log.
  // One transaction (the changes join it): with synchronous = FULL each commit syncs the disk, and
  // 2000 separate commits idle the client's keep-alive connection past the server's timeout.
  await inTransaction(desk.services.db, async () => {
    for (let i = 0; i < 2000; i++) await desk.services.workspace.setLoopInterval(20 + (i % 500));
  });
  await latency(desk, 'GET /activity?limit=50 (2k+ rows)', 200, () => desk.api('GET', '/api/v1/activity?limit=50'), 30);
  await latency(desk, 'GET /activity?q=interval (2k+ rows)', 100, () => desk.api('GET', '/api/v1/activity?q=interval&limit=50'), 60);
  // Inbound webhook: 100 batches of 100 signals each (10k signals), each with its own idempotency key.
  const ingestStart = performance.now();
  for (let b = 0; b < 100; b++) {
    const signals = Array.from({ length: 100 }, (_, i) => ({ title: `Bench signal ${b}-${i}`, detail: 'x'.repeat(200) }));
    const res = await fetch(`${desk.url}/api/webhooks/signals/${desk.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': `bench-${b}` },
      body: JSON.stringify({ signals }),
    });
    if (res.status >= 400) throw new Error(`webhook: HTTP ${res.status}`);
  }
  const ingestSeconds = (performance.now() - ingestStart) / 1000;
  record('webhook ingest (batches of 100)', 10_000 / ingestSeconds, 'sig/s', -1);
  await latency(desk, 'GET /signals?limit=50 (10k rows)', 200, () => desk.api('GET', '/api/v1/signals?limit=50'), 40);
  await latency(desk, 'GET /signals?limit=200 (10k rows)', 100, () => desk.api('GET', '/api/v1/signals?limit=200'), 80);
  // Feed poller: one round over POLL_BATCH feeds of 50 items each, served on loopback.
  const items = (feed: number) =>
    Array.from({ length: 50 }, (_, i) => `<item><guid>f${feed}-${i}</guid><title>Feed ${feed} item ${i}</title><link>https://example.com/${feed}/${i}</link><description>${'d'.repeat(300)}</description></item>`).join('');
  const feedServer = http.createServer((req, res) => {
    const feed = Number(req.url?.split('/')[1] ?? 0);
    res.writeHead(200, { 'content-type': 'application/rss+xml' });
    res.end(`<?xml version="1.0"?><rss version="2.0"><channel><title>Feed ${feed}</title>${items(feed)}</channel></rss>`);
  });
  await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
  const feedPort = (feedServer.address() as AddressInfo).port;
  try {
    for (let f = 0; f < POLL_BATCH; f++) {
      const res = await desk.api('POST', '/api/v1/sources', { type: 'rss', label: `Bench feed ${f}`, url: `http://127.0.0.1:${feedPort}/${f}` });
      if (res.status !== 201) throw new Error(`create source: HTTP ${res.status}`);
    }
    const pollStart = performance.now();
    await desk.services.scheduler.runNow(FEED_POLL_JOB);
    const pollMs = performance.now() - pollStart;
    const created = await desk.api('GET', `/api/v1/signals?limit=1`);
    if (created.status !== 200) throw new Error('signals after poll');
    record(`feed poll round (${POLL_BATCH} feeds x 50 new items)`, pollMs, 'ms', 5000);
    const repollStart = performance.now();
    desk.clock.advanceMinutes(1441); // past any cadence the runs above left set
    await desk.services.scheduler.runNow(FEED_POLL_JOB);
    record(`feed re-poll round (${POLL_BATCH} feeds, all items seen)`, performance.now() - repollStart, 'ms', 3000);
  } finally {
    feedServer.close();
  }
  await benchTasks(desk);
  const rss = process.memoryUsage().rss / 1024 / 1024;
  record('process RSS after run', rss, 'MiB', 300);
  // Durability: synchronous FULL (what Desk runs with) against NORMAL on the two hot write paths.
  // After the RSS figure: it starts a desk of its own.
  const d = await benchDurability();
  for (const [path, figures] of [['POST /signals', d.signals], ['webhook', d.webhook]] as const) {
    recordAtLeast(`${path} 1 signal/req c=8, synchronous=FULL`, figures.FULL, 'req/s', DURABILITY_MIN_FULL_RPS);
    recordAtLeast(`${path} 1 signal/req c=8, synchronous=NORMAL`, figures.NORMAL, 'req/s', NaN);
    recordAtLeast(`${path} FULL / NORMAL`, figures.FULL / figures.NORMAL, 'x', NaN);
  }
  for (const r of await benchCycle()) (Number.isNaN(r.target) ? recordAtLeast : record)(r.name, r.value, r.unit, r.target);
  for (const r of await benchReview()) record(r.name, r.value, r.unit, r.target);
  for (const r of await benchOverview()) record(r.name, r.value, r.unit, r.target);
  for (const r of await benchSearch()) (Number.isNaN(r.target) ? recordAtLeast : record)(r.name, r.value, r.unit, r.target);
} finally {
  await desk.stop();
}

const width = Math.max(...results.map((r) => r.name.length));
let missed = 0;
for (const r of results) {
  // A negative target marks a throughput figure: it must reach |target| * 1000 per second.
  const floor = r.atLeast ? r.target : r.target < 0 ? -r.target * 1000 : null;
  if (r.atLeast && Number.isNaN(r.target)) {
    console.log(`${r.name.padEnd(width)}  ${String(r.value).padStart(9)} ${r.unit.padEnd(5)}`);
    continue;
  }
  const ok = floor !== null ? r.value >= floor : r.value <= r.target;
  if (!ok) missed++;
  console.log(`${r.name.padEnd(width)}  ${String(r.value).padStart(9)} ${r.unit.padEnd(5)} ${floor !== null ? `target >= ${floor}` : `target <= ${r.target}`} ${ok ? 'ok' : 'MISSED'}`);
}
// Hot paths against their framework ceilings, on fresh servers (baselines measured in this run).
const throughput = await measureThroughput();
printThroughput(throughput);
missed += throughput.missed;
process.exit(missed > 0 ? 1 : 0);
