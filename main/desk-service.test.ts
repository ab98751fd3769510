/**
 * Both sides of the desk-process protocol under plain Node: DeskHost (main's side) talks to
 * serveDesk (the utility process's side) over an in-memory stand-in for Electron's ports, with a
 * real desk on a temp data folder, a manual clock and the scheduler timer off.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { tempDirs } from '../server/testing/temp-dirs';
import { HOUR_MS, ManualClock } from '../server/core/clock';
import { DeskHost, type DeskChild, type DeskHostEvents } from './desk-host';
import type { ToDesk, ToMain } from './desk-protocol';
import { serveDesk, type DeskPort, type ServeOptions } from './desk-service';

const tempDir = tempDirs('desk-process-');

/** utilityProcess.fork() in memory: messages are structured-cloned and delivered asynchronously, like Electron's. */
function fork(options: ServeOptions) {
  const toChild: ((message: unknown) => void)[] = [];
  const onExit: ((code: number) => void)[] = [];
  const sentToMain: ToMain[] = [];
  const portListeners: ((event: { data: unknown }) => void)[] = [];
  let exited = false;
  const exit = (code: number) => {
    if (exited) return;
    exited = true;
    for (const listener of onExit) listener(code);
  };
  const port: DeskPort = {
    postMessage(message) {
      sentToMain.push(message);
      const copy = structuredClone(message);
      setImmediate(() => toChild.forEach((listener) => listener(copy)));
    },
    on(_event, listener) {
      portListeners.push(listener);
    },
  };
  const child: DeskChild = {
    postMessage(message: ToDesk) {
      const copy = structuredClone(message);
      setImmediate(() => portListeners.forEach((listener) => listener({ data: copy })));
    },
    on(event: 'message' | 'exit', listener: (arg: never) => void) {
      (event === 'message' ? toChild : onExit).push(listener as never);
    },
    kill() {
      exit(143);
      return true;
    },
  } as DeskChild;
  const service = serveDesk(port, options);
  // The process exits once the service is done (desk-process.ts does this after a moment).
  void service.done.then((code) => setImmediate(() => exit(code)));
  return { child, service, sentToMain, exit };
}

function events() {
  return {
    onLoopState: vi.fn<DeskHostEvents['onLoopState']>(),
    onLoopError: vi.fn<DeskHostEvents['onLoopError']>(),
    onReviewAttention: vi.fn<NonNullable<DeskHostEvents['onReviewAttention']>>(),
    onToken: vi.fn<NonNullable<DeskHostEvents['onToken']>>(),
    onCrash: vi.fn<DeskHostEvents['onCrash']>(),
  } satisfies DeskHostEvents;
}

const startOptions = { clock: new ManualClock('2026-03-10T12:00:00.000Z'), runScheduler: false };
const env = { DESK_TIMEZONE: 'UTC' };

describe('desk process', () => {
  it('serves the desk: ready carries the URL and token, the tray pauses the loop, stop closes cleanly', async () => {
    const dataDir = tempDir();
    const { child, service, sentToMain } = fork({ env, startOptions });
    const handlers = events();
    const host = new DeskHost(child, handlers);

    const ready = await host.start({ type: 'start', dataDir, uiDir: path.join(dataDir, 'no-ui') });
    expect(ready).toMatchObject({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), loopState: 'on', logFile: path.join(dataDir, 'logs', 'desk.log') });
    expect(ready.token).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    // The token from the ready message opens the API; the desktop picked a free port (not 4477).
    const profile = await fetch(`${ready.url}/api/v1/workspace`, { headers: { authorization: `Bearer ${ready.token}` } });
    expect(profile.status).toBe(200);
    expect(new URL(ready.url).port).not.toBe('4477');

    // A rotation through the API reaches main, so the window is handed the new token from then on.
    const rotated = (await (await fetch(`${ready.url}/api/v1/workspace/token/rotate`, { method: 'POST', headers: { authorization: `Bearer ${ready.token}` } })).json()) as { token: string };
    await vi.waitFor(() => expect(handlers.onToken).toHaveBeenCalledWith(rotated.token));
    expect(sentToMain).toContainEqual({ type: 'token', token: rotated.token });
    ready.token = rotated.token;

    host.setLoop('paused');
    await vi.waitFor(() => expect(handlers.onLoopState).toHaveBeenCalledWith('paused'));
    const after = (await (await fetch(`${ready.url}/api/v1/workspace`, { headers: { authorization: `Bearer ${ready.token}` } })).json()) as { loopState: string };
    expect(after.loopState).toBe('paused');

    await host.stop(10_000);
    expect(await service.done).toBe(0);
    expect(sentToMain.at(-1)).toEqual({ type: 'stopped' });
    expect(handlers.onCrash).not.toHaveBeenCalled();
    await expect(fetch(`${ready.url}/api/v1/openapi.json`)).rejects.toThrow();

    // Stopped cleanly: the data-folder lock is released and the log says so, without the token.
    const log = fs.readFileSync(path.join(dataDir, 'logs', 'desk.log'), 'utf8');
    expect(log).toContain('"msg":"desk started"');
    expect(log).toContain('"msg":"desk stopped"');
    expect(log).not.toContain(ready.token);
    const again = fork({ env, startOptions });
    const host2 = new DeskHost(again.child, events());
    await expect(host2.start({ type: 'start', dataDir, uiDir: dataDir })).resolves.toMatchObject({ token: ready.token });
    await host2.stop(10_000);
  });

  it('encrypts the secrets file with the key main hands it in the start message', async () => {
    const dataDir = tempDir();
    const { child, service } = fork({ env, startOptions });
    const host = new DeskHost(child, events());
    const secretsKey = Buffer.alloc(32, 9).toString('base64');
    const ready = await host.start({ type: 'start', dataDir, uiDir: dataDir, secretsKey });
    const res = await fetch(`${ready.url}/api/v1/workspace/engine`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${ready.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: 'sk-desktop-key-4321' }),
    });
    expect(await res.json()).toMatchObject({ apiKeySet: true, apiKeyHint: '4321' });
    const file = fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8');
    expect(JSON.parse(file)).toMatchObject({ encrypted: true });
    expect(file).not.toContain('sk-desktop-key-4321');
    await host.stop(10_000);
    expect(await service.done).toBe(0);
  });

  it('a desk that cannot start reports why and where the log is, and exits 1', async () => {
    const dataDir = tempDir();
    const { child, service } = fork({ env: { ...env, DESK_PLAN: 'gold' }, startOptions });
    const host = new DeskHost(child, events());
    await expect(host.start({ type: 'start', dataDir, uiDir: dataDir })).rejects.toThrow(/DESK_PLAN must be free, pro or team/);
    expect(await service.done).toBe(1);
    const log = fs.readFileSync(path.join(dataDir, 'logs', 'desk.log'), 'utf8');
    expect(log).toMatch(/"level":"fatal".*DESK_PLAN/);
  });

  it('an uncaught failure after ready reaches main as a crash with the log path', async () => {
    const dataDir = tempDir();
    const { child, service } = fork({ env, startOptions });
    const handlers = events();
    const host = new DeskHost(child, handlers);
    const ready = await host.start({ type: 'start', dataDir, uiDir: dataDir });
    service.fail(new Error('disk on fire'));
    await vi.waitFor(() => expect(handlers.onCrash).toHaveBeenCalledWith({ message: 'disk on fire', logFile: ready.logFile }));
    expect(await service.done).toBe(1);
    expect(handlers.onCrash).toHaveBeenCalledTimes(1);
  });

  it('a process that dies without a word is reported as an unexpected exit', async () => {
    const dataDir = tempDir();
    const { child, service, exit } = fork({ env, startOptions });
    const handlers = events();
    const host = new DeskHost(child, handlers);
    const ready = await host.start({ type: 'start', dataDir, uiDir: dataDir });
    exit(9); // e.g. killed by the OS
    expect(handlers.onCrash).toHaveBeenCalledWith({ message: 'the desk process exited unexpectedly (code 9)', logFile: ready.logFile });
    service.fail(new Error('cleanup')); // release the desk this test left running
    await service.done;
  });

  it('forwards the review queue attention to main: the counts after ready, then only changes, with newly overdue outputs', async () => {
    const dataDir = tempDir();
    const clock = new ManualClock('2026-03-10T12:00:00.000Z');
    const { child, service, sentToMain } = fork({ env, startOptions: { clock, runScheduler: false } });
    const handlers = events();
    const host = new DeskHost(child, handlers);
    const ready = await host.start({ type: 'start', dataDir, uiDir: dataDir });
    const call = async (method: string, urlPath: string, body?: unknown) => {
      const res = await fetch(`${ready.url}/api/v1${urlPath}`, {
        method,
        headers: { authorization: `Bearer ${ready.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const nothing = { ready: 0, watch: 0, overdue: 0, newlyOverdue: [], newlyOverdueTotal: 0 };
    await vi.waitFor(() => expect(handlers.onReviewAttention).toHaveBeenCalledWith(nothing));
    // Ready comes first, so main has its window and tray when the count arrives.
    const kinds = sentToMain.map((m) => m.type);
    expect(kinds.indexOf('ready')).toBeLessThan(kinds.indexOf('review-attention'));

    // A cycle (the built-in engine) drafts an output: main hears one waiting.
    expect((await call('POST', '/signals', { kind: 'review', priority: 'high', title: 'Customer asks for annual billing', detail: 'They would pay yearly.' })).status).toBe(201);
    expect((await call('POST', '/runs')).body).toMatchObject({ status: 'completed' });
    await vi.waitFor(() => expect(handlers.onReviewAttention).toHaveBeenLastCalledWith({ ...nothing, ready: 1 }));
    const queue = (await call('GET', '/artifacts')).body as { artifacts: { id: string; title: string }[] };
    const [output] = queue.artifacts;

    // Three days on (the default policy: overdue from 72 h) it crossed into overdue; the next look (here after a write) names it once.
    // (A minute more: the cycle ran in the worker, whose clock is the fake now plus the real time the cycle took.)
    clock.advance(72 * HOUR_MS + 60_000);
    expect((await call('POST', `/artifacts/${output.id}/pin`, { pinned: true })).status).toBe(200);
    await vi.waitFor(() =>
      expect(handlers.onReviewAttention).toHaveBeenLastCalledWith({ ready: 1, watch: 0, overdue: 1, newlyOverdue: [{ id: output.id, title: output.title }], newlyOverdueTotal: 1 }),
    );
    const told = handlers.onReviewAttention.mock.calls.length;
    expect((await call('POST', `/artifacts/${output.id}/pin`, { pinned: false })).status).toBe(200);

    // Approved: it leaves the count.
    expect((await call('POST', `/artifacts/${output.id}/approve`)).status).toBe(200);
    await vi.waitFor(() => expect(handlers.onReviewAttention).toHaveBeenLastCalledWith(nothing));
    // The unpin changed nothing main shows: only the approval was announced after the overdue message.
    expect(handlers.onReviewAttention).toHaveBeenCalledTimes(told + 1);
    expect(sentToMain.filter((m) => m.type === 'review-attention')).toHaveLength(told + 1);

    await host.stop(10_000);
    expect(await service.done).toBe(0);
  });
});
