/**
 * `npm run bench -- --dataset full [--scale 0.05] [--signals 1000000] [--ui-signals 1000000] [--ui-loads 5]`: the whole product measured
 * on a year-old workspace (dataset.ts), its UI pages in Chromium (ui-pages.ts), each figure beside its baseline, the issue's targets
 * checked. Prints one table and writes bench-results/full.json. Exit code 1 when a target is missed.
 * `--only cycle,rss` measures only those parts (PARTS), e.g. while working on one target.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { sequential, type Latency } from '../measure';
import { CYCLE_TARGET_MS } from '../cycle';
import { SEARCH_P50_TARGET_MS } from '../search';
import { SIGNALS_TARGET, WORKSPACE_TARGET } from '../throughput';
import { coldStart } from './cold-start';
import { cycleOver1000, type CycleFigure } from './cycle-full';
import { deskOnDataset, planFor } from './dataset';
import { EXPORTS, measureExportsAtCap, type ExportFigure } from './exports-at-cap';
import { measureServerRss, type RssFigure } from './rss';
import { measureEndpoints, type EndpointFigure } from './endpoints';
import { measureHotPaths, type HotPathFigure } from './hot-paths';
import { LIST_GROWTH_TARGET, measureScale, type ScaleReport } from './scale';
import { datasetWithSignals } from './ui-dataset';
import { measureUiPages, UI_LOADS, uiTable, type UiFigures } from './ui-pages';
import { LONG_TASK_RATIO, READY_RATIO, UI_LONG_TASK_MS, UI_READY_P50_MS } from './ui-verdict';

export const TARGETS = { artifactsReadyP99Ms: 50, searchP50Ms: SEARCH_P50_TARGET_MS, cycleMs: CYCLE_TARGET_MS, detectorMs: 200, coldStartMs: 1500, rssMiB: 200 };
export const PARTS = ['endpoints', 'exports', 'detector', 'cycle', 'hot', 'cold', 'rss', 'scale', 'ui'] as const;
type Part = (typeof PARTS)[number];

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


export async function runFull(args: string[]): Promise<number> {
  const scale = Number(argValue(args, '--scale') ?? '1');
  if (!(scale > 0 && scale <= 1)) throw new Error('--scale must be in (0, 1]');
  const largeSignals = Number(argValue(args, '--signals') ?? String(Math.round(1_000_000 * scale)));
  const log = (line: string) => console.log(`[bench full] ${line}`);
  const checks: Check[] = [];
  const check = (name: string, value: number, unit: string, target: string, ok: boolean | null) => checks.push({ name, value: round(value), unit, target, ok });

  const only = argValue(args, '--only')?.split(',') ?? [...PARTS];
  const unknown = only.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown.length > 0) throw new Error(`--only: unknown part(s) ${unknown.join(', ')} (parts: ${PARTS.join(', ')})`);
  const wants = (part: Part) => only.includes(part);

  log(`dataset at scale ${scale}: ${JSON.stringify(planFor(scale))}`);
  const t0 = performance.now();
  const { desk, built, file } = await deskOnDataset(scale, log);
  log(`${built ? 'built' : 'reused'} ${file} (${Math.round((performance.now() - t0) / 1000)} s)`);
  const counts: Record<string, number> = {};
  let endpoints: EndpointFigure[] = [];
  let hot: HotPathFigure[] = [];
  let exportsFig: ExportFigure[] = [];
  let cycle: { first: CycleFigure; next: CycleFigure } | null = null;
  let detector: Latency | null = null;
  let rssMiB: number;
  try {
    for (const t of ['signals', 'sources', 'tasks', 'task_notes', 'task_comments', 'task_blockers', 'artifacts', 'memory', 'memory_retrieval_daily', 'cost_daily', 'activity', 'outbox_events', 'outbound_subscriptions', 'outbound_deliveries', 'runs']) {
      counts[t] = Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(t)}`.execute(desk.services.db)).rows[0].n);
    }
    log(`rows: ${JSON.stringify(counts)}`);
    if (wants('endpoints')) endpoints = await measureEndpoints(desk, 'checkout');
    if (wants('detector')) detector = await sequential(20, () => desk.services.costGuard.detectSpikes(), 2);
    if (wants('cycle')) cycle = { first: await cycleOver1000(desk, 0), next: await cycleOver1000(desk, 1) };
    rssMiB = process.memoryUsage().rss / 1024 / 1024;
  } finally {
    await desk.stop();
  }
  if (wants('hot')) hot = await measureHotPaths(file);
  if (wants('exports')) exportsFig = await measureExportsAtCap(file);
  const cold = wants('cold') ? await sequential(3, () => coldStart(file), 1) : null;
  const readPaths = endpoints.length > 0 ? endpoints.map((e) => e.path) : ['/api/v1/workspace', '/api/v1/tasks', '/api/v1/signals', '/api/v1/activity', '/api/v1/artifacts?status=ready', '/api/v1/search?q=checkout'];
  const serverRss: RssFigure | null = wants('rss') ? await measureServerRss(file, [...readPaths, ...EXPORTS.filter((e) => e !== 'export').map((e) => `/api/v1/workspace/${e}`)]) : null;
  // `--ui-signals N`: the UI pages on the dataset topped up to N signals (ui-dataset.ts); by default on the dataset as built.
  const uiSignals = Number(argValue(args, '--ui-signals') ?? '0');
  // `--ui-loads N`: measured loads per page (UI_LOADS by default), fewer while working on one page.
  const uiLoads = Number(argValue(args, '--ui-loads') ?? String(UI_LOADS));
  const ui: UiFigures | null = wants('ui') ? await measureUiPages(uiSignals > 0 ? await datasetWithSignals(scale, uiSignals, log) : file, log, uiLoads) : null;
  let scaleReport: ScaleReport | null = null;
  if (wants('scale')) {
    log(`list growth: ${Math.min(10_000, largeSignals)} -> ${largeSignals} signals through the ingest path`);
    scaleReport = await measureScale(Math.min(10_000, largeSignals), largeSignals, log);
  }

  for (const e of endpoints) {
    const target = e.name.startsWith('GET /artifacts') ? TARGETS.artifactsReadyP99Ms : null;
    const search = e.name.startsWith('GET /search');
    check(`${e.name} p50 (bare ${round(e.bareExpress.p50)}, sql ${e.rawSql ? round(e.rawSql.p50) : '-'})`, e.desk.p50, 'ms', search ? `< ${TARGETS.searchP50Ms}` : '', search ? e.desk.p50 < TARGETS.searchP50Ms : null);
    check(`${e.name} p99 (bare ${round(e.bareExpress.p99)}, sql ${e.rawSql ? round(e.rawSql.p99) : '-'})`, e.desk.p99, 'ms', target ? `< ${target}` : '', target ? e.desk.p99 < target : null);
    check(`${e.name} req/s, 1 client (bare ${Math.round(e.bareExpress.perSecond)})`, e.desk.perSecond, 'req/s', '', null);
  }
  for (const h of hot) {
    const sides = h.target === null ? `${Math.round(h.desk)} / ${Math.round(h.baseline)} req/s` : `shipped desk ${Math.round(h.desk)} / baseline ${Math.round(h.baseline)} req/s`;
    check(`${h.name} c=8, ${sides}${h.cpuRatio === null ? '' : `, cpu ratio ${round(h.cpuRatio)}`}`, h.ratio, 'x', h.target === null ? '' : `>= ${h.target}`, h.target === null ? null : h.ratio >= h.target);
  }
  for (const x of exportsFig) {
    check(`GET /workspace/${x.path} p50 (${Number.isNaN(x.rows) ? '' : `${x.rows} rows, `}${Math.round(x.bytes / 1024)} KiB${x.capped ? ', capped at 5000' : ''}${x.toppedUp ? `; ${x.toppedUp} added to reach it` : ''})`, x.latency.p50, 'ms', '', null);
  }
  if (detector) check('cost-guard detector pass p50', detector.p50, 'ms', `< ${TARGETS.detectorMs}`, detector.p50 < TARGETS.detectorMs);
  if (cycle) {
    const line = (c: CycleFigure) => `${c.status}, ${c.signalsRead} read; run ${c.durationMs} ms, engine ${c.engineMs} ms, cpu ${c.cpuMs} ms`;
    check(`local-engine cycle over 1,000 new signals, the desk's first (${line(cycle.first)}; starts the worker, loads the token counter)`, cycle.first.ms, 'ms', '', null);
    check(`local-engine cycle over 1,000 new signals, every later one (${line(cycle.next)})`, cycle.next.ms, 'ms', `< ${TARGETS.cycleMs}`, cycle.next.status === 'completed' && cycle.next.ms < TARGETS.cycleMs);
  }
  if (cold) check('cold start to ready (startDesk + GET /workspace) p50', cold.p50, 'ms', `< ${TARGETS.coldStartMs}`, cold.p50 < TARGETS.coldStartMs);
  if (serverRss) {
    check(`server RSS right after ${serverRss.requests} requests (own process; at start ${round(serverRss.startMiB)}, peak ${round(serverRss.peakMiB)} MiB)`, serverRss.rssMiB, 'MiB', '', null);
    const r = serverRss.resting;
    check(`server RSS after the run, the desk idle a few seconds (V8 heap ${round(r.heapTotalMiB)} committed / ${round(r.heapUsedMiB)} used, external ${round(r.externalMiB)})`, serverRss.restingMiB, 'MiB', `< ${TARGETS.rssMiB}`, serverRss.restingMiB < TARGETS.rssMiB);
  }
  check('bench process RSS (desk + load workers + baselines + client)', rssMiB, 'MiB', '', null);
  if (scaleReport) {
    check(`ingest path while growing to ${scaleReport.largeCount}`, scaleReport.ingestPerSecond, 'sig/s', '', null);
    for (const l of scaleReport.lists) {
      check(`${l.name} p50 ${scaleReport.largeCount} / ${scaleReport.smallCount} signals (${round(l.large.p50)} / ${round(l.small.p50)} ms)`, l.ratio, 'x', `<= ${LIST_GROWTH_TARGET}`, l.ratio <= LIST_GROWTH_TARGET);
    }
  }

  if (ui) {
    // The issue's targets, on moving to a page in the running app (and on Search).
    for (const u of ui.navSummaries) {
      check(`UI ${u.name} in-app navigation ready p50 (max ${round(u.maxMs)} ms; longest task ${round(u.longestTaskMs)} ms)`, u.p50Ms, 'ms', `< ${UI_READY_P50_MS}, task <= ${UI_LONG_TASK_MS}`, u.absoluteOk);
    }
    for (const u of ui.summaries) {
      check(
        `UI ${u.name} cold load ready p50 (max ${round(u.maxMs)} ms, ${round(u.ratio)}x the blank page; longest task ${round(u.longestTaskMs)} ms, ${round(u.longTaskRatio)}x; ${u.absoluteOk ? 'within' : 'past'} ${UI_READY_P50_MS} / ${UI_LONG_TASK_MS} ms)`,
        u.p50Ms,
        'ms',
        `< ${UI_READY_P50_MS} or ${READY_RATIO}x, task < ${UI_LONG_TASK_MS} or ${LONG_TASK_RATIO}x`,
        u.ok,
      );
    }
    for (const line of uiTable(ui)) console.log(line);
  }

  const width = Math.max(...checks.map((c) => c.name.length));
  for (const c of checks) console.log(`${c.name.padEnd(width)}  ${String(c.value).padStart(9)} ${c.unit.padEnd(5)} ${c.target.padEnd(8)} ${c.ok === null ? '' : c.ok ? 'ok' : 'MISSED'}`);
  const missed = checks.filter((c) => c.ok === false);
  fs.mkdirSync('bench-results', { recursive: true });
  const out = path.join('bench-results', 'full.json');
  fs.writeFileSync(out, JSON.stringify({ scale, only, plan: planFor(scale), counts, endpoints, hotPaths: hot, exports: exportsFig, detector, cycle, coldStart: cold, rssMiB, serverRss, scale10kVs1M: scaleReport, ui: ui && { baseline: ui.baseline, pages: ui.pages.map((p) => ({ name: p.spec.name, path: p.spec.path, loads: p.loads, navigations: p.navigations })), search: ui.search, summaries: ui.summaries, navSummaries: ui.navSummaries }, checks, targets: { ...TARGETS, listGrowth: LIST_GROWTH_TARGET, workspaceRatio: WORKSPACE_TARGET, signalsRatio: SIGNALS_TARGET } }, null, 2));
  log(`${missed.length} target(s) missed; figures in ${out}`);
  return missed.length;
}
