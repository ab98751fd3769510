import { performance } from 'node:perf_hooks';

/**
 * Lets the event loop serve requests during a long stretch of work: resolves at once while less
 * than `sliceMs` has passed since the last yield, else yields one macrotask turn (setImmediate),
 * so pending HTTP requests are answered in between. A chain of awaits on a synchronous SQLite
 * driver never yields by itself (its promises resolve as microtasks). Inside a transaction the
 * requests served meanwhile are the ones that need no query (e.g. GET /workspace's kept row);
 * a query outside the transaction waits for it, as always.
 */
export function timeSlicer(sliceMs = 4): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    last = performance.now();
  };
}
