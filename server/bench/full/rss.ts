/**
 * Server RSS after a run: the desk in a process of its own (serve-child.ts) on a copy of the
 * dataset, driven by this process with every read endpoint of the table and every export, then
 * its resident set (VmRSS) and peak (VmHWM) read from /proc (Linux). In the bench's own process
 * the figure would also hold the load workers, the baselines and the client.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fetchRetry } from '../measure';
import { copyToFreshDir } from './dataset';

export interface RssFigure {
  /** Right after it answered its first request (start: modules, migrations check, kept reads). */
  startMiB: number;
  rssMiB: number;
  peakMiB: number;
  requests: number;
}

const statusKiB = (pid: number, field: string): number => {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(`${field}:`));
  return line ? Number(line.split(/\s+/)[1]) : NaN;
};

export async function measureServerRss(file: string, paths: string[], rounds = 50): Promise<RssFigure> {
  const dataDir = copyToFreshDir(file);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'serve-child.ts'), dataDir], { stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    const first = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`serve-child exited (${code}) before answering`)));
    });
    const { url, token } = JSON.parse(first) as { url: string; token: string };
    const startMiB = statusKiB(child.pid!, 'VmRSS') / 1024;
    let requests = 0;
    for (let r = 0; r < rounds; r++) {
      for (const p of paths) {
        const res = await fetchRetry(url + p, { headers: { authorization: `Bearer ${token}` } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${p}: HTTP ${res.status}`);
        requests++;
      }
    }
    return { startMiB, rssMiB: statusKiB(child.pid!, 'VmRSS') / 1024, peakMiB: statusKiB(child.pid!, 'VmHWM') / 1024, requests };
  } finally {
    child.stdin.end();
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
