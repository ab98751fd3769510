import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useAuth } from '../../lib/auth';
import { nowMs } from '../../lib/clock';
import { openEventStream, type StreamStatus } from './event-stream';
import { EVERYTHING, keysForEvent } from './event-keys';
import { useLiveStream } from './live-store';

/** The stream's path under the desk's base URL. */
export const EVENT_STREAM_PATH = '/api/v1/events/stream';

/**
 * Polling intervals are functions of the stream's status (live-store.ts); react-query evaluates them
 * when a query updates, so a change of status is handed to every mounted observer now: polling stops
 * when the stream opens and starts again when it drops.
 */
function reevaluatePolling(qc: QueryClient): void {
  for (const query of qc.getQueryCache().getAll()) {
    for (const observer of query.observers) observer.setOptions(observer.options);
  }
}

/**
 * Collects what the events of one network chunk make stale and refreshes each key once, after the
 * chunk is parsed (a cycle's commit brings dozens of events together).
 */
export function createInvalidator(qc: QueryClient) {
  const keys = new Map<string, QueryKey>();
  let everything = false;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (everything) {
      everything = false;
      keys.clear();
      void qc.invalidateQueries();
      return;
    }
    const batch = [...keys.values()];
    keys.clear();
    for (const queryKey of batch) void qc.invalidateQueries({ queryKey });
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(flush);
  };
  return {
    event(name: string) {
      const affects = keysForEvent(name);
      if (affects === EVERYTHING) everything = true;
      else for (const key of affects) keys.set(JSON.stringify(key), key);
      schedule();
    },
    everything() {
      everything = true;
      schedule();
    },
  };
}

/**
 * One subscription to the desk's events for the signed-in app (mounted once, by the shell): each
 * event refreshes the queries it affects, a resync refreshes all of them, and the stream's status
 * turns the polling fallback off and on.
 */
export function useLiveEvents(): void {
  const qc = useQueryClient();
  const baseUrl = useAuth((s) => s.baseUrl);
  useEffect(() => {
    const invalidate = createInvalidator(qc);
    let last: StreamStatus = useLiveStream.getState().status;
    const stream = openEventStream({
      url: `${baseUrl}${EVENT_STREAM_PATH}`,
      getToken: () => useAuth.getState().token,
      onEvent: (e) => {
        useLiveStream.getState().heard(nowMs());
        invalidate.event(e.event);
      },
      onResync: () => invalidate.everything(),
      onStatus: (status) => {
        useLiveStream.getState().setStatus(status);
        const wasOpen = last === 'open';
        last = status;
        if (wasOpen !== (status === 'open')) reevaluatePolling(qc);
      },
      // A token replaced while the request was out (a rotation) says nothing about the current one.
      onUnauthorized: (sent) => {
        if (sent === useAuth.getState().token) useAuth.getState().reject();
      },
    });
    return () => {
      stream.close();
      useLiveStream.getState().setStatus('connecting');
    };
  }, [qc, baseUrl]);
}
