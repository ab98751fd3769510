import type { Db } from '../../../db/connection';
import { inTransaction, type Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { checkEnum, invalid } from '../../core/errors';
import { recordActivity } from '../activity/activity';
import { emit } from '../events/outbox';
import { resolveActor, type MemberActor } from '../members/resolve-actor';
import {
  defaultPrefs,
  deleteCommentFilter,
  deletePrefsOf,
  keepCommentFilters,
  readCommentFilters,
  readPrefs,
  readStoredPrefs,
  toRow,
  upsertCommentFilter,
  upsertPrefsRow,
  type CostPanelOrder,
  type DashboardPrefs,
  type StoredPrefs,
  type TaskCommentFilter,
} from './prefs-store';
import {
  ACTIVE_WORK_SORTS,
  ACTIVITY_BUCKETS,
  checkEnumList,
  checkOptionalString,
  checkPanelList,
  checkQuietHour,
  checkQuietHours,
  COST_PANEL_AXES,
  COST_PANEL_COLUMNS,
  COST_PANEL_SORTS,
  DENSITIES,
  DIGEST_SECTIONS,
  MAX_COMMENT_FILTER_Q,
  MAX_COMMENT_FILTERS,
  MAX_COMMENT_FILTERS_PER_PUT,
  type CostPanelAxis,
  type CostPanelSort,
  type Density,
} from './rules';

/** A comment-filter write that lost to a newer one. */
export interface RejectedCommentFilter {
  taskId: string;
  /** What the PUT asked for. */
  attempted: { q: string | null; authorId: string | null };
  /** The entry as stored now (null: none), which the client should adopt. */
  current: TaskCommentFilter | null;
}

/** A cost-panel order write (one axis) that lost to a newer one. */
export interface RejectedCostPanelOrder {
  axis: CostPanelAxis;
  attempted: CostPanelSort;
  current: CostPanelSort;
  /** @format date-time */
  currentUpdatedAt: string | null;
}

/** A density write that lost to a newer one. */
export interface RejectedDensity {
  attempted: Density;
  current: Density;
  /** @format date-time */
  currentUpdatedAt: string | null;
}

/** Entries a PUT dropped because the client had not seen the latest value (optimistic concurrency). */
export interface RejectedPrefs {
  taskCommentFilters: RejectedCommentFilter[];
  /** One entry per axis rejected. */
  costPanelOrder: RejectedCostPanelOrder[];
  density: RejectedDensity | null;
}

export interface PrefsWriteResult {
  prefs: DashboardPrefs;
  rejected: RejectedPrefs;
}

/** Fields a PUT may carry (each optional; only present ones are written). */
export type PrefsPatchInput = Partial<Record<keyof DashboardPrefs, unknown>>;

/** Called inside the write's transaction when a member's digest gating fields changed (the digest audit records the new gating). */
export type DigestPrefsChanged = (trx: Trx, actor: MemberActor, after: StoredPrefs) => Promise<void>;

/** The digest fields: a change to them is a gating change. */
const DIGEST_FIELDS = ['digestPersonalSections', 'digestQuietWeekends', 'digestQuietHoursStart', 'digestQuietHoursEnd'] as const;

/** A stamp strictly after `prev` (two writes in one millisecond still get different versions). */
function nextStamp(clock: Clock, prev: string | null): string {
  const now = clock.now().getTime();
  const after = prev === null ? now : Math.max(now, Date.parse(prev) + 1);
  return new Date(after).toISOString();
}

interface CheckedFilter {
  taskId: string;
  q: string | null;
  authorId: string | null;
  seen: string | null;
}

/** Shape checks of taskCommentFilters (ids are checked against the tables in the transaction). */
function checkFilterEntries(raw: unknown): CheckedFilter[] {
  if (!Array.isArray(raw)) throw invalid('taskCommentFilters', 'must be an array of { taskId, q, authorId, updatedAt }');
  if (raw.length > MAX_COMMENT_FILTERS_PER_PUT) throw invalid('taskCommentFilters', `must hold at most ${MAX_COMMENT_FILTERS_PER_PUT} entries per request`);
  const seenIds = new Set<string>();
  return raw.map((entry: unknown, i) => {
    const at = `taskCommentFilters[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw invalid(at, 'must be an object { taskId, q, authorId, updatedAt }');
    const e = entry as Record<string, unknown>;
    const taskId = checkOptionalString(`${at}.taskId`, e.taskId);
    if (taskId === null || taskId.length === 0) throw invalid(`${at}.taskId`, 'is required');
    if (seenIds.has(taskId)) throw invalid(`${at}.taskId`, 'is listed twice');
    seenIds.add(taskId);
    const qRaw = checkOptionalString(`${at}.q`, e.q, MAX_COMMENT_FILTER_Q);
    const q = qRaw === null || qRaw.trim() === '' ? null : qRaw.trim();
    const authorId = checkOptionalString(`${at}.authorId`, e.authorId);
    const seen = checkOptionalString(`${at}.updatedAt`, e.updatedAt);
    return { taskId, q, authorId: authorId === '' ? null : authorId, seen };
  });
}

interface CheckedPatch {
  fields: Partial<StoredPrefs>;
  costOrder: Partial<Record<CostPanelAxis, { sort: CostPanelSort; seen: string | null }>>;
  density: { value: Density; seen: string | null } | null;
  filters: CheckedFilter[] | null;
}

function checkPatch(input: PrefsPatchInput): CheckedPatch {
  const fields: Partial<StoredPrefs> = {};
  const has = (k: keyof DashboardPrefs) => input[k] !== undefined;
  if (has('collapsedPanels')) fields.collapsedPanels = checkPanelList('collapsedPanels', input.collapsedPanels);
  if (has('panelOrder')) fields.panelOrder = checkPanelList('panelOrder', input.panelOrder);
  if (has('digestPersonalSections')) fields.digestPersonalSections = checkEnumList('digestPersonalSections', DIGEST_SECTIONS, input.digestPersonalSections);
  if (has('collapsedActivityBuckets')) fields.collapsedActivityBuckets = checkEnumList('collapsedActivityBuckets', ACTIVITY_BUCKETS, input.collapsedActivityBuckets);
  if (has('costPanelColumns')) fields.costPanelColumns = checkEnumList('costPanelColumns', COST_PANEL_COLUMNS, input.costPanelColumns);
  if (has('digestQuietWeekends')) {
    if (typeof input.digestQuietWeekends !== 'boolean') throw invalid('digestQuietWeekends', 'must be true or false');
    fields.digestQuietWeekends = input.digestQuietWeekends;
  }
  if (has('digestQuietHoursStart')) fields.digestQuietHoursStart = checkQuietHour('digestQuietHoursStart', input.digestQuietHoursStart);
  if (has('digestQuietHoursEnd')) fields.digestQuietHoursEnd = checkQuietHour('digestQuietHoursEnd', input.digestQuietHoursEnd);
  if (has('activeWorkSort')) fields.activeWorkSort = checkEnum('activeWorkSort', ACTIVE_WORK_SORTS, input.activeWorkSort);

  const costOrder: CheckedPatch['costOrder'] = {};
  if (has('costPanelOrder')) {
    const raw = input.costPanelOrder;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid('costPanelOrder', `must be an object of axis -> order (axes ${COST_PANEL_AXES.join(', ')})`);
    const stamps = input.costPanelOrderUpdatedAt ?? {};
    if (typeof stamps !== 'object' || stamps === null || Array.isArray(stamps)) throw invalid('costPanelOrderUpdatedAt', 'must be an object of axis -> the updatedAt last seen (or null)');
    for (const [axis, sort] of Object.entries(raw as Record<string, unknown>)) {
      if (sort === undefined) continue;
      const a = checkEnum(`costPanelOrder.${axis}`, COST_PANEL_AXES, axis);
      costOrder[a] = {
        sort: checkEnum(`costPanelOrder.${a}`, COST_PANEL_SORTS, sort),
        seen: checkOptionalString(`costPanelOrderUpdatedAt.${a}`, (stamps as Record<string, unknown>)[a]),
      };
    }
  } else if (has('costPanelOrderUpdatedAt')) {
    if (typeof input.costPanelOrderUpdatedAt !== 'object' || input.costPanelOrderUpdatedAt === null || Array.isArray(input.costPanelOrderUpdatedAt)) throw invalid('costPanelOrderUpdatedAt', 'must be an object of axis -> the updatedAt last seen (or null)');
  }

  let density: CheckedPatch['density'] = null;
  if (has('density')) density = { value: checkEnum('density', DENSITIES, input.density), seen: checkOptionalString('densityUpdatedAt', input.densityUpdatedAt) };
  else if (has('densityUpdatedAt')) checkOptionalString('densityUpdatedAt', input.densityUpdatedAt);

  const filters = has('taskCommentFilters') ? checkFilterEntries(input.taskCommentFilters) : null;
  for (const k of ['userId', 'updatedAt'] as const) if (has(k)) throw invalid(k, 'is not a preference (userId is a query parameter; updatedAt is set by the desk)');
  return { fields, costOrder, density, filters };
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** GET/PUT/DELETE /workspace/dashboard-prefs. */
export class DashboardPrefsService {
  private digestPrefsChanged: DigestPrefsChanged | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** The digest area records gating changes through this hook (wired in start.ts). */
  onDigestPrefsChanged(hook: DigestPrefsChanged): void {
    this.digestPrefsChanged = hook;
  }

  async get(userId?: string): Promise<DashboardPrefs> {
    const actor = await resolveActor(this.db, userId, 'userId');
    return readPrefs(this.db, actor.userId);
  }

  /**
   * Writes the fields present. density, each costPanelOrder axis and each taskCommentFilters entry
   * are written only when the client echoes the version it saw (densityUpdatedAt,
   * costPanelOrderUpdatedAt.<axis>, the entry's updatedAt; null = "never set"); otherwise the entry is
   * left as stored and reported in `rejected`. Asking for the value already stored is never a
   * conflict. The other fields are last-writer-wins.
   */
  async put(userId: string | undefined, input: PrefsPatchInput): Promise<PrefsWriteResult> {
    const patch = checkPatch(input);
    return inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx, userId, 'userId');
      const before = await readStoredPrefs(trx, actor.userId);
      const after: StoredPrefs = { ...before, ...patch.fields, costPanelOrder: { ...before.costPanelOrder }, costPanelOrderUpdatedAt: { ...before.costPanelOrderUpdatedAt } };
      checkQuietHours(after.digestQuietHoursStart, after.digestQuietHoursEnd);
      const rejected: RejectedPrefs = { taskCommentFilters: [], costPanelOrder: [], density: null };
      const changed = (Object.keys(patch.fields) as (keyof StoredPrefs)[]).filter((k) => !sameValue(before[k], after[k]));

      for (const axis of COST_PANEL_AXES) {
        const w = patch.costOrder[axis];
        if (!w) continue;
        const current = before.costPanelOrderUpdatedAt[axis];
        // Asking for the value already stored is no conflict, whatever the echo.
        if (w.sort === before.costPanelOrder[axis]) continue;
        if (w.seen !== current) {
          rejected.costPanelOrder.push({ axis, attempted: w.sort, current: before.costPanelOrder[axis], currentUpdatedAt: current });
        } else {
          after.costPanelOrder[axis] = w.sort;
          after.costPanelOrderUpdatedAt[axis] = nextStamp(this.clock, current);
          if (!changed.includes('costPanelOrder')) changed.push('costPanelOrder');
        }
      }
      if (patch.density && patch.density.value !== before.density) {
        if (patch.density.seen !== before.densityUpdatedAt) {
          rejected.density = { attempted: patch.density.value, current: before.density, currentUpdatedAt: before.densityUpdatedAt };
        } else {
          after.density = patch.density.value;
          after.densityUpdatedAt = nextStamp(this.clock, before.densityUpdatedAt);
          changed.push('density');
        }
      }
      const filtersChanged = patch.filters ? await this.writeFilters(trx, actor.userId, patch.filters, rejected) : 0;
      if (filtersChanged > 0) changed.push('taskCommentFilters' as keyof StoredPrefs);

      if (changed.length > 0) {
        const stamp = this.clock.now().toISOString();
        await upsertPrefsRow(trx, toRow(after, stamp));
        await this.log(trx, actor, 'dashboard_prefs.updated', changed as string[]);
        if (DIGEST_FIELDS.some((f) => changed.includes(f)) && this.digestPrefsChanged) await this.digestPrefsChanged(trx, actor, after);
      }
      return { prefs: await readPrefs(trx, actor.userId), rejected };
    });
  }

  /** Back to the defaults (comment filters cleared too). A member already on the defaults logs nothing. */
  async reset(userId?: string): Promise<DashboardPrefs> {
    return inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx, userId, 'userId');
      const before = await readStoredPrefs(trx, actor.userId);
      if (await deletePrefsOf(trx, actor.userId)) {
        await this.log(trx, actor, 'dashboard_prefs.reset', []);
        const defaults = defaultPrefs(actor.userId);
        if (DIGEST_FIELDS.some((f) => !sameValue(before[f], defaults[f])) && this.digestPrefsChanged) await this.digestPrefsChanged(trx, actor, defaults);
      }
      return readPrefs(trx, actor.userId);
    });
  }

  /** Applies the filter entries whose echo matches; returns how many changed. Drops the oldest past the cap. */
  private async writeFilters(trx: Trx, userId: string, entries: CheckedFilter[], rejected: RejectedPrefs): Promise<number> {
    const current = new Map((await readCommentFilters(trx, userId)).map((f) => [f.taskId, f]));
    let changed = 0;
    for (const [i, e] of entries.entries()) {
      const task = await trx.selectFrom('tasks').select('id').where('id', '=', e.taskId).executeTakeFirst();
      if (!task) throw invalid(`taskCommentFilters[${i}].taskId`, 'is not a task');
      if (e.authorId !== null) {
        const author = await trx.selectFrom('users').select('id').where('id', '=', e.authorId).executeTakeFirst();
        if (!author) throw invalid(`taskCommentFilters[${i}].authorId`, 'is not a member of this workspace');
      }
      const stored = current.get(e.taskId) ?? null;
      const same = stored ? stored.q === e.q && stored.authorId === e.authorId : e.q === null && e.authorId === null;
      if (same) continue;
      if (e.seen !== (stored?.updatedAt ?? null)) {
        rejected.taskCommentFilters.push({ taskId: e.taskId, attempted: { q: e.q, authorId: e.authorId }, current: stored });
        continue;
      }
      if (e.q === null && e.authorId === null) {
        await deleteCommentFilter(trx, userId, e.taskId);
      } else {
        const row = { userId, taskId: e.taskId, q: e.q, authorId: e.authorId, updatedAt: nextStamp(this.clock, stored?.updatedAt ?? null) };
        await upsertCommentFilter(trx, row);
      }
      changed++;
    }
    if (changed > 0) {
      const keep = await trx.selectFrom('dashboardCommentFilters').select('taskId').where('userId', '=', userId).orderBy('updatedAt', 'desc').orderBy('taskId').limit(MAX_COMMENT_FILTERS).execute();
      if (keep.length === MAX_COMMENT_FILTERS) {
        await keepCommentFilters(trx, userId, keep.map((k) => k.taskId));
      }
    }
    return changed;
  }

  private async log(trx: Trx, actor: MemberActor, kind: 'dashboard_prefs.updated' | 'dashboard_prefs.reset', fields: string[]): Promise<void> {
    const detail = kind === 'dashboard_prefs.reset' ? `Dashboard preferences of ${actor.label} reset to the defaults` : `Dashboard preferences of ${actor.label} changed: ${fields.join(', ')}`;
    await recordActivity(trx, this.clock, { kind, detail, actor, entityType: 'member', entityId: actor.userId });
    await emit(trx, this.clock, kind, { userId: actor.userId, fields });
  }
}

export type { CostPanelOrder };
