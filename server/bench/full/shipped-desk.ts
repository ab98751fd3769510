/**
 * The desk as it ships, in a process of its own: serve-child.mjs runs electron-vite's bundle of the
 * server under plain Node (what `npm start` and the desktop's utility process run) on a copy of the
 * dataset. The memory figure (rss.ts) and the hot paths (hot-paths.ts) measure it there: in the
 * bench's own process the desk would run under tsx (its loader, and esbuild's keepNames on every
 * named closure) beside the load workers, the baselines and the client.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import readline from 'node:readline';
import { copyToFreshDir, DATASET_END } from './dataset';

const root = path.resolve(import.meta.dirname, '../../..');

export interface ShippedDesk {
  url: string;
  token: string;
  pid: number;
  /** performance.now() when the process was spawned (after the build check and the copy). */
  spawnedAt: number;
  /** The process's own process.memoryUsage() (heap, external, array buffers), asked over its stdin. */
  memory(): Promise<NodeJS.MemoryUsage>;
  /** Stops the desk (it closes cleanly when its stdin ends) and removes its data folder. */
  stop(): Promise<void>;
}

/** The bundle the child runs is out/main/desk-server.js: build it when the sources changed (what `npm start` does first). */
function buildIfStale(): void {
  const res = spawnSync(process.execPath, [path.join(root, 'scripts/build-if-stale.mjs')], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (res.status !== 0) throw new Error(`scripts/build-if-stale.mjs failed (${res.status ?? res.signal})`);
}

/**
 * Starts the bundled desk on a copy of `file`, its clock standing at the dataset's end.
 * `synchronous`: the SQLite setting the child puts on its connection (the hot-path ratios compare
 * with a baseline at NORMAL); omitted, the desk's own (FULL). `webhookRateLimitPerMinute`: the
 * inbound webhook's limit per token (a counter compared either way: the limit costs nothing).
 * `ui`: serve the built UI (out/renderer) beside the API, as `npm start` does.
 */
export async function startShippedDesk(file: string, options: { synchronous?: 'NORMAL'; webhookRateLimitPerMinute?: number; ui?: boolean } = {}): Promise<ShippedDesk> {
  buildIfStale();
  const dataDir = copyToFreshDir(file);
  const flags = [
    ...(options.synchronous ? [`synchronous=${options.synchronous}`] : []),
    ...(options.webhookRateLimitPerMinute === undefined ? [] : [`webhook-limit=${options.webhookRateLimitPerMinute}`]),
    ...(options.ui ? [`ui=${path.join(root, 'out', 'renderer')}`] : []),
  ];
  const args = [path.join(import.meta.dirname, 'serve-child.mjs'), dataDir, DATASET_END, ...flags];
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const stop = async () => {
    child.stdin.end();
    await new Promise((resolve) => (child.exitCode === null && child.signalCode === null ? child.once('exit', resolve) : resolve(null)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  // Lines after the first answer `memory` requests, in order.
  const waiting: ((line: string) => void)[] = [];
  const lines = readline.createInterface({ input: child.stdout });
  try {
    const first = await new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`serve-child exited (${code}) before answering`)));
    });
    lines.on('line', (line) => waiting.shift()?.(line));
    const { url, token } = JSON.parse(first) as { url: string; token: string };
    const memory = () =>
      new Promise<NodeJS.MemoryUsage>((resolve) => {
        waiting.push((line) => resolve(JSON.parse(line) as NodeJS.MemoryUsage));
        child.stdin.write('memory\n');
      });
    return { url, token, pid: child.pid!, spawnedAt, memory, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
