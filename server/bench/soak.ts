/**
 * `npm run soak [-- --minutes 30]` (also `npm run bench -- --soak`): the desk as a user runs it
 * (soak-child.mjs: the bundle, system clock, scheduler on) for a long while under a realistic mix,
 * to find what only time shows: a leak of memory, file handles or WAL.
 *
 * The mix, all on 127.0.0.1: FEEDS feeds polled every minute from a local feed server (each poll
 * finds new items), a burst of webhook deliveries every BURST_EVERY_MS, the loop's cycle every
 * minute, and the UI's polling (the endpoints the open pages refresh, every UI_EVERY_MS). Every
 * minute it prints the desk's resident set (VmRSS), V8 heap used, open file descriptors, WAL size
 * and the p99 latency of that minute's requests; at the end a verdict: the resident set of the last
 * minute within RSS_TOLERANCE of minute WARM_MINUTE (after warm-up). Writes bench-results/soak.json.
 * Exit code 1 on a failed verdict or a failed request.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import readline from 'node:readline';
import Database from 'better-sqlite3';
import { percentile } from './measure';

const root = path.resolve(import.meta.dirname, '../..');

export const FEEDS = 20;
/** New items each feed shows per minute. */
const ITEMS_PER_MINUTE = 3;
const BURST_EVERY_MS = 20_000;
/** Deliveries per burst, sent at once, each with SIGNALS_PER_DELIVERY signals. */
const BURST_SIZE = 25;
const SIGNALS_PER_DELIVERY = 4;
const UI_EVERY_MS = 5_000;
/** What the open UI refreshes (Home, the review queue, Signals, Sources, the loop header). */
export const UI_POLLS = [
  '/api/v1/stats',
  '/api/v1/workspace/summary',
  '/api/v1/workspace/today',
  '/api/v1/workspace/whats-new',
  '/api/v1/signals?limit=50',
  '/api/v1/tasks?limit=50',
  '/api/v1/sources?limit=50',
  '/api/v1/runs?limit=20',
  '/api/v1/integrations/inbound',
];
export const WARM_MINUTE = 5;
export const RSS_TOLERANCE = 0.1;

export interface SoakMinute {
  minute: number;
  rssMiB: number;
  heapUsedMiB: number;
  /** V8's heap as reserved (committed), and memory V8 knows outside it (Buffers, native objects): what of the RSS is not SQLite's or the allocator's. */
  heapTotalMiB: number;
  externalMiB: number;
  openFds: number;
  walMiB: number;
  dbMiB: number;
  requests: number;
  failed: number;
  p99Ms: number;
  signals: number;
  /** Cycles completed so far. */
  runs: number;
}

const MiB = 1024 * 1024;
const round = (n: number, places = 1) => Math.round(n * 10 ** places) / 10 ** places;

function argValue(args: string[], flag: string): string | undefined {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
}

/** A feed server whose feeds gain ITEMS_PER_MINUTE items each minute (the newest 50 are served). */
function startFeedServer(startedAt: number): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const feed = Number(req.url?.split('/')[1] ?? 0);
    const newest = Math.floor((Date.now() - startedAt) / 60_000) * ITEMS_PER_MINUTE + ITEMS_PER_MINUTE;
    const items = Array.from({ length: Math.min(50, newest) }, (_, k) => newest - 1 - k)
      .map((i) => `<item><guid>f${feed}-${i}</guid><title>Feed ${feed} item ${i}</title><link>https://example.com/${feed}/${i}</link><description>${'d'.repeat(300)}</description></item>`)
      .join('');
    res.writeHead(200, { 'content-type': 'application/rss+xml' });
    res.end(`<?xml version="1.0"?><rss version="2.0"><channel><title>Feed ${feed}</title>${items}</channel></rss>`);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

interface Child {
  url: string;
  token: string;
  pid: number;
  memory(): Promise<NodeJS.MemoryUsage>;
  stop(): Promise<void>;
}

function startChild(dataDir: string): Promise<Child> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'soak-child.mjs'), dataDir], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout! });
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  const next = () => new Promise<string>((resolve) => waiting.push(resolve));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the soak's desk exited with code ${code}`)));
    void next().then((line) => {
      const { url, token } = JSON.parse(line) as { url: string; token: string };
      resolve({
        url,
        token,
        pid: child.pid!,
        memory: async () => {
          const answer = next();
          child.stdin!.write('memory\n');
          return JSON.parse(await answer) as NodeJS.MemoryUsage;
        },
        stop: () =>
          new Promise<void>((done) => {
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.stdin!.end();
          }),
      });
    });
  });
}

const vmRssKiB = (pid: number): number => {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return line ? Number(line.split(/\s+/)[1]) : NaN;
};
const sizeOf = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);

export async function runSoak(args: string[]): Promise<number> {
  const minutes = Number(argValue(args, '--minutes') ?? '30');
  if (!(Number.isInteger(minutes) && minutes >= 2)) throw new Error('--minutes must be an integer of at least 2');
  const warm = Math.min(WARM_MINUTE, Math.max(1, Math.floor(minutes / 2)));
  const log = (line: string) => console.log(`[soak] ${line}`);
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-if-stale.mjs')], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (build.status !== 0) throw new Error('scripts/build-if-stale.mjs failed');

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-soak-'));
  const feedServer = await startFeedServer(Date.now());
  const feedPort = (feedServer.address() as AddressInfo).port;
  const desk = await startChild(dataDir);
  const auth = { authorization: `Bearer ${desk.token}` };
  const bucket: { times: number[]; failed: number } = { times: [], failed: 0 };
  let failures = 0;
  const call = async (method: string, urlPath: string, body?: unknown, headers: Record<string, string> = auth) => {
    const t0 = performance.now();
    try {
      const res = await fetch(desk.url + urlPath, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      bucket.times.push(performance.now() - t0);
      if (res.status >= 400) {
        bucket.failed++;
        failures++;
        log(`${method} ${urlPath}: HTTP ${res.status} ${text.slice(0, 200)}`);
      }
      return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    } catch (err) {
      bucket.failed++;
      failures++;
      log(`${method} ${urlPath}: ${err instanceof Error ? err.message : String(err)}`);
      return { status: 0, body: {} };
    }
  };

  const timers: NodeJS.Timeout[] = [];
  const rows: SoakMinute[] = [];
  try {
    // The workspace as a busy user sets it up: a cycle every minute, feeds polled every minute.
    await call('PATCH', '/api/v1/workspace/loop-interval', { loopIntervalMinutes: 1 });
    for (let f = 0; f < FEEDS; f++) {
      const res = await call('POST', '/api/v1/sources', { type: 'rss', label: `Soak feed ${f}`, url: `http://127.0.0.1:${feedPort}/${f}`, pollIntervalMinutes: 1 });
      if (res.status !== 201) throw new Error(`create source: HTTP ${res.status}`);
    }
    let burst = 0;
    const sendBurst = () => {
      const b = burst++;
      for (let d = 0; d < BURST_SIZE; d++) {
        const signals = Array.from({ length: SIGNALS_PER_DELIVERY }, (_, i) => ({ title: `Soak delivery ${b}-${d}-${i}`, detail: 'x'.repeat(400) }));
        void call('POST', `/api/webhooks/signals/${desk.token}`, { signals }, { 'idempotency-key': `soak-${b}-${d}` });
      }
    };
    const pollUi = () => {
      for (const p of UI_POLLS) void call('GET', p);
    };
    timers.push(setInterval(sendBurst, BURST_EVERY_MS), setInterval(pollUi, UI_EVERY_MS));
    log(`desk pid ${desk.pid} at ${desk.url}; ${FEEDS} feeds, a burst of ${BURST_SIZE}x${SIGNALS_PER_DELIVERY} signals every ${BURST_EVERY_MS / 1000} s, UI polls every ${UI_EVERY_MS / 1000} s, a cycle a minute; ${minutes} minutes`);
    console.log('minute  rss MiB  heap MiB  heap total  external  fds  wal MiB  db MiB  requests  failed  p99 ms  signals  runs ok');
    const dbFile = path.join(dataDir, 'desk.sqlite');
    for (let minute = 1; minute <= minutes; minute++) {
      await new Promise((resolve) => setTimeout(resolve, 60_000));
      const times = bucket.times.splice(0).sort((a, b) => a - b);
      const failed = bucket.failed;
      bucket.failed = 0;
      const memory = await desk.memory();
      // Counted read-only beside the desk (WAL readers do not block its writer).
      const counts = new Database(dbFile, { readonly: true, fileMustExist: true });
      const signals = (counts.prepare('select count(*) as n from signals').get() as { n: number }).n;
      const runs = counts.prepare("select count(*) as n, sum(status = 'completed') as completed from runs").get() as { n: number; completed: number | null };
      counts.close();
      const row: SoakMinute = {
        minute,
        rssMiB: round(vmRssKiB(desk.pid) / 1024),
        heapUsedMiB: round(memory.heapUsed / MiB),
        heapTotalMiB: round(memory.heapTotal / MiB),
        externalMiB: round(memory.external / MiB),
        openFds: fs.readdirSync(`/proc/${desk.pid}/fd`).length,
        walMiB: round(sizeOf(`${dbFile}-wal`) / MiB, 2),
        dbMiB: round(sizeOf(dbFile) / MiB, 2),
        requests: times.length,
        failed,
        p99Ms: round(percentile(times, 99)),
        signals,
        runs: runs.completed ?? 0,
      };
      rows.push(row);
      console.log(
        [row.minute, row.rssMiB, row.heapUsedMiB, row.heapTotalMiB, row.externalMiB, row.openFds, row.walMiB, row.dbMiB, row.requests, row.failed, row.p99Ms, row.signals, row.runs]
          .map((v, i) => String(v).padStart([6, 8, 9, 11, 9, 4, 8, 7, 9, 7, 7, 8, 8][i]))
          .join(' '),
      );
    }
  } finally {
    for (const t of timers) clearInterval(t);
    await desk.stop();
    feedServer.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const at = (m: number) => rows.find((r) => r.minute === m)!;
  const first = at(warm);
  const last = at(minutes);
  const rssGrowth = (last.rssMiB - first.rssMiB) / first.rssMiB;
  const ok = Math.abs(rssGrowth) <= RSS_TOLERANCE && failures === 0;
  const verdict = {
    minutes,
    warmMinute: warm,
    rss: { warm: first.rssMiB, last: last.rssMiB, growth: round(rssGrowth * 100, 1) },
    heapUsed: { warm: first.heapUsedMiB, last: last.heapUsedMiB },
    openFds: { warm: first.openFds, last: last.openFds, max: Math.max(...rows.map((r) => r.openFds)) },
    walMiB: { max: Math.max(...rows.map((r) => r.walMiB)) },
    p99Ms: { max: Math.max(...rows.map((r) => r.p99Ms)), median: percentile(rows.map((r) => r.p99Ms).sort((a, b) => a - b), 50) },
    failedRequests: failures,
    ok,
  };
  log(
    `verdict: RSS minute ${minutes} ${last.rssMiB} MiB against minute ${warm} ${first.rssMiB} MiB (${verdict.rss.growth}%, limit ±${RSS_TOLERANCE * 100}%); heap ${first.heapUsedMiB} -> ${last.heapUsedMiB} MiB; fds ${first.openFds} -> ${last.openFds}; WAL at most ${verdict.walMiB.max} MiB; p99 at most ${verdict.p99Ms.max} ms; ${failures} failed requests: ${ok ? 'OK' : 'FAILED'}`,
  );
  fs.mkdirSync(path.join(root, 'bench-results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'bench-results', 'soak.json'), `${JSON.stringify({ verdict, minutes: rows }, null, 2)}\n`);
  return ok ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) process.exit(await runSoak(process.argv.slice(2)));
