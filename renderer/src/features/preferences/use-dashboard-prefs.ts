import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { ApiError } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { defaultPrefs, deletePrefs, fetchPrefs, putPrefs, type CostPanelAxis, type CostPanelSort, type DashboardPrefs, type DashboardPrefsBody, type RejectedPrefs } from './api';
import { usePrefsNotice } from './notice-store';

/**
 * The one way the UI reads and changes the signed-in member's dashboard preferences.
 *
 * - Read once (no refetch on focus or interval): the answer is the layout until this window changes it.
 * - A change shows at once (optimistic) and is sent as a PUT of only the fields whose value differs
 *   from what the desk last answered. Writes go one after the other, so each echoes the version
 *   stamps (densityUpdatedAt, costPanelOrderUpdatedAt.<axis>, a comment filter's updatedAt) of the
 *   answer before it, which is what the desk expects.
 * - When the desk rejects a guarded field as stale (another window changed it first), or the write
 *   fails, the layout takes the desk's value and a quiet notice says so.
 */

type PlainField =
  | 'collapsedPanels'
  | 'digestPersonalSections'
  | 'collapsedActivityBuckets'
  | 'digestQuietWeekends'
  | 'digestQuietHoursStart'
  | 'digestQuietHoursEnd'
  | 'panelOrder'
  | 'activeWorkSort'
  | 'costPanelColumns'
  | 'density';

/** One change: whole values for plain fields; only the axes given for costPanelOrder; one entry per task for comment filters. */
export type PrefsChange = Partial<Pick<DashboardPrefs, PlainField>> & {
  costPanelOrder?: Partial<Record<CostPanelAxis, CostPanelSort>>;
  taskCommentFilters?: { taskId: string; q: string | null; authorId: string | null }[];
};

const PLAIN_FIELDS: readonly Exclude<PlainField, 'density'>[] = [
  'collapsedPanels',
  'digestPersonalSections',
  'collapsedActivityBuckets',
  'digestQuietWeekends',
  'digestQuietHoursStart',
  'digestQuietHoursEnd',
  'panelOrder',
  'activeWorkSort',
  'costPanelColumns',
];

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The prefs with a change applied, as the page should show it (stamps stay as the desk gave them). */
export function applyChange(prefs: DashboardPrefs, change: PrefsChange): DashboardPrefs {
  const { costPanelOrder, taskCommentFilters, ...plain } = change;
  const next: DashboardPrefs = { ...prefs, ...plain };
  if (costPanelOrder) next.costPanelOrder = { ...prefs.costPanelOrder, ...costPanelOrder };
  if (taskCommentFilters) {
    let filters = [...prefs.taskCommentFilters];
    for (const f of taskCommentFilters) {
      const old = filters.find((x) => x.taskId === f.taskId);
      filters = filters.filter((x) => x.taskId !== f.taskId);
      if (f.q !== null || f.authorId !== null) filters.unshift({ taskId: f.taskId, q: f.q, authorId: f.authorId, updatedAt: old?.updatedAt ?? '' });
    }
    next.taskCommentFilters = filters;
  }
  return next;
}

/**
 * The PUT body for `change` against `base`, the desk's last answer: only values that differ, each
 * guarded one with the stamp of `base`. Null when nothing differs (no request).
 */
export function buildBody(base: DashboardPrefs, change: PrefsChange): DashboardPrefsBody | null {
  const body: DashboardPrefsBody = {};
  for (const k of PLAIN_FIELDS) {
    if (change[k] !== undefined && !same(change[k], base[k])) (body as Record<string, unknown>)[k] = change[k];
  }
  if (change.density !== undefined && change.density !== base.density) {
    body.density = change.density;
    body.densityUpdatedAt = base.densityUpdatedAt;
  }
  if (change.costPanelOrder) {
    const axes = (Object.keys(change.costPanelOrder) as CostPanelAxis[]).filter((a) => change.costPanelOrder![a] !== undefined && change.costPanelOrder![a] !== base.costPanelOrder[a]);
    if (axes.length > 0) {
      body.costPanelOrder = Object.fromEntries(axes.map((a) => [a, change.costPanelOrder![a]]));
      body.costPanelOrderUpdatedAt = Object.fromEntries(axes.map((a) => [a, base.costPanelOrderUpdatedAt[a]]));
    }
  }
  if (change.taskCommentFilters) {
    const writes = change.taskCommentFilters.filter((f) => {
      const stored = base.taskCommentFilters.find((x) => x.taskId === f.taskId);
      return stored ? stored.q !== f.q || stored.authorId !== f.authorId : f.q !== null || f.authorId !== null;
    });
    if (writes.length > 0) {
      body.taskCommentFilters = writes.map((f) => ({ taskId: f.taskId, q: f.q, authorId: f.authorId, updatedAt: base.taskCommentFilters.find((x) => x.taskId === f.taskId)?.updatedAt ?? null }));
    }
  }
  return Object.keys(body).length > 0 ? body : null;
}

const AXIS_LABEL: Record<CostPanelAxis, string> = { task: 'tasks', assignee: 'assignees', tag: 'tags', source: 'sources', memory: 'memory' };

/** The notice for a write the desk kept only in part; null when nothing was rejected. */
export function rejectionNotice(rejected: RejectedPrefs): string | null {
  // A rejected write whose value the desk holds anyway (another window chose the same) needs no word.
  const axes = rejected.costPanelOrder.filter((r) => r.attempted !== r.current);
  const filters = rejected.taskCommentFilters.filter((r) => r.current === null || r.current.q !== r.attempted.q || r.current.authorId !== r.attempted.authorId);
  const what: string[] = [];
  if (rejected.density && rejected.density.attempted !== rejected.density.current) what.push('density');
  if (axes.length > 0) what.push(`the order of ${axes.map((r) => AXIS_LABEL[r.axis]).join(', ')} on the Cost page`);
  if (filters.length > 0) what.push(filters.length === 1 ? 'a task’s comment filter' : `${filters.length} comment filters`);
  if (what.length === 0) return null;
  return `Your change to ${what.join(' and ')} was not saved: it had been changed in another window. Showing the saved setting.`;
}

/** Per query client: the desk's last answer, the changes not answered yet, and the chain that sends them in order. */
interface Sync {
  confirmed: DashboardPrefs | null;
  pending: PrefsChange[];
  chain: Promise<void>;
  /** The read in flight or done (null before the first). */
  reading: Promise<DashboardPrefs> | null;
}
const syncs = new WeakMap<QueryClient, Sync>();
function syncOf(qc: QueryClient): Sync {
  let s = syncs.get(qc);
  if (!s) {
    s = { confirmed: null, pending: [], chain: Promise.resolve(), reading: null };
    syncs.set(qc, s);
  }
  return s;
}

/** What the page shows: the desk's answer with the changes still on their way laid over it. */
function show(qc: QueryClient, s: Sync) {
  if (s.confirmed === null) return;
  qc.setQueryData(queryKeys.preferences.dashboard, s.pending.reduce(applyChange, s.confirmed));
}

export const prefsQueryOptions = (qc: QueryClient) => ({
  queryKey: queryKeys.preferences.dashboard,
  queryFn: async () => {
    const s = syncOf(qc);
    s.reading = fetchPrefs();
    const prefs = await s.reading;
    s.confirmed = prefs;
    return s.pending.reduce(applyChange, prefs);
  },
  staleTime: Infinity,
  refetchOnWindowFocus: false,
  refetchOnReconnect: false,
  retry: false,
});

export function useDashboardPrefs() {
  const qc = useQueryClient();
  const q = useQuery(prefsQueryOptions(qc));
  const notice = usePrefsNotice((st) => st.show);
  // The cache tells its observers a tick later; the component that made a change shows it in the same
  // render (a controlled checkbox must not flip back for a tick), until the cache has caught up.
  // `over` is the cached value the change was made on: once the cache holds anything else, it wins.
  const [local, setLocal] = useState<{ value: DashboardPrefs; over: DashboardPrefs | undefined } | null>(null);

  const update = useCallback(
    (change: PrefsChange) => {
      const s = syncOf(qc);
      const cached = qc.getQueryData<DashboardPrefs>(queryKeys.preferences.dashboard);
      const next = applyChange(cached ?? defaultPrefs(), change);
      qc.setQueryData(queryKeys.preferences.dashboard, next);
      setLocal({ value: next, over: cached });
      s.pending.push(change);
      s.chain = s.chain.then(async () => {
        // The stamps to echo come from the first read: wait for it (joins the one in flight).
        if (s.confirmed === null && s.reading) await s.reading.catch(() => undefined);
        const base = s.confirmed ?? defaultPrefs();
        const body = buildBody(base, change);
        try {
          if (body) {
            const answer = await putPrefs(body);
            s.confirmed = answer.prefs;
            const message = rejectionNotice(answer.rejected);
            if (message) notice(message);
            // A change is logged; a change of digest preferences also moves the digest's gating.
            void qc.invalidateQueries({ queryKey: queryKeys.activity.all });
          }
        } catch (err) {
          notice(`Your preference change was not saved: ${err instanceof ApiError ? err.message : String(err)}`);
        } finally {
          s.pending.splice(s.pending.indexOf(change), 1);
          if (s.confirmed === null) s.confirmed = base;
          show(qc, s);
        }
      });
      return s.chain;
    },
    [qc, notice],
  );

  /** Back to the defaults (DELETE); resolves once the desk has answered. */
  const reset = useCallback(() => {
    const s = syncOf(qc);
    const done = s.chain.then(async () => {
      const prefs = await deletePrefs();
      s.confirmed = prefs;
      show(qc, s);
      void qc.invalidateQueries({ queryKey: queryKeys.activity.all });
      void qc.invalidateQueries({ queryKey: queryKeys.digest.all });
    });
    // The chain goes on after a failed reset; the caller sees the failure.
    s.chain = done.catch(() => undefined);
    return done;
  }, [qc]);

  return {
    /** The preferences as the page should show them (defaults until the first answer, and when it failed). */
    prefs: (local !== null && local.over === q.data ? local.value : q.data) ?? defaultPrefs(),
    /** True once the first read is settled (answered or failed): a page can lay itself out without a jump. */
    ready: q.isSuccess || q.isError,
    update,
    reset,
  };
}
