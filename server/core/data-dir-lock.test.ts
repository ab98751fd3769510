import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDirs } from '../testing/temp-dirs';
import { startTestDesk } from '../testing/desk';
import { logFilePath } from './log';
import { LOCK_FILE, lockDataDir, parseOwner, processStart, takeoverMarkerPath } from './data-dir-lock';

/** One desk per data folder, and a stale lock taken over by exactly one desk. */

const tempDir = tempDirs('desk-lock-');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** A pid that is certainly not running: a child that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid as number;
}

/** A live process that is not a desk. */
async function sleeper(): Promise<ChildProcess> {
  const child = spawn('sleep', ['60']);
  children.push(child);
  await new Promise((resolve) => child.on('spawn', resolve));
  return child;
}

describe('the data-folder lock', () => {
  it('names its owner, is private, refuses a second desk, and is released by its owner only', () => {
    const dir = tempDir();
    const release = lockDataDir(dir);
    const file = path.join(dir, LOCK_FILE);
    const owner = parseOwner(fs.readFileSync(file, 'utf8'));
    expect(owner.pid).toBe(process.pid);
    if (process.platform === 'linux') expect(owner.start).toBe(processStart(process.pid));
    if (process.platform !== 'win32') expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
    expect(() => lockDataDir(dir)).toThrow(/Another Desk \(pid \d+\) is already running with the data folder/);
    release();
    expect(fs.existsSync(file)).toBe(false);
    // A release after someone else took the folder leaves their lock alone.
    const again = lockDataDir(dir);
    release();
    expect(fs.existsSync(file)).toBe(true);
    again();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('takes over a lock whose desk is gone (today\'s format and an older desk\'s bare pid), saying why', async () => {
    for (const content of [JSON.stringify({ pid: await deadPid(), start: '1', id: 'x' }), String(await deadPid())]) {
      const dir = tempDir();
      fs.writeFileSync(path.join(dir, LOCK_FILE), content);
      const said: string[] = [];
      const release = lockDataDir(dir, { onTakeover: (m) => said.push(m) });
      expect(said).toEqual([expect.stringMatching(/its desk \(pid \d+\) is gone/)]);
      expect(parseOwner(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
      release();
    }
  });

  it.runIf(process.platform === 'linux')('takes over a lock whose pid now belongs to another program, naming it', async () => {
    const other = await sleeper();
    const dir = tempDir();
    // The crashed desk's lock: its pid was since reused by `sleep` (another start time).
    fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: other.pid, start: '12345', id: 'crashed' }));
    const said: string[] = [];
    const release = lockDataDir(dir, { onTakeover: (m) => said.push(m) });
    expect(said).toEqual([expect.stringContaining(`pid ${other.pid} now belongs to another program (\`sleep 60\`)`)]);
    release();
  });

  it.runIf(process.platform === 'linux')('an older desk\'s bare-pid lock: a live pid that started after the lock was written is not its desk', async () => {
    const other = await sleeper();
    const dir = tempDir();
    const file = path.join(dir, LOCK_FILE);
    fs.writeFileSync(file, String(other.pid));
    // Written by a desk an hour ago; `sleep` started just now.
    const hourAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(file, hourAgo, hourAgo);
    const said: string[] = [];
    lockDataDir(dir, { onTakeover: (m) => said.push(m) })();
    expect(said[0]).toContain('now belongs to another program');
    // Written after the process started: it may be that desk, so it is left alone.
    fs.writeFileSync(file, String(other.pid));
    expect(() => lockDataDir(dir)).toThrow(/already running/);
  });

  it.runIf(process.platform === 'linux')('a desk starts on a folder whose lock pid is now another program, and logs why', async () => {
    const other = await sleeper();
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, LOCK_FILE), JSON.stringify({ pid: other.pid, start: '12345', id: 'crashed' }));
    const desk = await startTestDesk({ dataDir });
    expect((await desk.api('GET', '/api/v1/workspace')).status).toBe(200);
    await desk.stop();
    const log = fs.readFileSync(logFilePath(dataDir), 'utf8');
    expect(log).toContain(`pid ${other.pid} now belongs to another program`);
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
  });

  it('a takeover marker left by a taker that died does not block the folder', async () => {
    const dir = tempDir();
    const file = path.join(dir, LOCK_FILE);
    const stale = JSON.stringify({ pid: await deadPid(), start: null, id: 'crashed' });
    fs.writeFileSync(file, stale);
    fs.writeFileSync(takeoverMarkerPath(file, stale), JSON.stringify({ pid: await deadPid(), start: null, id: 'died-taking-over' }));
    const release = lockDataDir(dir);
    expect(parseOwner(fs.readFileSync(file, 'utf8')).pid).toBe(process.pid);
    release();
    expect(fs.readdirSync(dir).filter((n) => !n.startsWith(`${LOCK_FILE}.takeover-`))).toEqual([]);
  });
});

const lockModule = path.join(path.dirname(fileURLToPath(import.meta.url)), 'data-dir-lock.ts');

/**
 * Desks in miniature: each says `ready` once its modules are loaded, then reads the instant to go
 * from stdin (sent when every contender is ready). Round r starts at `goAt + r * stepMs`: it sleeps
 * until just before and busy-waits the last milliseconds, so the contenders try in the same
 * instant without spinning the whole time. It tries to lock `<base>/r`, prints `r owned|refused`,
 * and keeps what it got until every round is over (a winner's lock stays live while the others judge it).
 */
const CHILD = `
const { lockDataDir } = await import(process.env.LOCK_MODULE);
const step = Number(process.env.STEP_MS), rounds = Number(process.env.ROUNDS), spin = Number(process.env.SPIN_MS);
process.stdout.write('ready\\n');
const goAt = await new Promise((resolve) => process.stdin.once('data', (d) => resolve(Number(String(d)))));
let out = '';
for (let r = 0; r < rounds; r++) {
  const at = goAt + r * step;
  if (at - Date.now() > spin) await new Promise((resolve) => setTimeout(resolve, at - Date.now() - spin));
  while (Date.now() < at) {}
  let result;
  try { lockDataDir(process.env.BASE + '/' + r); result = 'owned'; }
  catch (err) { result = /already running/.test(err.message) ? 'refused' : 'error: ' + err.message; }
  out += r + ' ' + result + '\\n';
}
process.stdout.write(out);
setTimeout(() => process.exit(0), Math.max(0, goAt + rounds * step + 500 - Date.now()));
`;

interface Contender {
  ready: Promise<void>;
  go(at: number): void;
  /** The lines it printed after `ready`. */
  done: Promise<string[]>;
}

function contender(env: Record<string, string>): Contender {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
    env: { ...process.env, LOCK_MODULE: lockModule, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  children.push(child);
  let out = '';
  let onReady!: () => void;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
    if (out.startsWith('ready\n')) onReady();
  });
  const done = new Promise<string[]>((resolve) => child.on('exit', () => resolve(out.replace(/^ready\n/, '').trim().split('\n'))));
  return { ready, go: (at) => child.stdin?.end(`${at}\n`), done };
}

describe('desks started together after a crash', () => {
  it('exactly one of several concurrent takeovers of a stale lock wins, round after round', { timeout: 60_000 }, async () => {
    const ROUNDS = 150;
    const CONTENDERS = 3;
    const base = tempDir();
    const stalePid = String(await deadPid());
    for (let r = 0; r < ROUNDS; r++) {
      fs.mkdirSync(path.join(base, String(r)));
      fs.writeFileSync(path.join(base, String(r), LOCK_FILE), stalePid);
    }
    const env = { BASE: base, STEP_MS: '15', SPIN_MS: '5', ROUNDS: String(ROUNDS) };
    const contenders = Array.from({ length: CONTENDERS }, () => contender(env));
    // Every child is started (tsx and all) before the first round.
    await Promise.all(contenders.map((c) => c.ready));
    const goAt = Date.now() + 200;
    for (const c of contenders) c.go(goAt);
    const outputs = await Promise.all(contenders.map((c) => c.done));
    const owners = new Map<number, number>();
    const problems: string[] = [];
    for (const lines of outputs) {
      expect(lines.length).toBe(ROUNDS);
      for (const line of lines) {
        const [round, ...rest] = line.split(' ');
        const result = rest.join(' ');
        if (result === 'owned') owners.set(Number(round), (owners.get(Number(round)) ?? 0) + 1);
        else if (result !== 'refused') problems.push(`round ${round}: ${result}`);
      }
    }
    for (let r = 0; r < ROUNDS; r++) if (owners.get(r) !== 1) problems.push(`round ${r}: ${owners.get(r) ?? 0} owners`);
    expect(problems).toEqual([]);
  });
});
