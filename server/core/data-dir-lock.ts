import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * One desk per data folder: two desks on one database would run every scheduled job twice.
 *
 * The lock file names its owner: `{ pid, start, id }` (`start`: the process's start time as the
 * kernel counts it, Linux only; `id`: random per lock). It is created whole, atomically (written
 * to a private temporary file, then hard-linked into place, which fails if a lock exists), so a
 * reader never sees a half-written lock.
 *
 * A lock is stale when its pid is gone, or, on Linux, when that pid now is another program (its
 * start time differs: the pid was reused after a crash). Taking a stale lock over is serialised:
 * only the process that creates the takeover marker named after that exact stale lock may delete
 * it, so desks started together after a crash cannot both take it. A marker left by a taker that
 * died is itself a stale lock, taken over the same way.
 */
export const LOCK_FILE = 'desk.lock';

/** How long a start waits for another process that is taking over the same stale lock. */
const TAKEOVER_WAIT_MS = 5_000;
/** Markers of markers: a taker dying twice in a row is already unlikely. */
const MAX_TAKEOVER_DEPTH = 4;

export interface LockOwner {
  pid: number;
  /** /proc/<pid>/stat starttime (clock ticks since boot); null where unknown (not Linux). */
  start: string | null;
  id: string;
}

export interface LockOptions {
  /** Told why a stale lock was taken over (start.ts logs it). */
  onTakeover?: (message: string) => void;
}

type Verdict = { live: true } | { live: false; why: string };

/** Locks the data folder for this process; returns the release function. Throws if a live desk holds it. */
export function lockDataDir(dataDir: string, options: LockOptions = {}): () => void {
  const file = path.join(dataDir, LOCK_FILE);
  const me: LockOwner = { pid: process.pid, start: processStart(process.pid), id: crypto.randomBytes(12).toString('hex') };
  const content = `${JSON.stringify(me)}\n`;
  const result = acquire(file, content, 0, options.onTakeover);
  if (!result.owned) {
    const unsure = process.platform === 'linux' ? '' : ` If pid ${result.holder.pid} is not a Desk, delete ${file}.`;
    throw new Error(
      `Another Desk (pid ${result.holder.pid}) is already running with the data folder ${dataDir}. Stop it first, or set DESK_DATA_DIR to another folder.${unsure}`,
    );
  }
  sweepLeftovers(dataDir);
  return () => removeIfOurs(file, content);
}

/** The desk that holds `dataDir`'s lock now, or null when none does (no lock, or a stale one). */
export function liveLockOwner(dataDir: string): LockOwner | null {
  const file = path.join(dataDir, LOCK_FILE);
  const raw = readOrNull(file);
  if (raw === null) return null;
  const owner = parseOwner(raw);
  return judge(owner, file).live ? owner : null;
}

/** Markers and temporary files of takers that crashed; a minute old, so none is still in use. */
function sweepLeftovers(dataDir: string): void {
  for (const name of fs.readdirSync(dataDir)) {
    if (!name.startsWith(`${LOCK_FILE}.`)) continue;
    const full = path.join(dataDir, name);
    try {
      if (Date.now() - fs.statSync(full).mtimeMs > 60_000) fs.rmSync(full, { force: true });
    } catch {
      /* gone meanwhile */
    }
  }
}

type Acquired = { owned: true } | { owned: false; holder: LockOwner };

function acquire(file: string, content: string, depth: number, onTakeover?: (message: string) => void): Acquired {
  const deadline = Date.now() + TAKEOVER_WAIT_MS;
  for (;;) {
    if (createWhole(file, content)) return { owned: true };
    const raw = readOrNull(file);
    if (raw === null) continue; // released meanwhile: try again
    const holder = parseOwner(raw);
    const verdict = judge(holder, file);
    if (verdict.live) return { owned: false, holder };
    if (depth >= MAX_TAKEOVER_DEPTH) throw new Error(`Could not take over the stale lock ${file}: delete it and start again`);
    // Only the creator of this stale lock's marker may delete it; the others wait for the outcome.
    const marker = takeoverMarkerPath(file, raw);
    const taker = acquire(marker, content, depth + 1);
    if (taker.owned) {
      try {
        // Still the same stale lock? (A slower taker finds the new owner's lock here and leaves it.)
        if (readOrNull(file) === raw) {
          fs.rmSync(file, { force: true });
          onTakeover?.(`Took over the data-folder lock ${file}: ${verdict.why}`);
        }
      } finally {
        removeIfOurs(marker, content);
      }
      continue;
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for pid ${taker.holder.pid} to take over the stale lock ${file}`);
    sleepSync(10 + Math.random() * 20);
  }
}

/** The marker whose creator alone may delete this exact stale lock (content includes a random id). */
export function takeoverMarkerPath(file: string, staleContent: string): string {
  return `${file}.takeover-${crypto.createHash('sha256').update(staleContent).digest('hex').slice(0, 16)}`;
}

/** Creates `file` with `content`, whole and private, unless it exists. */
function createWhole(file: string, content: string): boolean {
  const tmp = `${file}.${process.pid}-${crypto.randomBytes(6).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, content, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // A file system without hard links: exclusive create (a reader may briefly see it empty).
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') return createExclusive(file, content);
    throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

function createExclusive(file: string, content: string): boolean {
  try {
    fs.writeFileSync(file, content, { mode: 0o600, flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

function readOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Deletes the file only while it still holds our content: never another desk's lock. */
function removeIfOurs(file: string, content: string): void {
  if (readOrNull(file) === content) fs.rmSync(file, { force: true });
}

/** Today's format, or an older desk's bare pid. */
export function parseOwner(raw: string): LockOwner {
  try {
    const parsed = JSON.parse(raw) as Partial<LockOwner>;
    if (typeof parsed === 'object' && parsed !== null && typeof parsed.pid === 'number') {
      return { pid: parsed.pid, start: typeof parsed.start === 'string' ? parsed.start : null, id: String(parsed.id ?? '') };
    }
  } catch {
    /* an older desk's lock: just the pid */
  }
  return { pid: Number(raw.trim()), start: null, id: '' };
}

function judge(owner: LockOwner, file: string): Verdict {
  const { pid } = owner;
  if (!Number.isInteger(pid) || pid <= 0) return { live: false, why: 'it names no process' };
  if (!isAlive(pid)) return { live: false, why: `its desk (pid ${pid}) is gone` };
  const start = processStart(pid);
  if (start === null) return { live: true }; // not Linux, or /proc hidden: assume the desk is alive
  const reused = owner.start !== null ? start !== owner.start : startedAfter(start, file);
  if (reused) return { live: false, why: `its desk is gone and pid ${pid} now belongs to another program (${commandOf(pid)})` };
  return { live: true };
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); null where there is no /proc. */
export function processStart(pid: number): string | null {
  if (process.platform !== 'linux') return null;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

/**
 * An older desk's lock holds only a pid: a process that started clearly after the lock was written
 * cannot be its writer. (USER_HZ is 100 on Linux; boot time has a 1 s grain: hence the margin.)
 */
function startedAfter(startTicks: string, file: string): boolean {
  try {
    const btime = /^btime (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'utf8'));
    if (!btime) return false;
    const startedMs = Number(btime[1]) * 1000 + Number(startTicks) * 10;
    return startedMs > fs.statSync(file).mtimeMs + 2_000;
  } catch {
    return false;
  }
}

function commandOf(pid: number): string {
  try {
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    return cmd ? `\`${cmd.length > 80 ? `${cmd.slice(0, 77)}...` : cmd}\`` : 'unknown command';
  } catch {
    return 'unknown command';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
