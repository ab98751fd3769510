/**
 * `npm run bench -- --dataset full [--scale 0.05] [--signals 1000000]`: the whole product measured
 * on a year-old workspace (dataset.ts), each figure beside its baseline, the targets
 * checked. Prints one table and writes bench-results/full.json. Exit code 1 when a target is missed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { readInboundDelivery } from '../../domain/signals/signal-rules';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { inTransaction } from '../../../db/transactions';
import { ManualClock } from '../../core/clock';
import { fetchRetry, sequential } from '../measure';
import { CYCLE_TARGET_MS } from '../cycle';
import { SEARCH_P50_TARGET_MS } from '../search';
import { SIGNALS_TARGET, WORKSPACE_TARGET } from '../throughput';
import { copyToFreshDir, DATASET_END, deskOnDataset, planFor } from './dataset';
import { measureServerRss, type RssFigure } from './rss';
import { measureEndpoints, type EndpointFigure } from './endpoints';
import { measureHotPaths, type HotPathFigure } from './hot-paths';
import { LIST_GROWTH_TARGET, measureScale, type ScaleReport } from './scale';

export const TARGETS = { artifactsReadyP99Ms: 50, searchP50Ms: SEARCH_P50_TARGET_MS, cycleMs: CYCLE_TARGET_MS, detectorMs: 200, coldStartMs: 1500, rssMiB: 200 };
const EXPORTS = ['sources-export', 'activity-export', 'artifacts-export', 'stale-tasks-export', 'memory-export', 'cost-export'];

interface Check {
  name: string;
  value: number;
  unit: string;
  target: string;
  ok: boolean | null;
}

const round = (n: number) => Math.round(n * 100) / 100;

function argValue(args: string[], flag: string): string | undefined {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
}

async function coldStart(file: string): Promise<number> {
  const dataDir = copyToFreshDir(file);
  const t0 = performance.now();
  const desk = await startTestDesk({ dataDir, ownsDataDir: true, clock: new ManualClock(DATASET_END) });
  try {
    const res = await desk.api('GET', '/api/v1/workspace');
    if (res.status !== 200) throw new Error(`cold start: GET /workspace HTTP ${res.status}`);
    return performance.now() - t0;
  } finally {
    await desk.stop();
  }
}

/** 1,000 new signals through the webhook path, then one Run now with the built-in local engine. */
async function cycleOver1000(desk: TestDesk): Promise<{ ms: number; status: string; signalsRead: number; engineMs: number | null; durationMs: number | null }> {
  const source = await desk.services.db.selectFrom('sources').select('id').orderBy('id').executeTakeFirstOrThrow();
  await inTransaction(desk.services.db, async () => {
    for (let b = 0; b < 10; b++) {
      const signals = Array.from({ length: 100 }, (_, k) => ({ kind: 'news', priority: 'normal', title: `Pricing page checkout ${b}-${k}`, detail: 'Customers report the checkout refund flow fails on mobile since the last release.', sourceId: source.id }));
      await desk.services.signals.receive(readInboundDelivery({ signals }, `cycle-bench-${b}`));
    }
  });
  await desk.services.loop.prepare();
  const t0 = performance.now();
  const run = await desk.services.loop.runNow();
  const ms = performance.now() - t0;
  const row = await desk.services.db.selectFrom('runs').selectAll().where('id', '=', run.id).executeTakeFirstOrThrow();
  return { ms, status: row.status, signalsRead: (JSON.parse(row.readSignalIds) as string[]).length, engineMs: row.engineMs, durationMs: row.durationMs };
}

export async function runFull(args: string[]): Promise<number> {
  const scale = Number(argValue(args, '--scale') ?? '1');
  if (!(scale > 0 && scale <= 1)) throw new Error('--scale must be in (0, 1]');
  const largeSignals = Number(argValue(args, '--signals') ?? String(Math.round(1_000_000 * scale)));
  const log = (line: string) => console.log(`[bench full] ${line}`);
  const checks: Check[] = [];
  const check = (name: string, value: number, unit: string, target: string, ok: boolean | null) => checks.push({ name, value: round(value), unit, target, ok });

  log(`dataset at scale ${scale}: ${JSON.stringify(planFor(scale))}`);
  const t0 = performance.now();
  const { desk, built, file } = await deskOnDataset(scale, log);
  log(`${built ? 'built' : 'reused'} ${file} (${Math.round((performance.now() - t0) / 1000)} s)`);
  const counts: Record<string, number> = {};
  let endpoints: EndpointFigure[] = [];
  let hot: HotPathFigure[] = [];
  const exportsFig: { path: string; ms: number; rows: number; capped: boolean }[] = [];
  let cycle: Awaited<ReturnType<typeof cycleOver1000>>;
  let detector: Awaited<ReturnType<typeof sequential>>;
  let rssMiB: number;
  try {
    for (const t of ['signals', 'sources', 'tasks', 'task_notes', 'task_comments', 'task_blockers', 'artifacts', 'memory', 'memory_retrieval_daily', 'cost_daily', 'activity', 'outbox_events', 'outbound_subscriptions', 'outbound_deliveries', 'runs']) {
      counts[t] = Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(t)}`.execute(desk.services.db)).rows[0].n);
    }
    log(`rows: ${JSON.stringify(counts)}`);
    endpoints = await measureEndpoints(desk, 'checkout');
    for (const e of EXPORTS) {
      const start = performance.now();
      const res = await fetchRetry(`${desk.url}/api/v1/workspace/${e}`, { headers: { authorization: `Bearer ${desk.token}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${e}: HTTP ${res.status}`);
      exportsFig.push({ path: e, ms: performance.now() - start, rows: Number(res.headers.get('x-export-total') ?? NaN), capped: res.headers.get('x-export-capped') === 'true' });
    }
    detector = await sequential(20, () => desk.services.costGuard.detectSpikes(), 2);
    cycle = await cycleOver1000(desk);
    hot = await measureHotPaths(desk);
    rssMiB = process.memoryUsage().rss / 1024 / 1024;
  } finally {
    await desk.stop();
  }
  const cold = await sequential(3, () => coldStart(file), 1);
  const serverRss: RssFigure = await measureServerRss(file, [...endpoints.map((e) => e.path), ...EXPORTS.map((e) => `/api/v1/workspace/${e}`)]);
  log(`list growth: ${Math.min(10_000, largeSignals)} -> ${largeSignals} signals through the ingest path`);
  const scaleReport: ScaleReport = await measureScale(Math.min(10_000, largeSignals), largeSignals, log);

  for (const e of endpoints) {
    const target = e.name.startsWith('GET /artifacts') ? TARGETS.artifactsReadyP99Ms : null;
    const search = e.name.startsWith('GET /search');
    check(`${e.name} p50 (bare ${round(e.bareExpress.p50)}, sql ${e.rawSql ? round(e.rawSql.p50) : '-'})`, e.desk.p50, 'ms', search ? `< ${TARGETS.searchP50Ms}` : '', search ? e.desk.p50 < TARGETS.searchP50Ms : null);
    check(`${e.name} p99 (bare ${round(e.bareExpress.p99)}, sql ${e.rawSql ? round(e.rawSql.p99) : '-'})`, e.desk.p99, 'ms', target ? `< ${target}` : '', target ? e.desk.p99 < target : null);
    check(`${e.name} req/s, 1 client (bare ${Math.round(e.bareExpress.perSecond)})`, e.desk.perSecond, 'req/s', '', null);
  }
  for (const h of hot) check(`${h.name} c=8 desk ${Math.round(h.desk)} / baseline ${Math.round(h.baseline)} req/s`, h.ratio, 'x', `>= ${h.target}`, h.ratio >= h.target);
  for (const x of exportsFig) check(`GET /workspace/${x.path} (${x.rows} rows${x.capped ? ', capped at 5000' : ''})`, x.ms, 'ms', '', null);
  check('cost-guard detector pass p50', detector.p50, 'ms', `< ${TARGETS.detectorMs}`, detector.p50 < TARGETS.detectorMs);
  check(`local-engine cycle over 1,000 new signals (${cycle.status}, ${cycle.signalsRead} read; run ${cycle.durationMs} ms, engine ${cycle.engineMs} ms)`, cycle.ms, 'ms', `< ${TARGETS.cycleMs}`, cycle.status === 'completed' && cycle.ms < TARGETS.cycleMs);
  check('cold start to ready (startDesk + GET /workspace) p50', cold.p50, 'ms', `< ${TARGETS.coldStartMs}`, cold.p50 < TARGETS.coldStartMs);
  check(`server RSS after ${serverRss.requests} requests (own process; at start ${round(serverRss.startMiB)}, peak ${round(serverRss.peakMiB)} MiB)`, serverRss.rssMiB, 'MiB', `< ${TARGETS.rssMiB}`, serverRss.rssMiB < TARGETS.rssMiB);
  check('bench process RSS (desk + load workers + baselines + client)', rssMiB, 'MiB', '', null);
  check(`ingest path while growing to ${scaleReport.largeCount}`, scaleReport.ingestPerSecond, 'sig/s', '', null);
  for (const l of scaleReport.lists) {
    check(`${l.name} p50 ${scaleReport.largeCount} / ${scaleReport.smallCount} signals (${round(l.large.p50)} / ${round(l.small.p50)} ms)`, l.ratio, 'x', `<= ${LIST_GROWTH_TARGET}`, l.ratio <= LIST_GROWTH_TARGET);
  }

  const width = Math.max(...checks.map((c) => c.name.length));
  for (const c of checks) console.log(`${c.name.padEnd(width)}  ${String(c.value).padStart(9)} ${c.unit.padEnd(5)} ${c.target.padEnd(8)} ${c.ok === null ? '' : c.ok ? 'ok' : 'MISSED'}`);
  const missed = checks.filter((c) => c.ok === false);
  fs.mkdirSync('bench-results', { recursive: true });
  const out = path.join('bench-results', 'full.json');
  fs.writeFileSync(out, JSON.stringify({ scale, plan: planFor(scale), counts, endpoints, hotPaths: hot, exports: exportsFig, detector, cycle, coldStart: cold, rssMiB, serverRss, scale10kVs1M: scaleReport, checks, targets: { ...TARGETS, listGrowth: LIST_GROWTH_TARGET, workspaceRatio: WORKSPACE_TARGET, signalsRatio: SIGNALS_TARGET } }, null, 2));
  log(`${missed.length} target(s) missed; figures in ${out}`);
  return missed.length;
}
