import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '../api/query-keys';
import { activityList } from '../features/activity/api';
import { costTodayQuery, topTasksQuery } from '../features/cost/api';
import { todayQuery } from '../features/home/api';
import { outputsList } from '../features/outputs/api';
import { outputsFilterFor, type OutputsSearch } from '../features/outputs/search';
import { defaultPrefs, type DashboardPrefs } from '../features/preferences/api';
import { prefsQueryOptions } from '../features/preferences/use-dashboard-prefs';
import { workspaceQuery } from '../features/settings/api';
import { signalsList } from '../features/signals/api';
import { sourceOptionsQuery } from '../features/sources/api';
import { tasksList } from '../features/tasks/api';

/**
 * What each page reads first, asked for at navigation (the routes' `loader`), with the same query
 * options the page's hooks use: the requests start while the page's lazy chunk downloads, instead
 * of after it arrived and rendered (npm run bench measured chunk, then render, then fetch, at full
 * size). They are not awaited: the page renders as soon as its chunk is there, and its hooks join
 * the requests in flight (or find their answers). A failed prefetch leaves the query in error,
 * which the page's hook asks again and shows where the page shows errors; nothing is thrown here.
 *
 * Only the first screen's reads: the page's main list and what lays it out. Each call is cheap
 * when the data is fresh in the cache (prefetch skips it within staleTime).
 */

const prefs = (qc: QueryClient) => qc.prefetchQuery(prefsQueryOptions(qc));

/** The preferences the page renders with before the first read answers (the hook's own fallback). */
const cachedPrefs = (qc: QueryClient): DashboardPrefs => qc.getQueryData<DashboardPrefs>(queryKeys.preferences.dashboard) ?? defaultPrefs();

export function warmToday(qc: QueryClient): void {
  // Home lays its panels out once the preferences are read; Today's panel is the first one. The
  // summary (a count of every signal) and the other panels are left to the page: the desk answers
  // one query at a time, and asked together they held today's figures back (npm run bench, 1M signals).
  void prefs(qc);
  void qc.prefetchQuery(todayQuery());
}

export function warmSignals(qc: QueryClient): void {
  void qc.prefetchInfiniteQuery(signalsList({ sourceId: '' }).query);
  void qc.prefetchQuery(sourceOptionsQuery());
}

export function warmTasks(qc: QueryClient): void {
  // The page asks with the sort it has (the cached preferences, or the defaults) and again if the read differs.
  void qc.prefetchInfiniteQuery(tasksList({ statuses: [], tag: '', sort: cachedPrefs(qc).activeWorkSort }).query);
  void prefs(qc);
}

export function warmOutputs(qc: QueryClient, search: OutputsSearch): void {
  void qc.prefetchInfiniteQuery(outputsList(outputsFilterFor(search)).query);
}

export function warmCost(qc: QueryClient): void {
  void qc.prefetchQuery(costTodayQuery());
  // The breakdowns' default: open tasks, a week's trajectories (CostPage's initial state).
  void qc.prefetchQuery(topTasksQuery({ includeDone: false, days: 7 }));
  void prefs(qc);
}

export function warmActivity(qc: QueryClient): void {
  void qc.prefetchInfiniteQuery(activityList({ kind: '', q: '', since: '' }).query);
  void qc.prefetchQuery(workspaceQuery());
  void prefs(qc);
}
