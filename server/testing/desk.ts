import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DeskConfig } from '../config';
import { ManualClock } from '../core/clock';
import { startDesk, type RunningDesk } from '../start';

export interface TestDesk extends RunningDesk {
  clock: ManualClock;
  dataDir: string;
  /** Calls the API with the desk's bearer token (or `token`, or none when token is null). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read response fields freely and assert each one
  api(method: string, urlPath: string, body?: unknown, token?: string | null): Promise<{ status: number; body: any; headers: Headers }>;
}

/** A real desk on a free port, in a fresh data folder, on a manual clock with the scheduler timer off. */
export async function startTestDesk(
  overrides: Partial<Omit<DeskConfig, 'seed'>> & { seed?: Partial<DeskConfig['seed']>; clock?: ManualClock; dataDir?: string } = {},
): Promise<TestDesk> {
  const dataDir = overrides.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'desk-test-'));
  const clock = overrides.clock ?? new ManualClock('2026-03-10T12:00:00.000Z');
  const config: DeskConfig = {
    dataDir,
    port: 0,
    host: '127.0.0.1',
    engine: 'local',
    openai: {},
    ...overrides,
    seed: { plan: 'free', timezone: 'UTC', ...overrides.seed },
  };
  const desk = await startDesk(config, { clock, runScheduler: false });
  const api: TestDesk['api'] = async (method, urlPath, body, token) => {
    const headers: Record<string, string> = {};
    const bearer = token === undefined ? desk.token : token;
    if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(desk.url + urlPath, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  return { ...desk, clock, dataDir, api };
}
