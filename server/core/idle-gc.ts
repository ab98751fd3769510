import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * A full garbage collection once the desk has gone quiet after work that grew its heap.
 *
 * Why: V8 collects the old space only when allocation pushes it past a limit it grows from the
 * last collection. A burst of work (exports, a page of lists, the UI loading) promotes tens of MiB
 * of garbage, and a desk that then sits idle allocates too little to reach the next limit: it rests
 * at the burst's high point, far above what it holds. While idle a collection costs
 * nobody anything (tens of ms, no request waiting), so the desk takes one.
 *
 * Idle: the event loop was busy less than IDLE_UTILIZATION of the last look's interval. Not 2%: a
 * desk with the UI open and feeds polling is never that quiet, and over a 30-minute soak its
 * committed heap climbed by a third with the used heap flat, which no collection ever handed back;
 * a tenth busy still leaves the two collections (tens of ms) little to delay. Worth it: the heap V8 keeps committed grew by GROWTH_BYTES since the last
 * collection taken here. Committed, not used: V8's own collections during a burst bring the used
 * figure back down but keep the pages they emptied; a forced full collection hands them back to the system.
 *
 * Two, back to back: the first frees the burst's garbage but leaves most of its pages in place,
 * each still holding a few live objects (V8 picks the pages to compact from what its previous
 * marking found live, long before the burst); the second, marking from the first's figures,
 * compacts them and hands them back (`npm run bench -- --dataset full --only rss` shows the resting
 * size with both).
 */
export const IDLE_GC_EVERY_MS = 2_000;
export const IDLE_UTILIZATION = 0.1;
export const GROWTH_BYTES = 16 * 1024 * 1024;

export interface IdleGcProbe {
  /** Event-loop utilisation since the previous call (0..1). */
  utilization(): number;
  /** The heap V8 has committed (process.memoryUsage().heapTotal). */
  heapCommitted(): number;
  /** A full, synchronous collection (the look takes two). */
  collect(): void;
}

/** The process's own probe: `gc` exposed at run time (Node and Electron both accept the flag then). */
function processProbe(): IdleGcProbe {
  v8.setFlagsFromString('--expose-gc');
  const collect = vm.runInNewContext('gc') as () => void;
  let last = performance.eventLoopUtilization();
  return {
    utilization: () => {
      const now = performance.eventLoopUtilization();
      const delta = performance.eventLoopUtilization(now, last);
      last = now;
      return delta.utilization;
    },
    heapCommitted: () => process.memoryUsage().heapTotal,
    collect,
  };
}

/** One look: collects when idle and grown; returns the committed size to measure growth from next. */
export function idleGcLook(probe: IdleGcProbe, since: number): number {
  const busy = probe.utilization();
  const committed = probe.heapCommitted();
  if (busy >= IDLE_UTILIZATION || committed - since < GROWTH_BYTES) return Math.min(since, committed);
  probe.collect();
  probe.collect();
  return probe.heapCommitted();
}

let running: { timer: NodeJS.Timeout; users: number } | null = null;

/**
 * Starts the looks (one timer per process however many desks run in it, unref'd: it never keeps
 * the process alive); the returned function stops this desk's use of it.
 */
export function startIdleGc(probe: IdleGcProbe = processProbe()): () => void {
  if (running === null) {
    let since = probe.heapCommitted();
    const timer = setInterval(() => {
      since = idleGcLook(probe, since);
    }, IDLE_GC_EVERY_MS);
    timer.unref();
    running = { timer, users: 0 };
  }
  running.users += 1;
  let stopped = false;
  return () => {
    if (stopped || running === null) return;
    stopped = true;
    running.users -= 1;
    if (running.users === 0) {
      clearInterval(running.timer);
      running = null;
    }
  };
}
