/**
 * The renderer's one source of "now" (docs/architecture.md, "time"): relative times, pause pickers and
 * local-time hints read it here, never from Date.now(), so a test can fix the instant with
 * `setClock` (see testing/clock.ts) and read the same "now" the UI did.
 */

type Clock = () => number;

const systemClock: Clock = () => Date.now();
let current: Clock = systemClock;

/** Milliseconds since the epoch, as the clock reads them. */
export const nowMs = (): number => current();

/** The clock's "now" as a fresh Date. */
export const now = (): Date => new Date(current());

/** Replaces the clock (tests); `resetClock()` goes back to the system clock. */
export function setClock(clock: Clock): void {
  current = clock;
}

export function resetClock(): void {
  current = systemClock;
}
