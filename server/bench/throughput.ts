/**
 * Throughput of the two hot paths against their framework ceilings, measured in one run:
 *  - GET /api/v1/workspace of a real desk vs a bare Express route answering the same JSON;
 *  - POST /api/v1/signals of a real desk vs bare Express with one better-sqlite3 insert per request
 *    into a table shaped like `signals` (same pragmas as the desk's database).
 * Each server is driven by CONCURRENCY keep-alive clients for a bounded number of requests (and a
 * bounded time), 127.0.0.1 only. The clients run in a worker thread, so the figures are the
 * servers' (on a 2-core machine the client does not take the server's core). Rounds alternate
 * baseline and desk; the ratio of each round compares figures taken seconds apart.
 */
import fs from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import express from 'express';
import { monotonicFactory } from 'ulid';
import { pooledRandom } from '../core/ids';
import helmet from 'helmet';
import { STRICT_HELMET, precomputedHeaders } from '../app';
import { sql } from 'kysely';
import { startTestDesk } from '../testing/desk';

export const CONCURRENCY = 8;
export const WORKSPACE_TARGET = 0.85;
export const SIGNALS_TARGET = 0.7;

export interface ThroughputOptions {
  /** Measured rounds (each: baseline then desk, for both paths). */
  rounds?: number;
  /** Requests per measurement. */
  requests?: number;
  /** Upper bound of one measurement, in seconds (the count stops early past it). */
  maxSeconds?: number;
  /** Requests sent to each server before measuring (JIT, caches, page cache). */
  warmup?: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  failures: number;
  p50Ms: number;
  /** Server CPU time per request (main thread), when the platform tells it. */
  cpuMicrosPerRequest?: number | null;
}

export interface ThroughputReport {
  rounds: {
    bareGet: LoadResult;
    deskGet: LoadResult;
    bareInsert: LoadResult;
    /** The desk at the baseline's pragmas (synchronous=NORMAL): what the framework costs, like for like. */
    deskPost: LoadResult;
    /** The desk as it runs (synchronous=FULL, group commit): the same work, durable on answer. */
    deskPostFull: LoadResult;
    /** Express writing the same three rows in one transaction (informational floor). */
    bareTransaction: LoadResult;
    /** Express answering the same JSON with the desk's security headers (informational floor). */
    bareGetHeaders: LoadResult;
    getRatio: number;
    postRatio: number;
    /** deskPostFull against the same baseline (informational: the durability price is in it). */
    postRatioFull: number;
    /** The same ratios from server CPU time per request (baseline CPU / desk CPU); null off Linux. */
    getCpuRatio: number | null;
    postCpuRatio: number | null;
  }[];
  getRatio: { median: number; min: number; max: number };
  postRatio: { median: number; min: number; max: number };
  /** Ratios whose median is below target. */
  missed: number;
}

export interface LoadSpec {
  port: number;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  /** POST bodies: `%i` is replaced by the request number. */
  body?: string;
  requests: number;
  maxSeconds: number;
  concurrency: number;
  /** The process the server under test runs in, for its CPU time (default: this one). */
  serverPid?: number;
}

// The load generator: plain node:http with one keep-alive socket per client.
const LOAD_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const spec = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: spec.concurrency, maxFreeSockets: spec.concurrency });
let issued = 0, failures = 0;
const times = [];
const deadline = performance.now() + spec.maxSeconds * 1000;
function one(i) {
  return new Promise((resolve) => {
    const body = spec.body === undefined ? undefined : Buffer.from(spec.body.replace('%i', String(i)));
    const headers = { ...spec.headers };
    if (body) headers['content-length'] = String(body.length);
    const t0 = performance.now();
    const req = http.request({ agent, host: '127.0.0.1', port: spec.port, method: spec.method, path: spec.path, headers }, (res) => {
      res.on('data', () => {});
      res.on('end', () => {
        if (res.statusCode >= 300) failures++;
        times.push(performance.now() - t0);
        resolve();
      });
    });
    req.on('error', () => { failures++; resolve(); });
    req.end(body);
  });
}
async function client() {
  while (issued < spec.requests && performance.now() < deadline) await one(issued++);
}
(async () => {
  const start = performance.now();
  await Promise.all(Array.from({ length: spec.concurrency }, client));
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  times.sort((a, b) => a - b);
  parentPort.postMessage({ requests: times.length, seconds, perSecond: times.length / seconds, failures, p50Ms: times[Math.floor(times.length / 2)] ?? 0 });
})();
`;

/**
 * CPU time of a process's main thread (where the server under test runs: this process, or the
 * shipped desk's), in microseconds, from Linux's per-thread scheduler statistics; null elsewhere.
 * The machine is shared: wall-clock requests/s move with other people's load, the server's CPU
 * time per request much less.
 */
function serverCpuMicros(pid = process.pid): number | null {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
  } catch {
    return null;
  }
}

export function drive(spec: LoadSpec): Promise<LoadResult> {
  const cpuBefore = serverCpuMicros(spec.serverPid);
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOAD_WORKER, { eval: true, workerData: spec });
    worker.once('message', (result: LoadResult) => {
      const cpuAfter = serverCpuMicros(spec.serverPid);
      void worker.terminate();
      if (result.failures > 0) reject(new Error(`${spec.method} ${spec.path}: ${result.failures} failed requests`));
      else resolve({ ...result, cpuMicrosPerRequest: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / result.requests });
    });
    worker.once('error', reject);
  });
}

export function listen(app: express.Express): Promise<http.Server> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
}

export const portOf = (server: http.Server) => (server.address() as AddressInfo).port;
export const close = (server: http.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/**
 * The ceiling of GET /workspace: Express answering a fixed object as JSON (serialised per request).
 * With `headers`, the desk's own security headers too (an informational floor: they add ~560
 * bytes to every answer, which the bare route does not send).
 */
export function bareJsonApp(body: unknown, headers?: express.RequestHandler): express.Express {
  const app = express();
  if (headers) app.use(headers);
  app.get('/api/v1/workspace', (_req, res) => {
    res.json(body);
  });
  return app;
}

/**
 * The ceiling of POST /signals: Express parsing the JSON body and inserting one row with a
 * prepared better-sqlite3 statement into a table shaped like `signals` (same indexes, same
 * pragmas), answering the row as JSON.
 */
export function bareInsertApp(file: string): { app: express.Express; sqlite: Database.Database } {
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.exec(`
    CREATE TABLE signals (
      id TEXT PRIMARY KEY, kind TEXT NOT NULL, priority TEXT NOT NULL, title TEXT NOT NULL, detail TEXT NOT NULL,
      source_url TEXT, source_id TEXT, pinned INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL, external_id TEXT);
    CREATE INDEX signals_created ON signals (created_at);
    CREATE INDEX signals_source_created ON signals (source_id, created_at);
    CREATE UNIQUE INDEX signals_external_id ON signals (external_id) WHERE external_id IS NOT NULL;`);
  const insert = sqlite.prepare('INSERT INTO signals (id, kind, priority, title, detail, source_url, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  // The desk's id generator (pooled randomness), so the baselines do not pay for ulid's default one.
  const ulid = monotonicFactory(pooledRandom);
  const app = signalWritingApp(ulid, (b, id, createdAt) => {
    insert.run(id, b.kind, b.priority, b.title, b.detail, b.sourceUrl ?? null, createdAt);
  });
  return { app, sqlite };
}

function cpuRatio(baseline: LoadResult, desk: LoadResult): number | null {
  const b = baseline.cpuMicrosPerRequest;
  const d = desk.cpuMicrosPerRequest;
  return b == null || d == null || d === 0 ? null : b / d;
}

/**
 * Not a target, the floor the transactional outbox sets: Express writing what POST /signals
 * writes (the signal, its activity row and its outbox event, same tables and indexes) in one
 * better-sqlite3 transaction. What the desk loses against this is framework work; what this loses
 * against one insert is the cost of the activity row and the event in the same transaction.
 */
export function bareTransactionApp(file: string): { app: express.Express; sqlite: Database.Database } {
  const { app: unused, sqlite } = bareInsertApp(file);
  void unused;
  sqlite.exec(`
    CREATE TABLE activity (id TEXT PRIMARY KEY, kind TEXT NOT NULL, detail TEXT NOT NULL, actor_user_id TEXT, actor_label TEXT NOT NULL,
      entity_type TEXT, entity_id TEXT, created_at TEXT NOT NULL);
    CREATE INDEX activity_created ON activity (created_at);
    CREATE INDEX activity_kind_created ON activity (kind, created_at);
    CREATE TABLE outbox_events (id TEXT PRIMARY KEY, event TEXT NOT NULL, payload TEXT NOT NULL, created_at TEXT NOT NULL, delivered_at TEXT);
    CREATE INDEX outbox_undelivered ON outbox_events (delivered_at, created_at);`);
  const insertSignal = sqlite.prepare('INSERT INTO signals (id, kind, priority, title, detail, source_url, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const insertActivity = sqlite.prepare('INSERT INTO activity (id, kind, detail, actor_user_id, actor_label, entity_type, entity_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const insertEvent = sqlite.prepare('INSERT INTO outbox_events (id, event, payload, created_at, delivered_at) VALUES (?, ?, ?, ?, NULL)');
  // The desk's id generator (pooled randomness), so the baselines do not pay for ulid's default one.
  const ulid = monotonicFactory(pooledRandom);
  const write = sqlite.transaction((b: BenchSignalBody, id: string, createdAt: string) => {
    insertSignal.run(id, b.kind, b.priority, b.title, b.detail, b.sourceUrl ?? null, createdAt);
    const eventId = `evt_${ulid()}`;
    const payload = JSON.stringify({ id: eventId, event: 'signal.created', createdAt, data: { signalId: id, kind: b.kind, priority: b.priority, title: b.title, sourceId: null, origin: 'manual' } });
    insertEvent.run(eventId, 'signal.created', payload, createdAt);
    insertActivity.run(`act_${ulid()}`, 'signal.created', `Signal created: ${b.title}`, 'usr_owner', 'Owner', 'signal', id, createdAt);
  });
  return { app: signalWritingApp(ulid, write), sqlite };
}

/** A bench signal as POSTed (SIGNAL_BODY). */
export type BenchSignalBody = { kind: string; priority: string; title: string; detail: string; sourceUrl?: string | null };

/** Bare Express answering POST /api/v1/signals with 201 after `write` stored the signal (the floors' transport). */
export function signalWritingApp(ulid: () => string, write: (body: BenchSignalBody, id: string, createdAt: string) => void): express.Express {
  const app = express();
  app.use(express.json({ limit: '1mb' }));
  app.post('/api/v1/signals', (req, res) => {
    const b = req.body as BenchSignalBody;
    const id = `sig_${ulid()}`;
    const createdAt = new Date().toISOString();
    write(b, id, createdAt);
    res.status(201).json({ id, kind: b.kind, priority: b.priority, title: b.title, detail: b.detail, sourceUrl: b.sourceUrl ?? null, createdAt });
  });
  return app;
}

function summary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], min: sorted[0], max: sorted[sorted.length - 1] };
}

export const SIGNAL_BODY = JSON.stringify({ kind: 'note', priority: 'normal', title: 'Bench signal %i', detail: 'x'.repeat(200) });

/** Runs the section; prints nothing (see printThroughput). */
export async function measureThroughput(options: ThroughputOptions = {}): Promise<ThroughputReport> {
  const rounds = options.rounds ?? 5;
  const requests = options.requests ?? 2000;
  const maxSeconds = options.maxSeconds ?? 20;
  const warmup = options.warmup ?? 500;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-bench-'));
  const desk = await startTestDesk();
  const servers: http.Server[] = [];
  const databases: Database.Database[] = [];
  try {
    const profile = await desk.api('GET', '/api/v1/workspace');
    if (profile.status !== 200) throw new Error(`GET /workspace: HTTP ${profile.status}`);
    const bareGet = await listen(bareJsonApp(profile.body));
    servers.push(bareGet);
    const bareGetHeaders = await listen(bareJsonApp(profile.body, precomputedHeaders(helmet(STRICT_HELMET))));
    servers.push(bareGetHeaders);
    const bare = bareInsertApp(path.join(tmp, 'bare.db'));
    databases.push(bare.sqlite);
    const bareInsert = await listen(bare.app);
    servers.push(bareInsert);
    const tx = bareTransactionApp(path.join(tmp, 'bare-tx.db'));
    databases.push(tx.sqlite);
    const bareTransaction = await listen(tx.app);
    servers.push(bareTransaction);
    const deskPort = Number(new URL(desk.url).port);
    const auth = { authorization: `Bearer ${desk.token}` };
    const json = { 'content-type': 'application/json' };
    const specs = {
      bareGet: { port: portOf(bareGet), method: 'GET', path: '/api/v1/workspace', headers: {} },
      deskGet: { port: deskPort, method: 'GET', path: '/api/v1/workspace', headers: auth },
      bareGetHeaders: { port: portOf(bareGetHeaders), method: 'GET', path: '/api/v1/workspace', headers: {} },
      bareInsert: { port: portOf(bareInsert), method: 'POST', path: '/api/v1/signals', headers: json, body: SIGNAL_BODY },
      bareTransaction: { port: portOf(bareTransaction), method: 'POST', path: '/api/v1/signals', headers: json, body: SIGNAL_BODY },
      deskPost: { port: deskPort, method: 'POST', path: '/api/v1/signals', headers: { ...auth, ...json }, body: SIGNAL_BODY },
    } as const;
    const run = (name: keyof typeof specs, n: number) => drive({ ...specs[name], requests: n, maxSeconds, concurrency: CONCURRENCY });
    for (const name of Object.keys(specs) as (keyof typeof specs)[]) await run(name, warmup);
    const out: ThroughputReport['rounds'] = [];
    for (let r = 0; r < rounds; r++) {
      const bareGetResult = await run('bareGet', requests);
      const deskGetResult = await run('deskGet', requests);
      const bareGetHeadersResult = await run('bareGetHeaders', requests);
      const bareInsertResult = await run('bareInsert', requests);
      // Like for like: the baseline runs at synchronous=NORMAL, so the desk does for this figure (its
      // own FULL, which syncs the WAL at every group commit, is measured next and printed beside it).
      await sql`PRAGMA synchronous = NORMAL`.execute(desk.services.db);
      const deskPostResult = await run('deskPost', requests);
      await sql`PRAGMA synchronous = FULL`.execute(desk.services.db);
      const deskPostFullResult = await run('deskPost', requests);
      const bareTransactionResult = await run('bareTransaction', requests);
      out.push({
        bareGet: bareGetResult,
        deskGet: deskGetResult,
        bareInsert: bareInsertResult,
        deskPost: deskPostResult,
        deskPostFull: deskPostFullResult,
        bareTransaction: bareTransactionResult,
        bareGetHeaders: bareGetHeadersResult,
        getRatio: deskGetResult.perSecond / bareGetResult.perSecond,
        postRatio: deskPostResult.perSecond / bareInsertResult.perSecond,
        postRatioFull: deskPostFullResult.perSecond / bareInsertResult.perSecond,
        getCpuRatio: cpuRatio(bareGetResult, deskGetResult),
        postCpuRatio: cpuRatio(bareInsertResult, deskPostResult),
      });
    }
    const getRatio = summary(out.map((r) => r.getRatio));
    const postRatio = summary(out.map((r) => r.postRatio));
    const missed = (getRatio.median >= WORKSPACE_TARGET ? 0 : 1) + (postRatio.median >= SIGNALS_TARGET ? 0 : 1);
    return { rounds: out, getRatio, postRatio, missed };
  } finally {
    for (const server of servers) await close(server);
    for (const sqlite of databases) sqlite.close();
    await desk.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

export function printThroughput(report: ThroughputReport, print: (line: string) => void = console.log): void {
  const f = (n: number) => String(Math.round(n)).padStart(6);
  const r2 = (n: number) => n.toFixed(2);
  print(`throughput, c=${CONCURRENCY} keep-alive clients (requests/s; p50 ms)`);
  report.rounds.forEach((r, i) => {
    print(
      `  round ${i + 1}: GET /workspace bare ${f(r.bareGet.perSecond)} (${r.bareGet.p50Ms.toFixed(1)}) desk ${f(r.deskGet.perSecond)} (${r.deskGet.p50Ms.toFixed(1)}) = ${r2(r.getRatio)}x` +
        ` | POST /signals bare+insert ${f(r.bareInsert.perSecond)} (${r.bareInsert.p50Ms.toFixed(1)}) desk ${f(r.deskPost.perSecond)} (${r.deskPost.p50Ms.toFixed(1)}) = ${r2(r.postRatio)}x`,
    );
  });
  const cpu = (r: LoadResult) => (r.cpuMicrosPerRequest == null ? '' : ` ${Math.round(r.cpuMicrosPerRequest)}us cpu/req`);
  report.rounds.forEach((r, i) => {
    if (r.getCpuRatio === null || r.postCpuRatio === null) return;
    print(
      `  round ${i + 1} server CPU: GET bare${cpu(r.bareGet)}, desk${cpu(r.deskGet)} = ${r2(r.getCpuRatio)}x | POST bare+insert${cpu(r.bareInsert)}, desk${cpu(r.deskPost)} = ${r2(r.postCpuRatio)}x`,
    );
  });
  const line = (name: string, s: ThroughputReport['getRatio'], target: number) =>
    print(`  ${name}: median ${r2(s.median)}x (range ${r2(s.min)}-${r2(s.max)}), target >= ${target} ${s.median >= target ? 'ok' : 'MISSED'}`);
  line('GET /workspace vs bare Express       ', report.getRatio, WORKSPACE_TARGET);
  line('POST /signals vs Express + one insert', report.postRatio, SIGNALS_TARGET);
  const full = summary(report.rounds.map((r) => r.postRatioFull));
  print(`  (both at synchronous=NORMAL, the baseline's pragmas; the desk as it runs, synchronous=FULL with group commit: ${r2(full.median)}x, range ${r2(full.min)}-${r2(full.max)})`);
  const headerFloor = summary(report.rounds.map((r) => r.bareGetHeaders.perSecond / r.bareGet.perSecond));
  const headerDesk = summary(report.rounds.map((r) => r.deskGet.perSecond / r.bareGetHeaders.perSecond));
  const headerCpu = report.rounds.map((r) => cpuRatio(r.bareGetHeaders, r.deskGet)).filter((v): v is number => v !== null);
  print(
    `  (floor) Express + the desk's security headers: ${r2(headerFloor.median)}x of bare Express (range ${r2(headerFloor.min)}-${r2(headerFloor.max)});` +
      ` desk GET /workspace = ${r2(headerDesk.median)}x of it (range ${r2(headerDesk.min)}-${r2(headerDesk.max)})` +
      (headerCpu.length ? `, ${r2(summary(headerCpu).median)}x by CPU` : ''),
  );
  const floor = summary(report.rounds.map((r) => r.deskPost.perSecond / r.bareTransaction.perSecond));
  const floorCpu = report.rounds.map((r) => cpuRatio(r.bareTransaction, r.deskPost)).filter((v): v is number => v !== null);
  const floorOfInsert = summary(report.rounds.map((r) => r.bareTransaction.perSecond / r.bareInsert.perSecond));
  print(
    `  (floor) Express + signal, activity row and outbox event in one transaction: ${r2(floorOfInsert.median)}x of Express + one insert` +
      ` (range ${r2(floorOfInsert.min)}-${r2(floorOfInsert.max)}); desk POST /signals = ${r2(floor.median)}x of it (range ${r2(floor.min)}-${r2(floor.max)})` +
      (floorCpu.length ? `, ${r2(summary(floorCpu).median)}x by CPU` : ''),
  );
  const cpuLine = (name: string, values: (number | null)[], target: number) => {
    const known = values.filter((v): v is number => v !== null);
    if (known.length === 0) return;
    const s = summary(known);
    print(`  ${name}: median ${r2(s.median)}x (range ${r2(s.min)}-${r2(s.max)}) by server CPU per request (steadier on a shared machine), target >= ${target}`);
  };
  cpuLine('GET /workspace, CPU                 ', report.rounds.map((r) => r.getCpuRatio), WORKSPACE_TARGET);
  cpuLine('POST /signals, CPU                  ', report.rounds.map((r) => r.postCpuRatio), SIGNALS_TARGET);
}
