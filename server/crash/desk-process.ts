import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The desk as its own process, as `npm start` runs it from source: `node --import tsx
 * server/cli.ts` in one node process (no npx or tsx wrapper, so a SIGKILL reaches the desk
 * itself), on a data folder the test owns, on a free port of 127.0.0.1.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface DeskProcess {
  child: ChildProcess;
  baseUrl: string;
  exited: Promise<void>;
}

export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the load reads answer fields freely and checks each one it keeps
  body: any;
}

export async function startDeskProcess(dataDir: string, token: string): Promise<DeskProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli.ts'], {
    cwd: root,
    env: { ...process.env, DESK_DATA_DIR: dataDir, DESK_PORT: '0', DESK_HOST: '127.0.0.1', DESK_INGEST_TOKEN: token, DESK_ENGINE: 'local', DESK_TIMEZONE: 'UTC' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      const match = /^Open: (http:\/\/[^/#\s]+)/m.exec(output);
      if (match) resolve(match[1]);
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`desk exited (${code}) before it was ready:\n${output}`)));
  });
  return { child, baseUrl, exited };
}

/** One API call; null when the desk could not answer (it was killed mid-request). */
export async function call(desk: DeskProcess, token: string, method: string, urlPath: string, body?: unknown, bearer = true): Promise<Answer | null> {
  try {
    const res = await fetch(desk.baseUrl + urlPath, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(bearer ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body: parsed };
  } catch {
    return null;
  }
}

export const isOk = (a: Answer | null): a is Answer => a !== null && a.status >= 200 && a.status < 300;
