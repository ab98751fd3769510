import { queryOptions } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { cursorList, withCursor, type CursorPage } from '../../api/cursor-list';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';
import { nowMs } from '../../lib/clock';
import { isStreamOpen, pollWhenStreamDown } from '../live/live-store';

/** Query options and mutation hooks for the loop: cycles (/api/v1/runs), Run now, and the header's figures (/api/v1/stats). */

export type Run = Schema<'Run'>;
export type DeskStats = Schema<'DeskStats'>;
export type RunningCycle = Schema<'RunningCycle'>;

type RunPage = Schema<'RunList'> & CursorPage;

/**
 * How often the header's figures refresh. Every second while a cycle runs (its phase and progress
 * are not events). Otherwise the event stream refreshes them (a cycle's end, the cap, the loop
 * state); with the stream open they are asked again only when the next cycle is due (its start is
 * no event), and every half minute while the stream is down.
 */
export const STATS_POLL_MS = 30_000;
export const STATS_POLL_RUNNING_MS = 1_000;
const STATS_DUE_CHECK_MAX_MS = 3_600_000;

export function statsRefetchInterval(stats: DeskStats | undefined, streamOpen: boolean, nowMs: number): number | false {
  if (stats?.phase === 'running') return STATS_POLL_RUNNING_MS;
  if (!streamOpen) return STATS_POLL_MS;
  if (!stats?.nextCycleAt) return false;
  // Capped: a timer longer than 2^31 ms fires at once, and a clock that jumps is caught within the hour.
  return Math.min(STATS_DUE_CHECK_MAX_MS, Math.max(STATS_POLL_RUNNING_MS, Date.parse(stats.nextCycleAt) - nowMs));
}

export const statsQuery = () =>
  queryOptions({
    queryKey: queryKeys.stats.all,
    queryFn: () => unwrap(api.GET('/api/v1/stats')),
    refetchInterval: (q) => statsRefetchInterval(q.state.data, isStreamOpen(), nowMs()),
  });

/** Cycles, newest first; the event stream refreshes them as each ends (a poll while it is down). */
export const runsList = () =>
  cursorList({
    queryKey: queryKeys.runs.lists,
    fetchPage: (cursor): Promise<RunPage> => unwrap(api.GET('/api/v1/runs', { params: { query: withCursor({}, cursor) } })),
    items: (page) => page.runs,
    refetchInterval: pollWhenStreamDown(STATS_POLL_MS),
  });

/**
 * Run now: POST /runs answers once the cycle has finished (completed or failed); with a cycle
 * already running it waits for that one and answers its record (whenRunning=wait: never a 409 for
 * a click). Everything a cycle can change is refreshed afterwards: tasks, outputs, signals
 * (triaged), memory, cycles, stats.
 */
export const useRunNow = () =>
  useDeskMutation({
    mutationFn: (): Promise<Run> => unwrap(api.POST('/api/v1/runs', { params: { query: { whenRunning: 'wait' } } })),
    affects: [queryKeys.tasks.all, queryKeys.artifacts.all, queryKeys.signals.all, queryKeys.runs.all, queryKeys.stats.all, queryKeys.memory.all],
  });

/**
 * Cancel: POST /runs/{id}/cancel answers once the cycle has stopped (failed, cancelledAt set).
 * 409 `run_applying` when it was too late (the cycle completes), `run_not_running` when it had ended.
 */
export const useCancelRun = () =>
  useDeskMutation({
    mutationFn: (runId: string): Promise<Run> => unwrap(api.POST('/api/v1/runs/{runId}/cancel', { params: { path: { runId } } })),
    affects: [queryKeys.runs.all, queryKeys.stats.all, queryKeys.signals.all],
  });
