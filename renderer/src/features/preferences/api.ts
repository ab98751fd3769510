import { api, unwrap, type Schema } from '../../api/client';
import { ACTIVE_WORK_SORT, ACTIVITY_BUCKET, COST_PANEL_AXIS, COST_PANEL_COLUMN, COST_PANEL_SORT, DENSITY, DIGEST_SECTION } from '../../api/rules.gen';

/** The dashboard preferences of the signed-in member (GET/PUT/DELETE /workspace/dashboard-prefs; no userId: the owner). */

export type DashboardPrefs = Schema<'DashboardPrefs'>;
export type DashboardPrefsBody = Schema<'DashboardPrefsBody'>;
export type PrefsWriteResult = Schema<'PrefsWriteResult'>;
export type RejectedPrefs = Schema<'RejectedPrefs'>;
export type Density = (typeof DENSITY)[number];
export type ActiveWorkSort = (typeof ACTIVE_WORK_SORT)[number];
export type ActivityBucket = (typeof ACTIVITY_BUCKET)[number];
export type CostPanelAxis = (typeof COST_PANEL_AXIS)[number];
export type CostPanelSort = (typeof COST_PANEL_SORT)[number];
export type CostPanelColumn = (typeof COST_PANEL_COLUMN)[number];
export type DigestSection = (typeof DIGEST_SECTION)[number];
export type TaskCommentFilter = DashboardPrefs['taskCommentFilters'][number];

/** Home's panels in their default order (the ids the desk stores in panelOrder and collapsedPanels). */
export const HOME_PANELS = ['today', 'whats-new', 'inbox', 'insights', 'reactions'] as const;
export type HomePanel = (typeof HOME_PANELS)[number];

/** The defaults DELETE restores, for a member who never changed anything (and while the first read is on its way). */
export function defaultPrefs(userId = ''): DashboardPrefs {
  const axes = Object.fromEntries(COST_PANEL_AXIS.map((a) => [a, 'cost-desc'])) as DashboardPrefs['costPanelOrder'];
  const stamps = Object.fromEntries(COST_PANEL_AXIS.map((a) => [a, null])) as DashboardPrefs['costPanelOrderUpdatedAt'];
  return {
    userId,
    collapsedPanels: [],
    digestPersonalSections: [...DIGEST_SECTION],
    collapsedActivityBuckets: [],
    digestQuietWeekends: false,
    digestQuietHoursStart: null,
    digestQuietHoursEnd: null,
    panelOrder: [...HOME_PANELS],
    activeWorkSort: 'smart',
    costPanelColumns: [...COST_PANEL_COLUMN],
    costPanelOrder: axes,
    costPanelOrderUpdatedAt: stamps,
    taskCommentFilters: [],
    density: 'comfortable',
    densityUpdatedAt: null,
    updatedAt: null,
  };
}

const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const oneOf = <T extends string>(values: readonly T[], v: unknown): v is T => typeof v === 'string' && (values as readonly string[]).includes(v);
const listOf = <T extends string>(values: readonly T[], v: unknown, fallback: T[]): T[] => (isStringList(v) ? v.filter((x): x is T => oneOf(values, x)) : fallback);
const hourOrNull = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 23 ? v : null);
const stampOrNull = (v: unknown) => (typeof v === 'string' ? v : null);

/**
 * The answer as the UI uses it: each field the desk sent, the default for any it did not (or sent in a
 * shape this build does not know), so a page never breaks on its layout preferences.
 */
export function normalizePrefs(raw: unknown): DashboardPrefs {
  const d = defaultPrefs();
  if (typeof raw !== 'object' || raw === null) return d;
  const r = raw as Record<string, unknown>;
  const order = (typeof r.costPanelOrder === 'object' && r.costPanelOrder !== null ? r.costPanelOrder : {}) as Record<string, unknown>;
  const stamps = (typeof r.costPanelOrderUpdatedAt === 'object' && r.costPanelOrderUpdatedAt !== null ? r.costPanelOrderUpdatedAt : {}) as Record<string, unknown>;
  const filters = Array.isArray(r.taskCommentFilters) ? (r.taskCommentFilters as unknown[]) : [];
  return {
    userId: typeof r.userId === 'string' ? r.userId : d.userId,
    collapsedPanels: isStringList(r.collapsedPanels) ? r.collapsedPanels : d.collapsedPanels,
    digestPersonalSections: listOf(DIGEST_SECTION, r.digestPersonalSections, d.digestPersonalSections),
    collapsedActivityBuckets: listOf(ACTIVITY_BUCKET, r.collapsedActivityBuckets, d.collapsedActivityBuckets),
    digestQuietWeekends: typeof r.digestQuietWeekends === 'boolean' ? r.digestQuietWeekends : d.digestQuietWeekends,
    digestQuietHoursStart: hourOrNull(r.digestQuietHoursStart),
    digestQuietHoursEnd: hourOrNull(r.digestQuietHoursEnd),
    panelOrder: isStringList(r.panelOrder) ? r.panelOrder : d.panelOrder,
    activeWorkSort: oneOf(ACTIVE_WORK_SORT, r.activeWorkSort) ? r.activeWorkSort : d.activeWorkSort,
    costPanelColumns: listOf(COST_PANEL_COLUMN, r.costPanelColumns, d.costPanelColumns),
    costPanelOrder: Object.fromEntries(COST_PANEL_AXIS.map((a) => [a, oneOf(COST_PANEL_SORT, order[a]) ? order[a] : d.costPanelOrder[a]])) as DashboardPrefs['costPanelOrder'],
    costPanelOrderUpdatedAt: Object.fromEntries(COST_PANEL_AXIS.map((a) => [a, stampOrNull(stamps[a])])) as DashboardPrefs['costPanelOrderUpdatedAt'],
    taskCommentFilters: filters.filter((f): f is TaskCommentFilter => typeof f === 'object' && f !== null && typeof (f as TaskCommentFilter).taskId === 'string' && typeof (f as TaskCommentFilter).updatedAt === 'string'),
    density: oneOf(DENSITY, r.density) ? r.density : d.density,
    densityUpdatedAt: stampOrNull(r.densityUpdatedAt),
    updatedAt: stampOrNull(r.updatedAt),
  };
}

export const fetchPrefs = async (): Promise<DashboardPrefs> => normalizePrefs(await unwrap(api.GET('/api/v1/workspace/dashboard-prefs')));

export const putPrefs = async (body: DashboardPrefsBody): Promise<PrefsWriteResult> => {
  const answer = await unwrap(api.PUT('/api/v1/workspace/dashboard-prefs', { body }));
  return { prefs: normalizePrefs(answer.prefs), rejected: answer.rejected };
};

export const deletePrefs = async (): Promise<DashboardPrefs> => normalizePrefs(await unwrap(api.DELETE('/api/v1/workspace/dashboard-prefs')));
