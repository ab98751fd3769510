import crypto from 'node:crypto';
import { decodeTime, isValid, monotonicFactory } from 'ulid';
import type { Clock } from './clock';

/**
 * ulid's default generator asks the OS for one random byte per character (16 calls per id); every
 * change writes several ids (the row, its activity row, its event), and on the hot write paths
 * those calls cost more than the insert. The same CSPRNG, read in 4 KiB blocks.
 */
const pool = Buffer.alloc(4096);
let next = pool.length;
export function pooledRandom(): number {
  if (next >= pool.length) {
    crypto.randomFillSync(pool);
    next = 0;
  }
  // A byte / 256 lies in [0, 1): ulid maps it onto its 32 characters evenly (256 is a multiple of 32).
  return pool[next++] / 256;
}

const ulid = monotonicFactory(pooledRandom);

/**
 * No id is made for an earlier time than this (ms). ulid's monotonic factory keeps the ids of one
 * thread in order when the clock goes back (it counts on from its last id); the floor carries that
 * across a restart and into the cycle worker's thread, which start from the newest id stored.
 */
let floorMs = 0;

/** Ids made from now on sort after every id of time `ms` (and of any earlier floor). */
export function raiseIdFloor(ms: number): void {
  if (Number.isFinite(ms) && ms > floorMs) floorMs = ms;
}

/** The time an id of newId() was made at, in ms; null for anything else. */
export function idTime(id: string): number | null {
  const u = id.slice(id.lastIndexOf('_') + 1);
  return isValid(u) ? decodeTime(u) : null;
}

/**
 * Opaque, prefixed, time-sortable id, e.g. `src_01J...`. Time comes from the injected clock; ids
 * stay in the order they were made when the clock goes back (the factory and the floor above).
 */
export function newId(prefix: string, clock: Clock): string {
  return `${prefix}_${ulid(Math.max(clock.now().getTime(), floorMs))}`;
}
