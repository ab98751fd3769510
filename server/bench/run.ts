/**
 * `npm run bench`: speed and memory figures of a real desk on this machine (never a timed test).
 * Prints a table; exits non-zero when a target is missed, so it can gate a release by hand.
 */
import { performance } from 'node:perf_hooks';
import { startTestDesk, type TestDesk } from '../testing/desk';

interface Result {
  name: string;
  value: number;
  unit: string;
  target: number;
}

const results: Result[] = [];

function record(name: string, value: number, unit: string, target: number): void {
  results.push({ name, value: Math.round(value * 100) / 100, unit, target });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
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

const t0 = performance.now();
const desk = await startTestDesk();
record('start (fresh workspace, migrations)', performance.now() - t0, 'ms', 1500);

try {
  await latency(desk, 'GET /workspace', 500, () => desk.api('GET', '/api/v1/workspace'), 20);
  await latency(desk, 'PATCH /workspace/loop-interval', 300, (i) => desk.api('PATCH', '/api/v1/workspace/loop-interval', { loopIntervalMinutes: 15 + (i % 100) }), 30);
  // 300 changes above wrote 300 activity rows; add more so the list reads a real-sized log.
  for (let i = 0; i < 2000; i++) await desk.services.workspace.setLoopInterval(20 + (i % 500));
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
  const rss = process.memoryUsage().rss / 1024 / 1024;
  record('process RSS after run', rss, 'MiB', 300);
} finally {
  await desk.stop();
}

const width = Math.max(...results.map((r) => r.name.length));
let missed = 0;
for (const r of results) {
  // A negative target marks a throughput figure: it must reach |target| * 1000 per second.
  const ok = r.target < 0 ? r.value >= -r.target * 1000 : r.value <= r.target;
  if (!ok) missed++;
  console.log(`${r.name.padEnd(width)}  ${String(r.value).padStart(9)} ${r.unit.padEnd(4)} ${r.target < 0 ? `target >= ${-r.target * 1000}` : `target <= ${r.target}`} ${ok ? 'ok' : 'MISSED'}`);
}
process.exit(missed > 0 ? 1 : 0);
