/**
 * Server memory as it ships: the desk in a process of its own (serve-child.mjs: plain Node running
 * electron-vite's bundle of the server, as `npm start` and the desktop's utility process do) on a
 * copy of the dataset, driven by this process with every read endpoint of the table and every
 * export, then its resident set (VmRSS) and peak (VmHWM) read from /proc (Linux). In the bench's
 * own process the figure would also hold tsx, the load workers, the baselines and the client.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import readline from 'node:readline';
import { fetchRetry } from '../measure';
import { copyToFreshDir, DATASET_END } from './dataset';

export interface RssFigure {
  /** Right after it answered its first request (start: modules, migrations check, kept reads). */
  startMiB: number;
  rssMiB: number;
  peakMiB: number;
  requests: number;
  /** From spawning the process (plain node, the bundle) to its first GET /workspace answered. */
  processStartMs: number;
}

const root = path.resolve(import.meta.dirname, '../../..');

const statusKiB = (pid: number, field: string): number => {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(`${field}:`));
  return line ? Number(line.split(/\s+/)[1]) : NaN;
};

/** The bundle the child runs is out/main/desk-server.js: build it when the sources changed (what `npm start` does first). */
function buildIfStale(): void {
  const res = spawnSync(process.execPath, [path.join(root, 'scripts/build-if-stale.mjs')], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (res.status !== 0) throw new Error(`scripts/build-if-stale.mjs failed (${res.status ?? res.signal})`);
}

export async function measureServerRss(file: string, paths: string[], rounds = 50): Promise<RssFigure> {
  buildIfStale();
  const dataDir = copyToFreshDir(file);
  const t0 = performance.now();
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'serve-child.mjs'), dataDir, DATASET_END], { stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    const first = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`serve-child exited (${code}) before answering`)));
    });
    const { url, token } = JSON.parse(first) as { url: string; token: string };
    const auth = { headers: { authorization: `Bearer ${token}` } };
    const ready = await fetchRetry(`${url}/api/v1/workspace`, auth);
    await ready.arrayBuffer();
    const processStartMs = performance.now() - t0;
    const startMiB = statusKiB(child.pid!, 'VmRSS') / 1024;
    let requests = 1;
    for (let r = 0; r < rounds; r++) {
      for (const p of paths) {
        const res = await fetchRetry(url + p, auth);
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${p}: HTTP ${res.status}`);
        requests++;
      }
    }
    return { startMiB, rssMiB: statusKiB(child.pid!, 'VmRSS') / 1024, peakMiB: statusKiB(child.pid!, 'VmHWM') / 1024, requests, processStartMs };
  } finally {
    child.stdin.end();
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
