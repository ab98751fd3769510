/**
 * The hot paths on the full dataset at the ratios issue 2 set, with the throughput harness of
 * throughput.ts (c=8 keep-alive clients in a worker thread, rounds alternating baseline and desk):
 * GET /workspace against bare Express answering the same JSON (>= 0.85x); POST /signals and the
 * inbound webhook (one signal per request) against Express + one better-sqlite3 insert (>= 0.7x),
 * the desk at the baseline's synchronous=NORMAL for the ratio, as throughput.ts measures it.
 * The desk is the shipped one in a process of its own (shipped-desk.ts: the bundle under plain
 * Node), its server CPU per request read from that process; the baselines run in this one.
 *
 * Accepted deliveries only: drive() fails on any answer that is not 2xx, so a 429 of the webhook's
 * per-token limit can never be counted as throughput. The desk runs with that limit raised
 * (WEBHOOK_LIMIT: the webhook's rounds are as long as the others', and its warm-up too); the
 * limiter's work is one counter compared with the limit, whatever the limit.
 */
import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fetchRetry } from '../measure';
import { deskSchemaFloorApp } from './desk-schema-floor';
import { startShippedDesk } from './shipped-desk';
import { bareInsertApp, bareJsonApp, bareTransactionApp, close, CONCURRENCY, drive, listen, portOf, SIGNAL_BODY, SIGNALS_TARGET, WORKSPACE_TARGET, type LoadResult, type LoadSpec } from '../throughput';

export interface HotPathFigure {
  name: string;
  desk: number;
  baseline: number;
  /** Median over rounds of desk / baseline. */
  ratio: number;
  /** Median over rounds of baseline / desk server CPU per request (steadier on a shared machine; informational). */
  cpuRatio: number | null;
  /** null: not a target, a floor printed beside them. */
  target: number | null;
}

// Nine rounds, which of the pair goes first alternating: on a shared 2-core machine one round's
// ratio can swing by 0.2 either way (a neighbour's burst lands on one side of a pair), a median of
// nine short rounds much less than one of five longer ones.
const ROUNDS = 9;
const REQUESTS = 1000;
/**
 * Each side of a pair serves 1,500 requests first: both JITs settle before the rounds. With a short
 * warm-up both were still warming through the rounds, the baseline faster than the desk, so a
 * pair's ratio depended on its place in the run.
 */
const WARMUP = 1500;
/** The desk's webhook limit per minute for this run: above the webhook's whole budget (checked below). */
const WEBHOOK_LIMIT = 20_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function measureHotPaths(file: string): Promise<HotPathFigure[]> {
  // First: if the dataset copy cannot be opened, nothing else has started to be left behind.
  const schemaFloor = await deskSchemaFloorApp(file);
  const desk = await startShippedDesk(file, { synchronous: 'NORMAL', webhookRateLimitPerMinute: WEBHOOK_LIMIT });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-bench-hot-'));
  const servers: http.Server[] = [];
  const bare = bareInsertApp(path.join(tmp, 'bare.db'));
  const bareTx = bareTransactionApp(path.join(tmp, 'bare-tx.db'));
  try {
    const profile = await fetchRetry(`${desk.url}/api/v1/workspace`, { headers: { authorization: `Bearer ${desk.token}` } });
    const bareGet = await listen(bareJsonApp(await profile.json()));
    servers.push(bareGet);
    const bareInsert = await listen(bare.app);
    servers.push(bareInsert);
    const bareWrites = await listen(bareTx.app);
    servers.push(bareWrites);
    const schemaWrites = await listen(schemaFloor.app);
    servers.push(schemaWrites);
    const port = Number(new URL(desk.url).port);
    const auth = { authorization: `Bearer ${desk.token}` };
    const json = { 'content-type': 'application/json' };
    const base = { requests: REQUESTS, maxSeconds: 20, concurrency: CONCURRENCY };
    const deskBase = { ...base, serverPid: desk.pid };
    const pairs: { name: string; target: number | null; baseline: LoadSpec; desk: LoadSpec }[] = [
      {
        name: 'GET /workspace',
        target: WORKSPACE_TARGET,
        baseline: { ...base, port: portOf(bareGet), method: 'GET', path: '/api/v1/workspace', headers: {} },
        desk: { ...deskBase, port, method: 'GET', path: '/api/v1/workspace', headers: auth },
      },
      {
        name: 'POST /signals',
        target: SIGNALS_TARGET,
        baseline: { ...base, port: portOf(bareInsert), method: 'POST', path: '/api/v1/signals', headers: json, body: SIGNAL_BODY },
        desk: { ...deskBase, port, method: 'POST', path: '/api/v1/signals', headers: { ...auth, ...json }, body: SIGNAL_BODY },
      },
      {
        name: 'POST inbound webhook (1 signal)',
        target: SIGNALS_TARGET,
        baseline: { ...base, port: portOf(bareInsert), method: 'POST', path: '/api/v1/signals', headers: json, body: SIGNAL_BODY },
        desk: { ...deskBase, port, method: 'POST', path: `/api/webhooks/signals/${desk.token}`, headers: json, body: SIGNAL_BODY },
      },
      {
        // The floor under the POST ratio: what the spec's writes (signal, activity row, event in one
        // transaction) cost a bare Express app, against its one insert; "desk" here is that app.
        name: 'floor: Express + signal, activity row and event in one transaction, vs one insert',
        target: null,
        baseline: { ...base, port: portOf(bareInsert), method: 'POST', path: '/api/v1/signals', headers: json, body: SIGNAL_BODY },
        desk: { ...base, port: portOf(bareWrites), method: 'POST', path: '/api/v1/signals', headers: json, body: SIGNAL_BODY },
      },
      {
        // The same writes on the desk's own schema (desk-schema-floor.ts): what its indexes and search
        // triggers cost, without the desk's request handling and without its group commit.
        name: "floor on the dataset's tables: Express + the same writes into a copy of the dataset, one transaction each, vs one insert",
        target: null,
        baseline: { ...base, port: portOf(bareInsert), method: 'POST', path: '/api/v1/signals', headers: json, body: SIGNAL_BODY },
        desk: { ...base, port: portOf(schemaWrites), method: 'POST', path: '/api/v1/signals', headers: json, body: SIGNAL_BODY },
      },
    ];
    if (WARMUP + ROUNDS * REQUESTS > WEBHOOK_LIMIT) {
      throw new Error(`hot paths: ${WARMUP + ROUNDS * REQUESTS} webhook requests would pass the desk's ${WEBHOOK_LIMIT} a minute; raise WEBHOOK_LIMIT`);
    }
    const out: HotPathFigure[] = [];
    for (const p of pairs) {
      await drive({ ...p.baseline, requests: WARMUP });
      await drive({ ...p.desk, requests: WARMUP });
      const rounds: { b: LoadResult; d: LoadResult }[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        if (r % 2 === 0) {
          const b = await drive(p.baseline);
          rounds.push({ b, d: await drive(p.desk) });
        } else {
          const d = await drive(p.desk);
          rounds.push({ b: await drive(p.baseline), d });
        }
      }
      const cpu = rounds.flatMap(({ b, d }) => (b.cpuMicrosPerRequest == null || !d.cpuMicrosPerRequest ? [] : [b.cpuMicrosPerRequest / d.cpuMicrosPerRequest]));
      out.push({
        name: p.name,
        desk: median(rounds.map((r) => r.d.perSecond)),
        baseline: median(rounds.map((r) => r.b.perSecond)),
        ratio: median(rounds.map((r) => r.d.perSecond / r.b.perSecond)),
        cpuRatio: cpu.length === ROUNDS ? median(cpu) : null,
        target: p.target,
      });
    }
    return out;
  } finally {
    for (const s of servers) await close(s);
    bare.sqlite.close();
    bareTx.sqlite.close();
    schemaFloor.sqlite.close();
    fs.rmSync(schemaFloor.dataDir, { recursive: true, force: true });
    fs.rmSync(tmp, { recursive: true, force: true });
    await desk.stop();
  }
}
