import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Crash safety (issue 8 part 5): the desk runs as its own process, as `npm start` runs it, takes a
 * mixed write load (webhook signals, API creates and updates), and is killed with SIGKILL in the
 * middle of it. Restarted on the same data folder it must hold every write it acknowledged, pass
 * SQLite's integrity check, and take over the lock the killed process left behind.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TOKEN = 'crash-safety-test-token-0123456789abcdef';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-crash-'));

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

interface Desk {
  child: ChildProcess;
  baseUrl: string;
  exited: Promise<void>;
}

/** Starts `server/cli.ts` in one node process (no npx or tsx wrapper, so SIGKILL reaches the desk itself). */
async function startDesk(): Promise<Desk> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts'], {
    cwd: root,
    env: { ...process.env, DESK_DATA_DIR: dataDir, DESK_PORT: '0', DESK_HOST: '127.0.0.1', DESK_INGEST_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /^Open: (http:\/\/[^/#\s]+)/m.exec(output);
      if (match) resolve(match[1]);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`desk exited (${code}) before it was ready:\n${output}`)));
  });
  return { child, baseUrl, exited };
}

async function call(desk: Desk, method: string, urlPath: string, body: unknown, bearer = true) {
  const res = await fetch(desk.baseUrl + urlPath, {
    method,
    headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${TOKEN}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('crash safety', () => {
  it('keeps every acknowledged write through a SIGKILL under load, and restarts cleanly on the same folder', async () => {
    let desk = await startDesk();
    const acked = { signals: new Set<string>(), sources: new Set<string>(), intervals: [] as number[] };
    const sentIntervals: number[] = [];
    let stop = false;

    // Four writers in parallel, each acknowledging what the desk answered 2xx to.
    const webhookWriter = async () => {
      for (let i = 0; !stop; i++) {
        const res = await call(desk, 'POST', `/api/webhooks/signals/${TOKEN}`, { signals: Array.from({ length: 5 }, (_, j) => ({ title: `pushed ${i}.${j}` })) }, false).catch(() => null);
        if (res?.status === 201 || res?.status === 200) for (const id of res.body.signalIds as string[]) acked.signals.add(id);
      }
    };
    const signalWriter = async () => {
      for (let i = 0; !stop; i++) {
        const res = await call(desk, 'POST', '/api/v1/signals', { kind: 'note', priority: 'normal', title: `by hand ${i}`, detail: '' }).catch(() => null);
        if (res?.status === 201) acked.signals.add(res.body.id as string);
      }
    };
    const sourceWriter = async () => {
      for (let i = 0; !stop; i++) {
        const res = await call(desk, 'POST', '/api/v1/sources', { type: 'manual', label: `inbox ${i}` }).catch(() => null);
        if (res?.status === 201) acked.sources.add(res.body.id as string);
      }
    };
    const settingsWriter = async () => {
      for (let i = 0; !stop; i++) {
        const minutes = 30 + (i % 1000);
        sentIntervals.push(minutes);
        const res = await call(desk, 'PATCH', '/api/v1/workspace/loop-interval', { loopIntervalMinutes: minutes }).catch(() => null);
        if (res?.status === 200) acked.intervals.push(minutes);
      }
    };
    const writers = Promise.all([webhookWriter(), signalWriter(), sourceWriter(), settingsWriter()]);

    // Kill mid-load, once every kind of write has been acknowledged a good number of times.
    while (acked.signals.size < 300 || acked.sources.size < 20 || acked.intervals.length < 20) await new Promise((r) => setImmediate(r));
    desk.child.kill('SIGKILL');
    await desk.exited;
    stop = true;
    await writers;
    expect(fs.existsSync(path.join(dataDir, 'desk.lock'))).toBe(true); // left behind by the killed desk

    // The database file itself, before anything else opens it: intact.
    const raw = new Database(path.join(dataDir, 'desk.sqlite'));
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    raw.close();

    desk = await startDesk(); // takes over the stale lock
    try {
      const listed = await fetch(`${desk.baseUrl}/api/v1/signals?limit=200`, { headers: { authorization: `Bearer ${TOKEN}` } });
      const page = (await listed.json()) as { signals: { id: string }[] };
      const db = new Database(path.join(dataDir, 'desk.sqlite'), { readonly: true });
      const stored = new Set((db.prepare('SELECT id FROM signals').all() as { id: string }[]).map((r) => r.id));
      const sources = new Set((db.prepare('SELECT id FROM sources').all() as { id: string }[]).map((r) => r.id));
      const interval = (db.prepare('SELECT loop_interval_minutes AS m FROM workspace').get() as { m: number }).m;
      db.close();

      const lostSignals = [...acked.signals].filter((id) => !stored.has(id));
      const lostSources = [...acked.sources].filter((id) => !sources.has(id));
      expect(lostSignals).toEqual([]);
      expect(lostSources).toEqual([]);
      // The last acknowledged interval, or one sent after it whose answer the kill cut off.
      const last = acked.intervals[acked.intervals.length - 1];
      expect(sentIntervals.slice(sentIntervals.lastIndexOf(last))).toContain(interval);
      expect(page.signals).toHaveLength(200);
      expect(page.signals.every((sig) => stored.has(sig.id))).toBe(true);

      const res = await call(desk, 'POST', '/api/v1/signals', { kind: 'note', priority: 'normal', title: 'after the crash', detail: '' });
      expect(res.status).toBe(201);
    } finally {
      desk.child.kill('SIGTERM');
      await desk.exited;
    }
  }, 120_000);
});
