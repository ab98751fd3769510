import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import createClient, { type Client } from 'openapi-fetch';
import { openDatabase } from '../../db/connection';
import { DATABASE_FILE, type DeskConfig } from '../config';
import { ManualClock } from '../core/clock';
import type { paths } from '../generated/openapi-types';
import { startDesk, type RunningDesk, type StartOptions } from '../start';
import { httpRequest } from './http-request';

/** An answer of the untyped `api()` helper. */
export interface ApiResponse {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read response fields freely and assert each one
  body: any;
  headers: Headers;
}

/** The typed client: paths, parameters, bodies and answers checked against the OpenAPI document. */
export type TypedClient = Client<paths>;

export interface TestDeskOptions extends Partial<Omit<DeskConfig, 'seed'>> {
  seed?: Partial<DeskConfig['seed']>;
  clock?: ManualClock;
  /** Use this data folder (e.g. a restart on the folder of a stopped desk). It is not removed on stop() unless `ownsDataDir`. */
  dataDir?: string;
  /** Remove a passed-in `dataDir` on stop(), as if this desk had created it (hand-over from a desk stopped with keepDataDir). */
  ownsDataDir?: boolean;
  /** Stands in for the free space of the data folder's disk (StartOptions.diskFreeBytes). */
  diskFreeBytes?: (dir: string) => number;
  /** The loop's engine (a scripted one); cycles then run inline (StartOptions.engineFor). */
  engineFor?: StartOptions['engineFor'];
}

export interface TestDesk extends RunningDesk {
  clock: ManualClock;
  dataDir: string;
  /** Calls the API with the desk's bearer token (or `token`, or none when token is null). */
  api(method: string, urlPath: string, body?: unknown, token?: string | null): Promise<ApiResponse>;
  /** openapi-fetch client typed from the generated OpenAPI document, sending the desk's bearer token. */
  client: TypedClient;
  /** A typed client with another bearer token, or none when token is null (for 401 tests). */
  clientWithToken(token: string | null): TypedClient;
  /** Stops the desk and removes the data folder it created; `keepDataDir` leaves it for a restart. */
  stop(options?: { keepDataDir?: boolean }): Promise<void>;
}

let schemaTemplate: Promise<string> | undefined;

/**
 * A database file migrated to the latest schema, made once per test process and copied into each
 * fresh test desk's folder: migrating from empty was half of every desk's start, and a test run
 * starts hundreds. The desk still opens it as Desk does (migrations find nothing to do, then the
 * seed); db/migrations.test.ts and the upgrade tests migrate for real.
 */
function migratedTemplate(): Promise<string> {
  schemaTemplate ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-schema-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, DATABASE_FILE);
    // Closing the only connection checkpoints the WAL into the file: the copy is the whole database.
    await (await openDatabase(file, { synchronous: 'OFF' })).close();
    return file;
  })();
  return schemaTemplate;
}

/** A real desk on a free port, in a fresh data folder, on a manual clock with the scheduler timer off. */
export async function startTestDesk(overrides: TestDeskOptions = {}): Promise<TestDesk> {
  const { clock: givenClock, dataDir: givenDataDir, ownsDataDir, diskFreeBytes, engineFor, ...configOverrides } = overrides;
  const dataDir = givenDataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'desk-test-'));
  const removeOnStop = givenDataDir === undefined || ownsDataDir === true;
  const clock = givenClock ?? new ManualClock('2026-03-10T12:00:00.000Z');
  const config: DeskConfig = {
    dataDir,
    port: 0,
    host: '127.0.0.1',
    engine: 'local',
    openai: {},
    // Test desks live in temp folders nobody needs after a power loss: no disk sync at commit.
    sqliteSynchronous: 'OFF',
    ...configOverrides,
    seed: { plan: 'free', timezone: 'UTC', ...configOverrides.seed },
  };
  let desk: RunningDesk;
  try {
    if (givenDataDir === undefined && config.sqliteNativeBinding === undefined) fs.copyFileSync(await migratedTemplate(), path.join(dataDir, DATABASE_FILE));
    desk = await startDesk(config, { clock, runScheduler: false, idleGc: false, diskFreeBytes, engineFor });
  } catch (err) {
    if (removeOnStop) fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const api: TestDesk['api'] = async (method, urlPath, body, token) => {
    const headers: Record<string, string> = {};
    const bearer = token === undefined ? desk.token : token;
    if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await httpRequest(desk.url + urlPath, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = res.text;
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  const clientWithToken = (token: string | null): TypedClient =>
    createClient<paths>({ baseUrl: desk.url, headers: token === null ? {} : { authorization: `Bearer ${token}` } });
  const stop: TestDesk['stop'] = async (options = {}) => {
    await desk.stop();
    if (removeOnStop && !options.keepDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return {
    // Read through: a desk in rescue mode has no services until a restore, and then the full desk's.
    get url() {
      return desk.url;
    },
    get mode() {
      return desk.mode;
    },
    get services() {
      return desk.services;
    },
    // The desk's current token: it follows a rotation (POST /api/v1/workspace/token/rotate).
    get token() {
      return desk.token;
    },
    clock,
    dataDir,
    api,
    client: clientWithToken(desk.token),
    clientWithToken,
    stop,
  };
}
