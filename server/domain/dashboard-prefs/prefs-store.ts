import type { Db } from '../../../db/connection';
import type { DashboardCommentFilterTable, DashboardPrefsTable } from '../../../db/schema';
import type { Trx } from '../../../db/transactions';
import {
  COST_PANEL_COLUMNS,
  DEFAULT_ACTIVE_WORK_SORT,
  DEFAULT_DENSITY,
  DEFAULT_PANEL_ORDER,
  DIGEST_SECTIONS,
  defaultCostPanelOrder,
  emptyCostPanelStamps,
  MAX_COMMENT_FILTERS,
  type ActiveWorkSort,
  type ActivityBucket,
  type CostPanelColumn,
  type CostPanelSort,
  type Density,
  type DigestSection,
} from './rules';

/** How each Cost page axis orders its rows. */
export interface CostPanelOrder {
  task: CostPanelSort;
  assignee: CostPanelSort;
  tag: CostPanelSort;
  source: CostPanelSort;
  memory: CostPanelSort;
}

/** Per axis, when its order was last written (ISO), or null if never: the value a PUT echoes. */
export interface CostPanelOrderUpdatedAt {
  /** @format date-time */
  task: string | null;
  /** @format date-time */
  assignee: string | null;
  /** @format date-time */
  tag: string | null;
  /** @format date-time */
  source: string | null;
  /** @format date-time */
  memory: string | null;
}

/** A member's filter on one task's comments (the comment list's q and authorId). */
export interface TaskCommentFilter {
  taskId: string;
  /** Keyword filter, or null. */
  q: string | null;
  /** Only comments by this member, or null. */
  authorId: string | null;
  /**
   * When this entry was last written: echo it in a PUT to prove the latest was seen.
   * @format date-time
   */
  updatedAt: string;
}

/** A member's dashboard preferences (the defaults until they change something). */
export interface DashboardPrefs {
  userId: string;
  /** Home panels shown collapsed (panel ids). */
  collapsedPanels: string[];
  /** The digest sections this member receives (owners and admins receive the digest). */
  digestPersonalSections: DigestSection[];
  /** Activity page buckets shown collapsed. */
  collapsedActivityBuckets: ActivityBucket[];
  /** No digest on Saturday and Sunday (workspace time). */
  digestQuietWeekends: boolean;
  /** Quiet hours start (whole hour 0-23, workspace time), or null for none. @isInt */
  digestQuietHoursStart: number | null;
  /** Quiet hours end (exclusive; before start means past midnight), or null for none. @isInt */
  digestQuietHoursEnd: number | null;
  /** Home panels in order (panels not listed follow in the UI's default order). */
  panelOrder: string[];
  activeWorkSort: ActiveWorkSort;
  /** Visible columns of the Cost page's breakdown rows. */
  costPanelColumns: CostPanelColumn[];
  costPanelOrder: CostPanelOrder;
  costPanelOrderUpdatedAt: CostPanelOrderUpdatedAt;
  /** Newest first, at most 200 (the least recently set are dropped). */
  taskCommentFilters: TaskCommentFilter[];
  density: Density;
  /**
   * When density was last written, or null if never: the value a PUT echoes.
   * @format date-time
   */
  densityUpdatedAt: string | null;
  /**
   * Last change of any field; null while the member has the defaults.
   * @format date-time
   */
  updatedAt: string | null;
}

export type StoredPrefs = Omit<DashboardPrefs, 'taskCommentFilters'>;

export function defaultPrefs(userId: string): StoredPrefs {
  return {
    userId,
    collapsedPanels: [],
    digestPersonalSections: [...DIGEST_SECTIONS],
    collapsedActivityBuckets: [],
    digestQuietWeekends: false,
    digestQuietHoursStart: null,
    digestQuietHoursEnd: null,
    panelOrder: [...DEFAULT_PANEL_ORDER],
    activeWorkSort: DEFAULT_ACTIVE_WORK_SORT,
    costPanelColumns: [...COST_PANEL_COLUMNS],
    costPanelOrder: defaultCostPanelOrder(),
    costPanelOrderUpdatedAt: emptyCostPanelStamps(),
    density: DEFAULT_DENSITY,
    densityUpdatedAt: null,
    updatedAt: null,
  };
}

const parse = <T>(text: string): T => JSON.parse(text) as T;

export function fromRow(r: DashboardPrefsTable): StoredPrefs {
  return {
    userId: r.userId,
    collapsedPanels: parse(r.collapsedPanels),
    digestPersonalSections: parse(r.digestPersonalSections),
    collapsedActivityBuckets: parse(r.collapsedActivityBuckets),
    digestQuietWeekends: r.digestQuietWeekends === 1,
    digestQuietHoursStart: r.digestQuietHoursStart,
    digestQuietHoursEnd: r.digestQuietHoursEnd,
    panelOrder: parse(r.panelOrder),
    activeWorkSort: r.activeWorkSort,
    costPanelColumns: parse(r.costPanelColumns),
    costPanelOrder: { ...defaultCostPanelOrder(), ...parse<Partial<CostPanelOrder>>(r.costPanelOrder) },
    costPanelOrderUpdatedAt: { ...emptyCostPanelStamps(), ...parse<Partial<CostPanelOrderUpdatedAt>>(r.costPanelOrderUpdatedAt) },
    density: r.density,
    densityUpdatedAt: r.densityUpdatedAt,
    updatedAt: r.updatedAt,
  };
}

export function toRow(p: StoredPrefs, updatedAt: string): DashboardPrefsTable {
  return {
    userId: p.userId,
    collapsedPanels: JSON.stringify(p.collapsedPanels),
    digestPersonalSections: JSON.stringify(p.digestPersonalSections),
    collapsedActivityBuckets: JSON.stringify(p.collapsedActivityBuckets),
    digestQuietWeekends: p.digestQuietWeekends ? 1 : 0,
    digestQuietHoursStart: p.digestQuietHoursStart,
    digestQuietHoursEnd: p.digestQuietHoursEnd,
    panelOrder: JSON.stringify(p.panelOrder),
    activeWorkSort: p.activeWorkSort,
    costPanelColumns: JSON.stringify(p.costPanelColumns),
    costPanelOrder: JSON.stringify(p.costPanelOrder),
    costPanelOrderUpdatedAt: JSON.stringify(p.costPanelOrderUpdatedAt),
    density: p.density,
    densityUpdatedAt: p.densityUpdatedAt,
    updatedAt,
  };
}

/** The stored preferences of a member (the defaults when none), without comment filters. Safe inside a transaction. */
export async function readStoredPrefs(db: Db, userId: string): Promise<StoredPrefs> {
  const row = await db.selectFrom('dashboardPrefs').selectAll().where('userId', '=', userId).executeTakeFirst();
  return row ? fromRow(row) : defaultPrefs(userId);
}

/** The preferences of several members at once (digest recipients), defaults for those without a row. */
export async function readStoredPrefsOf(db: Db, userIds: readonly string[]): Promise<Map<string, StoredPrefs>> {
  const out = new Map<string, StoredPrefs>();
  if (userIds.length === 0) return out;
  const rows = await db.selectFrom('dashboardPrefs').selectAll().where('userId', 'in', userIds).execute();
  for (const r of rows) out.set(r.userId, fromRow(r));
  for (const id of userIds) if (!out.has(id)) out.set(id, defaultPrefs(id));
  return out;
}

export async function readCommentFilters(db: Db, userId: string): Promise<TaskCommentFilter[]> {
  return db
    .selectFrom('dashboardCommentFilters')
    .select(['taskId', 'q', 'authorId', 'updatedAt'])
    .where('userId', '=', userId)
    .orderBy('updatedAt', 'desc')
    .orderBy('taskId')
    .limit(MAX_COMMENT_FILTERS)
    .execute();
}

export async function readPrefs(db: Db, userId: string): Promise<DashboardPrefs> {
  const stored = await readStoredPrefs(db, userId);
  return { ...stored, taskCommentFilters: await readCommentFilters(db, userId) };
}

/** Writes a member's stored preferences (the first change inserts the row). */
export async function upsertPrefsRow(trx: Trx, row: DashboardPrefsTable): Promise<void> {
  await trx.insertInto('dashboardPrefs').values(row).onConflict((oc) => oc.column('userId').doUpdateSet(row)).execute();
}

/** Forgets a member's preferences and comment filters; answers whether anything was stored. */
export async function deletePrefsOf(trx: Trx, userId: string): Promise<boolean> {
  const filters = await trx.deleteFrom('dashboardCommentFilters').where('userId', '=', userId).executeTakeFirst();
  const prefs = await trx.deleteFrom('dashboardPrefs').where('userId', '=', userId).executeTakeFirst();
  return Number(prefs.numDeletedRows) > 0 || Number(filters.numDeletedRows) > 0;
}

export async function upsertCommentFilter(trx: Trx, row: DashboardCommentFilterTable): Promise<void> {
  await trx.insertInto('dashboardCommentFilters').values(row).onConflict((oc) => oc.columns(['userId', 'taskId']).doUpdateSet({ q: row.q, authorId: row.authorId, updatedAt: row.updatedAt })).execute();
}

export async function deleteCommentFilter(trx: Trx, userId: string, taskId: string): Promise<void> {
  await trx.deleteFrom('dashboardCommentFilters').where('userId', '=', userId).where('taskId', '=', taskId).execute();
}

/** Drops a member's filters on tasks other than `keepTaskIds`. */
export async function keepCommentFilters(trx: Trx, userId: string, keepTaskIds: string[]): Promise<void> {
  await trx.deleteFrom('dashboardCommentFilters').where('userId', '=', userId).where('taskId', 'not in', keepTaskIds).execute();
}
