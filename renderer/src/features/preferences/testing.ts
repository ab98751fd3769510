import { json, type FakeCall } from '../../testing/fake-api';
import { defaultPrefs, type CostPanelAxis, type DashboardPrefs, type RejectedPrefs } from './api';

/**
 * A fake of the desk's dashboard preferences for renderer tests, with the desk's rules: GET answers
 * the stored prefs; PUT writes only the fields present, and density, each costPanelOrder axis and each
 * comment filter only when the echoed stamp is the stored one (else listed in `rejected`); DELETE
 * restores the defaults. `elsewhere` changes the store as another window would (new stamps).
 */
export function fakePrefs(initial: Partial<DashboardPrefs> = {}) {
  let stored: DashboardPrefs = { ...defaultPrefs('usr_owner'), ...initial };
  let tick = 0;
  const stamp = () => new Date(Date.UTC(2026, 2, 10, 12, 0, 0, ++tick)).toISOString();
  const puts: Record<string, unknown>[] = [];

  function put(body: Record<string, unknown>): { prefs: DashboardPrefs; rejected: RejectedPrefs } {
    const rejected: RejectedPrefs = { taskCommentFilters: [], costPanelOrder: [], density: null };
    const next: DashboardPrefs = { ...stored, costPanelOrder: { ...stored.costPanelOrder }, costPanelOrderUpdatedAt: { ...stored.costPanelOrderUpdatedAt } };
    for (const k of ['collapsedPanels', 'digestPersonalSections', 'collapsedActivityBuckets', 'digestQuietWeekends', 'digestQuietHoursStart', 'digestQuietHoursEnd', 'panelOrder', 'activeWorkSort', 'costPanelColumns'] as const) {
      if (body[k] !== undefined) (next as unknown as Record<string, unknown>)[k] = body[k];
    }
    if (body.density !== undefined) {
      const seen = (body.densityUpdatedAt as string | null | undefined) ?? null;
      if (seen !== stored.densityUpdatedAt) rejected.density = { attempted: body.density as DashboardPrefs['density'], current: stored.density, currentUpdatedAt: stored.densityUpdatedAt };
      else if (body.density !== stored.density) {
        next.density = body.density as DashboardPrefs['density'];
        next.densityUpdatedAt = stamp();
      }
    }
    const order = (body.costPanelOrder ?? {}) as Record<CostPanelAxis, DashboardPrefs['costPanelOrder']['task']>;
    const seenOrder = (body.costPanelOrderUpdatedAt ?? {}) as Record<string, string | null>;
    for (const axis of Object.keys(order) as CostPanelAxis[]) {
      if ((seenOrder[axis] ?? null) !== stored.costPanelOrderUpdatedAt[axis]) {
        rejected.costPanelOrder.push({ axis, attempted: order[axis], current: stored.costPanelOrder[axis], currentUpdatedAt: stored.costPanelOrderUpdatedAt[axis] });
      } else {
        next.costPanelOrder[axis] = order[axis];
        next.costPanelOrderUpdatedAt[axis] = stamp();
      }
    }
    for (const f of (body.taskCommentFilters ?? []) as { taskId: string; q: string | null; authorId: string | null; updatedAt: string | null }[]) {
      const cur = next.taskCommentFilters.find((x) => x.taskId === f.taskId) ?? null;
      if ((cur?.updatedAt ?? null) !== f.updatedAt) {
        rejected.taskCommentFilters.push({ taskId: f.taskId, attempted: { q: f.q, authorId: f.authorId }, current: cur });
        continue;
      }
      next.taskCommentFilters = next.taskCommentFilters.filter((x) => x.taskId !== f.taskId);
      if (f.q !== null || f.authorId !== null) next.taskCommentFilters.unshift({ taskId: f.taskId, q: f.q, authorId: f.authorId, updatedAt: stamp() });
    }
    next.updatedAt = stamp();
    stored = next;
    return { prefs: stored, rejected };
  }

  return {
    /** The bodies of the PUTs received, oldest first. */
    puts,
    current: () => stored,
    /** Another window's change, written straight to the store with fresh stamps. */
    elsewhere(change: Partial<DashboardPrefs>) {
      stored = { ...stored, ...change, ...(change.density ? { densityUpdatedAt: stamp() } : {}) };
    },
    /** Answers the dashboard-prefs requests; undefined for any other request. */
    handle(call: FakeCall): Response | undefined {
      if (call.path !== '/api/v1/workspace/dashboard-prefs') return undefined;
      if (call.method === 'GET') return json(200, stored);
      if (call.method === 'PUT') {
        puts.push(call.body as Record<string, unknown>);
        return json(200, put(call.body as Record<string, unknown>));
      }
      if (call.method === 'DELETE') {
        stored = defaultPrefs('usr_owner');
        return json(200, stored);
      }
      return undefined;
    },
  };
}
