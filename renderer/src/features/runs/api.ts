import { queryOptions } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { cursorList, withCursor, type CursorPage } from '../../api/cursor-list';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';

/** Query options and mutation hooks for the loop: cycles (/api/v1/runs), Run now, and the header's figures (/api/v1/stats). */

export type Run = Schema<'Run'>;
export type DeskStats = Schema<'DeskStats'>;
export type RunningCycle = Schema<'RunningCycle'>;

type RunPage = Schema<'RunList'> & CursorPage;

/**
 * How often the header's figures refresh: every second while a cycle runs (its phase: polled, no push
 * channel needed on one machine), else every half minute (next-cycle time, spend).
 */
export const STATS_POLL_MS = 30_000;
export const STATS_POLL_RUNNING_MS = 1_000;

export const statsQuery = () =>
  queryOptions({
    queryKey: queryKeys.stats.all,
    queryFn: () => unwrap(api.GET('/api/v1/stats')),
    refetchInterval: (q) => (q.state.data?.phase === 'running' ? STATS_POLL_RUNNING_MS : STATS_POLL_MS),
  });

/** Cycles, newest first; refreshed while one is running so its record fills in. */
export const runsList = () =>
  cursorList({
    queryKey: queryKeys.runs.lists,
    fetchPage: (cursor): Promise<RunPage> => unwrap(api.GET('/api/v1/runs', { params: { query: withCursor({}, cursor) } })),
    items: (page) => page.runs,
    refetchInterval: STATS_POLL_MS,
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
