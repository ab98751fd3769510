/**
 * Server memory as it ships: the desk in a process of its own (serve-child.mjs: plain Node running
 * electron-vite's bundle of the server, as `npm start` and the desktop's utility process do) on a
 * copy of the dataset, driven by this process with every read endpoint of the table and every
 * export, then its resident set (VmRSS) right after the run and again once it has rested a few
 * seconds (idle, it collects the run's garbage: server/core/idle-gc.ts), and its peak (VmHWM), read
 * from /proc (Linux). In the bench's
 * own process the figure would also hold tsx, the load workers, the baselines and the client.
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { IDLE_GC_EVERY_MS } from '../../core/idle-gc';
import { fetchRetry } from '../measure';
import { startShippedDesk } from './shipped-desk';

export interface RssFigure {
  /** Right after it answered its first request (start: modules, migrations check, kept reads). */
  startMiB: number;
  /** Right after the last answer. */
  rssMiB: number;
  /** REST_MS later, the desk idle: what it holds once it collected the run's garbage (server/core/idle-gc.ts). */
  restingMiB: number;
  peakMiB: number;
  /** At rest: what of the resident set is V8's heap (committed / used), and memory V8 knows outside it. */
  resting: { heapTotalMiB: number; heapUsedMiB: number; externalMiB: number; arrayBuffersMiB: number };
  requests: number;
  /** From spawning the process (plain node, the bundle) to its first GET /workspace answered. */
  processStartMs: number;
}

/** Two idle-GC looks and a margin: the desk, idle after the run, has collected by then if it will. */
const REST_MS = 2 * IDLE_GC_EVERY_MS + 1_000;

const statusKiB = (pid: number, field: string): number => {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(`${field}:`));
  return line ? Number(line.split(/\s+/)[1]) : NaN;
};

export async function measureServerRss(file: string, paths: string[], rounds = 50): Promise<RssFigure> {
  const child = await startShippedDesk(file);
  try {
    const { url, token } = child;
    const auth = { headers: { authorization: `Bearer ${token}` } };
    const ready = await fetchRetry(`${url}/api/v1/workspace`, auth);
    await ready.arrayBuffer();
    const processStartMs = performance.now() - child.spawnedAt;
    const startMiB = statusKiB(child.pid, 'VmRSS') / 1024;
    let requests = 1;
    for (let r = 0; r < rounds; r++) {
      for (const p of paths) {
        const res = await fetchRetry(url + p, auth);
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${p}: HTTP ${res.status}`);
        requests++;
      }
    }
    const rssMiB = statusKiB(child.pid, 'VmRSS') / 1024;
    await new Promise((resolve) => setTimeout(resolve, REST_MS));
    const restingMiB = statusKiB(child.pid, 'VmRSS') / 1024;
    const m = await child.memory();
    const mib = (bytes: number) => bytes / 1024 / 1024;
    const resting = { heapTotalMiB: mib(m.heapTotal), heapUsedMiB: mib(m.heapUsed), externalMiB: mib(m.external), arrayBuffersMiB: mib(m.arrayBuffers) };
    return { startMiB, rssMiB, restingMiB, peakMiB: statusKiB(child.pid, 'VmHWM') / 1024, resting, requests, processStartMs };
  } finally {
    await child.stop();
  }
}
