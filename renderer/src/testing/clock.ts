import { afterEach } from 'vitest';
import { resetClock, setClock } from '../lib/clock';

/**
 * Fixes the renderer's "now" at `at` for every test of the file (the system clock is put back after
 * each test, then set again by the next `fixClock` call in a beforeEach). Returns the instant in ms.
 */
export function fixClock(at: string | number | Date): number {
  const ms = new Date(at).getTime();
  setClock(() => ms);
  return ms;
}

/** After each test of the file: the system clock again. */
export function resetClockAfterEach(): void {
  afterEach(() => resetClock());
}
