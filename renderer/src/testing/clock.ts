import { setClock } from '../lib/clock';

/**
 * Fixes the renderer's "now" at `at` for every test of the file (testing/setup.ts puts the system clock back
 * after each test; the next `fixClock` in a beforeEach sets it again). Returns the instant in ms.
 */
export function fixClock(at: string | number | Date): number {
  const ms = new Date(at).getTime();
  setClock(() => ms);
  return ms;
}
