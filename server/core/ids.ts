import crypto from 'node:crypto';
import { monotonicFactory } from 'ulid';
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

/** Opaque, prefixed, time-sortable id, e.g. `src_01J...`. Time comes from the injected clock. */
export function newId(prefix: string, clock: Clock): string {
  return `${prefix}_${ulid(clock.now().getTime())}`;
}
