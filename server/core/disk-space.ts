/**
 * A full disk. SQLite refuses a write that finds no room (SQLITE_FULL; SQLITE_IOERR_WRITE on some
 * file systems) and rolls it back: nothing acknowledged before is lost, and the request that failed
 * was not acknowledged. The desk answers 507 `disk_full`, holds its scheduled work (the loop, feed
 * polls, sweeps) while the disk has less free space than it needs, and resumes once it has.
 */
import fs from 'node:fs';
import { DeskError } from './errors';

/**
 * Free space the desk needs on its disk to resume: room for the WAL to grow through a busy stretch
 * and be checkpointed, a backup's temporary copy aside. Below it, held work stays held.
 */
export const MIN_FREE_DISK_BYTES = 64 * 1024 * 1024;

/** Node's and SQLite's names for "no space left" (SQLite's extended codes as better-sqlite3 names them). */
const FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);
/** Write errors that mean a full disk only when the disk is indeed short of space. */
const MAYBE_FULL_CODES = new Set(['SQLITE_IOERR_WRITE', 'SQLITE_IOERR_SHORT_READ', 'SQLITE_IOERR_FSYNC', 'SQLITE_IOERR_TRUNCATE', 'SQLITE_IOERR_SHMSIZE']);
/** The same, as the cycle worker's failures reach the desk: as text. */
const FULL_TEXT = /database or disk is full|ENOSPC|no space left on device/i;

function codesOf(err: unknown): { codes: string[]; text: string } {
  const codes: string[] = [];
  let text = '';
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    text += ` ${e instanceof Error ? e.message : typeof e === 'string' ? e : ''}`;
  }
  return { codes, text };
}

export interface DiskFullState {
  /** When a write first failed for want of space. */
  since: string;
  /** Free bytes on the data folder's disk at the last look. */
  freeBytes: number;
  /** What the desk needs free to resume. */
  neededBytes: number;
}

export interface DiskSpaceOptions {
  /** Free space the desk needs (default MIN_FREE_DISK_BYTES). */
  neededBytes?: number;
  /** Free bytes on the disk holding `dir` (tests stand in for a disk). */
  freeBytes?: (dir: string) => number;
  now: () => Date;
  /** Told when the desk becomes full and when it resumes. */
  onChange?: (state: DiskFullState | null) => void;
}

const statfsFree = (dir: string): number => {
  const s = fs.statfsSync(dir);
  return Number(s.bavail) * Number(s.bsize);
};

export class DiskSpace {
  private state: DiskFullState | null = null;
  readonly neededBytes: number;
  private readonly free: (dir: string) => number;

  constructor(
    private readonly dir: string,
    private readonly options: DiskSpaceOptions,
  ) {
    this.neededBytes = options.neededBytes ?? MIN_FREE_DISK_BYTES;
    this.free = options.freeBytes ?? statfsFree;
  }

  /** Free bytes now (null when the file system cannot say). */
  freeBytes(): number | null {
    try {
      return this.free(this.dir);
    } catch {
      return null;
    }
  }

  /** Whether `err` is a write refused for want of space (an I/O error counts only on a disk short of space). */
  isDiskFull(err: unknown): boolean {
    const { codes, text } = codesOf(err);
    if (codes.some((c) => FULL_CODES.has(c)) || FULL_TEXT.test(text)) return true;
    if (!codes.some((c) => MAYBE_FULL_CODES.has(c))) return false;
    const free = this.freeBytes();
    return free !== null && free < this.neededBytes;
  }

  /** Records a failure; returns true (and holds the desk's work) when it was a full disk. */
  noteFailure(err: unknown): boolean {
    if (!this.isDiskFull(err)) return false;
    const freeBytes = this.freeBytes() ?? 0;
    if (this.state === null) {
      this.state = { since: this.options.now().toISOString(), freeBytes, neededBytes: this.neededBytes };
      this.options.onChange?.(this.state);
    } else {
      this.state = { ...this.state, freeBytes };
    }
    return true;
  }

  /**
   * Looks at the disk again: still full (work stays held) until it has the needed space free.
   * Returns the state after the look.
   */
  check(): DiskFullState | null {
    if (this.state === null) return null;
    const freeBytes = this.freeBytes();
    if (freeBytes !== null && freeBytes >= this.neededBytes) {
      this.state = null;
      this.options.onChange?.(null);
      return null;
    }
    this.state = { ...this.state, freeBytes: freeBytes ?? 0 };
    return this.state;
  }

  /** The state without looking at the disk. */
  get full(): DiskFullState | null {
    return this.state;
  }

  /** The 507 a request that failed for want of space answers. */
  error(): DeskError {
    const free = this.state?.freeBytes ?? this.freeBytes() ?? 0;
    return new DeskError(
      507,
      'disk_full',
      `The disk holding Desk's data (${this.dir}) is full: nothing was saved by this request, and everything saved before is kept. Desk needs at least ${formatBytes(this.neededBytes)} free (${formatBytes(free)} free now); free some space and Desk resumes by itself.`,
    );
  }
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 * 1024) return `${(n / 1024 ** 3).toFixed(1)} GB`;
  if (n >= 1024 * 1024) return `${Math.round(n / 1024 ** 2)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} kB`;
  return `${n} bytes`;
}
