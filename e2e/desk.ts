import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test as base, type Locator, type Page } from '@playwright/test';

/**
 * Starts a real desk the way a user does (`node out/main/cli.js`, what `npm start` runs after
 * building), in a fresh data folder on a free port, and reads the printed `Open: ...#token=...` line.
 * The bundle starts in about a third of the time `npx tsx server/cli.ts` took (no npx, no compile on
 * start) and stops without waiting for npx and tsx; the global setup (e2e/global-setup.ts) rebuilds
 * it first when a source changed, so the browser tests never run an old server.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface RunningCliDesk {
  /** The link printed by the CLI, token in the fragment. */
  openUrl: string;
  /** `http://127.0.0.1:PORT` */
  baseUrl: string;
  token: string;
  dataDir: string;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Calls the API with the bearer token; `body` is the parsed JSON answer. */
  api<T = Record<string, unknown>>(method: string, urlPath: string, body?: unknown): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

/** `dataDir`: start on this folder (e.g. one a test prepared) and leave it on stop(); by default a fresh one, removed on stop(). */
export async function startCliDesk(options: { env?: Record<string, string>; timeoutMs?: number; dataDir?: string } = {}): Promise<RunningCliDesk> {
  if (!fs.existsSync(path.join(root, 'out/renderer/index.html')) || !fs.existsSync(path.join(root, 'out/main/cli.js'))) {
    throw new Error('Desk is not built: run `node scripts/build-if-stale.mjs` (npm test and the global setup do it) before the browser tests');
  }
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'desk-e2e-'));
  // Own process group, so stop() reaches every process the desk starts.
  const child = spawn(process.execPath, ['out/main/cli.js'], {
    cwd: root,
    env: { ...process.env, DESK_DATA_DIR: dataDir, DESK_PORT: '0', DESK_HOST: '127.0.0.1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));

  // A worker that ends without calling stop() (a crash, a timeout) still takes its desk with it.
  const killOnExit = () => killGroup(child, 'SIGKILL');
  process.once('exit', killOnExit);
  const stop = async () => {
    // Wait for the whole group, not only the child.
    if (groupAlive(child)) {
      killGroup(child, 'SIGTERM');
      const deadline = Date.now() + 5_000;
      while (groupAlive(child) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      if (groupAlive(child)) killGroup(child, 'SIGKILL');
    }
    process.removeListener('exit', killOnExit);
    if (options.dataDir === undefined) fs.rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const openUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`desk did not print its URL within ${options.timeoutMs ?? 30_000} ms:\n${output}`)), options.timeoutMs ?? 30_000);
      const check = () => {
        const match = /^Open: (http:\/\/\S+#token=\S+)$/m.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      child.stdout!.on('data', check);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`desk exited with code ${code} before printing its URL:\n${output}`));
      });
    });
    const url = new URL(openUrl);
    const token = new URLSearchParams(url.hash.slice(1)).get('token')!;
    const baseUrl = url.origin;
    return {
      openUrl,
      baseUrl,
      token,
      dataDir,
      output: () => output,
      async api<T>(method: string, urlPath: string, body?: unknown) {
        const res = await fetch(baseUrl + urlPath, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Whether any process of the child's group is still running (signal 0 only checks). */
function groupAlive(child: ChildProcess): boolean {
  try {
    process.kill(-child.pid!, 0);
    return true;
  } catch {
    return false;
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}

/**
 * One desk for a spec file: started before its tests, stopped after them. `loopOff` turns the loop
 * off first, so only the test's own Run now makes cycles (a scheduled one could take its signals).
 * The answer stands for the running desk (read it inside tests and hooks, not at file level).
 */
export function deskForFile(options: { loopOff?: boolean; env?: Record<string, string> } = {}): RunningCliDesk {
  let running: RunningCliDesk | undefined;
  test.beforeAll(async () => {
    running = await startCliDesk({ env: options.env });
    if (options.loopOff) expect((await running.api('PATCH', '/api/v1/workspace/loop', { loopState: 'off' })).status).toBe(200);
  });
  test.afterAll(async () => {
    await running?.stop();
  });
  return new Proxy({} as RunningCliDesk, {
    get(_target, key: keyof RunningCliDesk) {
      if (running === undefined) throw new Error('the desk starts in beforeAll: read it inside a test or hook');
      const value = running[key];
      return typeof value === 'function' ? value.bind(running) : value;
    },
  });
}

/**
 * What a test says about the browser's console: every console error and uncaught page error fails
 * the test, except those it allows by pattern with a reason (a request the test makes fail on
 * purpose, which the UI shows in words: the browser still logs its status).
 */
export interface ConsoleGuard {
  /** Lets console errors matching `pattern` pass, for this test only; `why` says what the UI shows instead. */
  allow(pattern: RegExp, why: string): void;
  /** The console errors seen so far (each "console: text @ url" or "pageerror: message"). */
  errors(): string[];
}

/**
 * The browser tests' `test`: Playwright's, with a guard on every page of the test's context that
 * fails the test on any console error or page error it did not allow. Every spec imports it from here.
 */
export const test = base.extend<{ consoleGuard: ConsoleGuard }>({
  consoleGuard: [
    async ({ context }, use) => {
      const seen: string[] = [];
      const allowed: RegExp[] = [];
      context.on('console', (m) => {
        if (m.type() === 'error') seen.push(`console: ${m.text()} @ ${m.location().url}`);
      });
      context.on('weberror', (e) => seen.push(`pageerror: ${e.error().message}`));
      await use({ allow: (pattern) => void allowed.push(pattern), errors: () => [...seen] });
      expect(seen.filter((e) => !allowed.some((p) => p.test(e))), 'console errors in the browser').toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * Saves a picture of the page (or of one part) for a person to look at, never a check: only when
 * DESK_SHOTS_DIR names a folder (`DESK_SHOTS_DIR=/tmp/shots npx playwright test`). npm test looks at
 * none, and the thirty-odd shots, full-page ones most, were seconds of every run.
 */
export async function lookAt(target: Page | Locator, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const dir = process.env.DESK_SHOTS_DIR;
  if (!dir) return;
  const file = path.join(dir, `${name}.png`);
  await ('goto' in target ? target.screenshot({ path: file, ...options }) : target.screenshot({ path: file }));
}

export { expect };

