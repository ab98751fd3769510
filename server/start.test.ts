import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDirs } from './testing/temp-dirs';
import { configFromEnv, machineTimezone, type DeskConfig } from './config';
import { HOUR_MS, ManualClock } from './core/clock';
import { startDesk, type RunningDesk } from './start';

const running: RunningDesk[] = [];
const tempDir = tempDirs('desk-start-');

afterEach(async () => {
  for (const desk of running.splice(0)) await desk.stop();
});

/** Starts a desk from environment variables, as `npm start` does, on a manual clock. */
async function startFromEnv(env: Record<string, string>, dataDir: string, options: { runScheduler?: boolean } = {}) {
  const config = configFromEnv({ DESK_DATA_DIR: dataDir, DESK_PORT: '0', DESK_TIMEZONE: 'UTC', ...env });
  const desk = await startDesk(config, { clock: new ManualClock('2026-03-10T12:00:00.000Z'), runScheduler: options.runScheduler ?? false });
  running.push(desk);
  return desk;
}

async function call(desk: RunningDesk, method: string, urlPath: string, body?: unknown, token = desk.token) {
  const res = await fetch(desk.url + urlPath, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function stop(desk: RunningDesk) {
  running.splice(running.indexOf(desk), 1);
  await desk.stop();
}

const TOKEN_A = 'a'.repeat(20) + '_TokenForTests-A';
const TOKEN_B = 'b'.repeat(20) + '_TokenForTests-B';

describe('workspace creation on first start', () => {
  for (const [plan, cap, floor] of [
    ['free', 50, 15],
    ['pro', 500, 5],
    ['team', 2000, 1],
  ] as const) {
    it(`DESK_PLAN=${plan} seeds a daily cost cap of ${cap} cents`, async () => {
      const desk = await startFromEnv({ DESK_PLAN: plan }, tempDir());
      const { body } = await call(desk, 'GET', '/api/v1/workspace');
      expect(body).toMatchObject({ plan, dailyCostCapUsdCents: cap, planFloorMinutes: floor });
    });
  }

  it('uses DESK_INGEST_TOKEN as the bearer token, DESK_TIMEZONE as the timezone, and makes the owner the first member', async () => {
    const dir = tempDir();
    const desk = await startFromEnv({ DESK_INGEST_TOKEN: TOKEN_A, DESK_TIMEZONE: 'Europe/Berlin' }, dir);
    expect(desk.token).toBe(TOKEN_A);
    const { status, body } = await call(desk, 'GET', '/api/v1/workspace');
    expect(status).toBe(200);
    expect(body).toMatchObject({ timezone: 'Europe/Berlin', plan: 'free', dailyCostCapUsdCents: 50, loopState: 'on' });
    const users = await desk.services.db.selectFrom('users').selectAll().execute();
    expect(users).toEqual([expect.objectContaining({ id: body.ownerUserId, role: 'owner' })]);
    const created = await desk.services.db.selectFrom('activity').selectAll().execute();
    expect(created).toEqual([expect.objectContaining({ kind: 'workspace.created', actorLabel: 'system' })]);
    expect(created[0].detail).not.toContain(TOKEN_A);
  });

  it('without DESK_INGEST_TOKEN generates a random 256-bit token per workspace', async () => {
    const a = await startFromEnv({}, tempDir());
    const b = await startFromEnv({}, tempDir());
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.token, 'base64url')).toHaveLength(32);
    expect(a.token).not.toBe(b.token);
    expect((await call(a, 'GET', '/api/v1/workspace', undefined, b.token)).status).toBe(401);
  });

  it('never changes an existing workspace on a later start, whatever the env says', async () => {
    const dir = tempDir();
    const first = await startFromEnv({ DESK_PLAN: 'pro', DESK_TIMEZONE: 'Europe/Berlin', DESK_INGEST_TOKEN: TOKEN_A }, dir);
    await call(first, 'PATCH', '/api/v1/workspace/cost-cap', { dailyCostCapUsdCents: null });
    await call(first, 'PATCH', '/api/v1/workspace/loop-interval', { loopIntervalMinutes: 60 });
    const before = (await call(first, 'GET', '/api/v1/workspace')).body;
    const activityBefore = (await call(first, 'GET', '/api/v1/activity?limit=200')).body;
    await stop(first);

    const second = await startFromEnv({ DESK_PLAN: 'team', DESK_TIMEZONE: 'America/New_York', DESK_INGEST_TOKEN: TOKEN_B }, dir);
    expect(second.token).toBe(TOKEN_A);
    expect((await call(second, 'GET', '/api/v1/workspace', undefined, TOKEN_B)).status).toBe(401);
    const after = (await call(second, 'GET', '/api/v1/workspace')).body;
    expect(after).toEqual(before);
    expect(after).toMatchObject({ plan: 'pro', timezone: 'Europe/Berlin', dailyCostCapUsdCents: null, loopIntervalMinutes: 60 });
    expect((await call(second, 'GET', '/api/v1/activity?limit=200')).body).toEqual(activityBefore);
    expect(await second.services.db.selectFrom('workspace').select('id').execute()).toHaveLength(1);
    expect(await second.services.db.selectFrom('users').select('id').execute()).toHaveLength(1);
  });
});

describe('durability', () => {
  const synchronous = async (desk: RunningDesk) => (await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(desk.services.db)).rows[0].synchronous;

  it('syncs every commit (synchronous FULL) on a desk started from the environment, whatever it holds', async () => {
    const desk = await startFromEnv({ DESK_SQLITE_SYNCHRONOUS: 'OFF', DESK_SYNCHRONOUS: 'OFF' }, tempDir());
    expect(desk.services.config.sqliteSynchronous).toBeUndefined();
    expect(await synchronous(desk)).toBe(2);
  });

  it('turns syncing off only when the config says so (test desks: server/testing/desk.ts)', async () => {
    const desk = await startDesk({ ...configFromEnv({ DESK_DATA_DIR: tempDir(), DESK_PORT: '0' }), sqliteSynchronous: 'OFF' }, { clock: new ManualClock('2026-03-10T12:00:00.000Z'), runScheduler: false });
    running.push(desk);
    expect(await synchronous(desk)).toBe(0);
  });
});

describe('the scheduler of a started desk', () => {
  it('is started by startDesk and stopped by stop()', async () => {
    const desk = await startFromEnv({}, tempDir(), { runScheduler: true });
    await vi.waitFor(async () => {
      const states = await desk.services.scheduler.states();
      expect(states.map((s) => s.name)).toContain('workspace.pause-resume');
    });
    await stop(desk);
    const clock = desk.services.clock as ManualClock;
    clock.advance(HOUR_MS);
    expect(await desk.services.scheduler.tick()).toEqual([]);
  });
});

describe('stop()', () => {
  it('lets an in-flight request finish, refuses new connections, then closes the database cleanly', async () => {
    const dir = tempDir();
    const desk = await startFromEnv({}, dir);
    const { port } = new URL(desk.url);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

    // A request whose body is still arriving when stop() is called.
    const events: string[] = [];
    const body = JSON.stringify({ loopState: 'off' });
    let req!: http.ClientRequest;
    const response = new Promise<{ status: number; text: string; connection: string | undefined }>((resolve, reject) => {
      req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'PATCH',
          path: '/api/v1/workspace/loop',
          agent,
          headers: { authorization: `Bearer ${desk.token}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => {
            events.push('response');
            resolve({ status: res.statusCode ?? 0, text, connection: res.headers.connection });
          });
        },
      );
      req.on('error', reject);
    });
    req.write(body.slice(0, 5));
    // A full round trip on another connection: the server has read the partial request by now.
    expect((await fetch(`${desk.url}/api/v1/openapi.json`)).status).toBe(200);

    running.splice(running.indexOf(desk), 1);
    const stopping = desk.stop().then(() => events.push('stopped'));
    expect(desk.stop()).toBe(desk.stop()); // idempotent: one shutdown

    await expect(fetch(`${desk.url}/api/v1/openapi.json`)).rejects.toThrow();

    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual([]); // stop() is waiting for the request
    const socket = req.socket!;
    const socketClosed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    req.end(body.slice(5));
    const res = await response;
    // the finished keep-alive connection is closed, not kept until keepAliveTimeout: the server
    // tells the client so, the client does not keep the socket for reuse, and the server ends it
    expect(res.connection).toBe('close');
    await stopping;
    await socketClosed;
    expect(Object.values(agent.freeSockets).flat()).toEqual([]);
    agent.destroy();

    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).loopState).toBe('off');
    expect(events.sort()).toEqual(['response', 'stopped']);

    // closed: the handle refuses queries and the WAL was checkpointed away
    await expect(desk.services.db.selectFrom('workspace').selectAll().execute()).rejects.toThrow();
    expect(fs.existsSync(path.join(dir, 'desk.sqlite-wal'))).toBe(false);
    const sqlite = new Database(path.join(dir, 'desk.sqlite'), { readonly: true });
    try {
      expect(sqlite.prepare('SELECT loop_state FROM workspace').get()).toEqual({ loop_state: 'off' });
    } finally {
      sqlite.close();
    }
  });

  it('closes idle keep-alive connections instead of waiting for them', async () => {
    const desk = await startFromEnv({}, tempDir());
    const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get(`${desk.url}/api/v1/openapi.json`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        })
        .on('error', reject);
    });
    expect(status).toBe(200);
    await stop(desk); // would hang until the test timeout if the idle socket kept the server open
    agent.destroy();
  });

  it('a desk can be started again on the same data folder after stop()', async () => {
    const dir = tempDir();
    const first = await startFromEnv({ DESK_INGEST_TOKEN: TOKEN_A }, dir);
    await stop(first);
    const second = await startFromEnv({}, dir);
    expect((await call(second, 'GET', '/api/v1/workspace', undefined, TOKEN_A)).status).toBe(200);
  });
});

describe('one desk per data folder and port', () => {
  it('refuses a second desk on a data folder that a running desk holds, and frees it on stop()', async () => {
    const dir = tempDir();
    const first = await startFromEnv({}, dir);
    await expect(startFromEnv({}, dir)).rejects.toThrow(/already running with the data folder/);
    await stop(first);
    const second = await startFromEnv({}, dir);
    expect((await call(second, 'GET', '/api/v1/workspace')).status).toBe(200);
  });

  it('takes over a lock left by a process that is gone', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'desk.lock'), '999999999');
    const desk = await startFromEnv({}, dir);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'desk.lock'), 'utf8')).pid).toBe(process.pid);
    await stop(desk);
    expect(fs.existsSync(path.join(dir, 'desk.lock'))).toBe(false);
  });

  it('explains a busy port and leaves the data folder free', async () => {
    const busy = await startFromEnv({}, tempDir());
    const port = new URL(busy.url).port;
    const dir = tempDir();
    const config = configFromEnv({ DESK_DATA_DIR: dir, DESK_PORT: port, DESK_TIMEZONE: 'UTC' });
    await expect(startDesk(config, { runScheduler: false })).rejects.toThrow(`Port ${port} on 127.0.0.1 is already in use`);
    expect(fs.existsSync(path.join(dir, 'desk.lock'))).toBe(false);
  });
});

describe('configFromEnv', () => {
  it('has the documented defaults', () => {
    const config = configFromEnv({});
    expect(config).toMatchObject<Partial<DeskConfig>>({
      port: 4477,
      host: '127.0.0.1',
      engine: 'local',
      seed: { ingestToken: undefined, plan: 'free', timezone: machineTimezone() },
    });
    expect(config.dataDir).toMatch(/desk$/);
    expect(configFromEnv({ DESK_PORT: '' }).port).toBe(4477);
  });

  it('reads every variable', () => {
    const config = configFromEnv({
      DESK_DATA_DIR: '/tmp/x',
      DESK_PORT: '0',
      DESK_HOST: '0.0.0.0',
      DESK_INGEST_TOKEN: TOKEN_A,
      DESK_PLAN: 'team',
      DESK_TIMEZONE: 'Asia/Tokyo',
      DESK_ENGINE: 'openai',
      DESK_OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1',
      DESK_OPENAI_API_KEY: 'k',
      DESK_MODEL: 'm',
      DESK_RELAY_URL: 'https://relay.example/ch/1',
      DESK_SMTP_URL: 'smtp://127.0.0.1:2525',
      DESK_WEBHOOK_RATE_LIMIT_PER_MINUTE: '9000',
    });
    expect(config).toEqual({
      dataDir: '/tmp/x',
      port: 0,
      host: '0.0.0.0',
      seed: { ingestToken: TOKEN_A, plan: 'team', timezone: 'Asia/Tokyo' },
      engine: 'openai',
      openai: { baseUrl: 'http://127.0.0.1:11434/v1', apiKey: 'k', model: 'm' },
      relayUrl: 'https://relay.example/ch/1',
      smtpUrl: 'smtp://127.0.0.1:2525',
      webhookRateLimitPerMinute: 9000,
    });
  });

  it('rejects each bad value with a message naming the variable', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ DESK_PORT: 'abc' }, /DESK_PORT/],
      [{ DESK_PORT: '-1' }, /DESK_PORT/],
      [{ DESK_PORT: '65536' }, /DESK_PORT/],
      [{ DESK_PORT: '80.5' }, /DESK_PORT/],
      [{ DESK_PLAN: 'gold' }, /DESK_PLAN must be free, pro or team/],
      [{ DESK_TIMEZONE: 'Mars/Base' }, /DESK_TIMEZONE "Mars\/Base"/],
      [{ DESK_ENGINE: 'gpt' }, /DESK_ENGINE/],
      [{ DESK_INGEST_TOKEN: 'short' }, /DESK_INGEST_TOKEN/],
      [{ DESK_INGEST_TOKEN: `${'x'.repeat(20)} spaces` }, /DESK_INGEST_TOKEN/],
      [{ DESK_RELAY_URL: 'ftp://relay.example' }, /DESK_RELAY_URL/],
      [{ DESK_WEBHOOK_RATE_LIMIT_PER_MINUTE: '0' }, /DESK_WEBHOOK_RATE_LIMIT_PER_MINUTE/],
      [{ DESK_WEBHOOK_RATE_LIMIT_PER_MINUTE: '1.5' }, /DESK_WEBHOOK_RATE_LIMIT_PER_MINUTE/],
      [{ DESK_WEBHOOK_RATE_LIMIT_PER_MINUTE: 'lots' }, /DESK_WEBHOOK_RATE_LIMIT_PER_MINUTE/],
    ];
    for (const [env, message] of cases) {
      expect(() => configFromEnv(env), JSON.stringify(env)).toThrow(message);
    }
    expect(configFromEnv({ DESK_PORT: '65535' }).port).toBe(65535);
    expect(configFromEnv({ DESK_INGEST_TOKEN: 'x'.repeat(16) }).seed.ingestToken).toBe('x'.repeat(16));
  });

  it('lists every problem at once and never echoes the token', () => {
    let message = '';
    try {
      configFromEnv({ DESK_PORT: 'x', DESK_PLAN: 'gold', DESK_INGEST_TOKEN: 'secret!' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^Invalid configuration/);
    expect(message).toContain('DESK_PORT');
    expect(message).toContain('DESK_PLAN');
    expect(message).toContain('DESK_INGEST_TOKEN');
    expect(message).not.toContain('secret!');
  });

  it('a bad environment stops the start before anything is written', async () => {
    const dir = path.join(tempDir(), 'data');
    expect(() => configFromEnv({ DESK_DATA_DIR: dir, DESK_PLAN: 'enterprise' })).toThrow(/DESK_PLAN/);
    expect(fs.existsSync(dir)).toBe(false);
  });
});
