import { checkEnum, invalid } from '../../core/errors';
import { MAX_ID_LENGTH } from '../../core/input';
import { type ActiveWorkSort, ACTIVE_WORK_SORTS, type Density, DENSITIES } from '../../core/vocabulary';
export { type ActiveWorkSort, ACTIVE_WORK_SORTS, type Density, DENSITIES };

/**
 * Pure rules of a member's dashboard preferences: the values each field takes, its bounds and the
 * defaults DELETE restores ("all panels shown, default order, smart active-work sort, all cost
 * columns visible"; the digest fields: every section, no quiet weekends, no quiet hours).
 */

/** A Home panel id: lowercase letters and digits joined by hyphens (the UI names its panels). */
export const PANEL_ID_PATTERN = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
export const MAX_PANEL_ID_LENGTH = 40;
/** Panels listed in panelOrder or collapsedPanels. */
export const MAX_PANELS = 30;
/** Home's panels in their default order (panels the UI adds later go after these). */
export const DEFAULT_PANEL_ORDER: readonly string[] = ['today', 'whats-new', 'inbox', 'insights', 'reactions'];

/** The digest's sections a recipient can keep or leave out of their own digest. */
export type DigestSection = 'approvals' | 'loop' | 'spend' | 'spikes' | 'quiet-sources';
export const DIGEST_SECTIONS: readonly DigestSection[] = ['approvals', 'loop', 'spend', 'spikes', 'quiet-sources'];

/** The Activity page's time buckets. */
export type ActivityBucket = 'today' | 'yesterday' | 'this-week' | 'earlier';
export const ACTIVITY_BUCKETS: readonly ActivityBucket[] = ['today', 'yesterday', 'this-week', 'earlier'];

export const DEFAULT_ACTIVE_WORK_SORT: ActiveWorkSort = 'smart';

/** The columns of the Cost page's breakdown rows. */
export type CostPanelColumn = 'cost' | 'trend' | 'detail';
export const COST_PANEL_COLUMNS: readonly CostPanelColumn[] = ['cost', 'trend', 'detail'];

/** The Cost page's breakdown axes: each has its own order (and its own concurrency stamp). */
export type CostPanelAxis = 'task' | 'assignee' | 'tag' | 'source' | 'memory';
export const COST_PANEL_AXES: readonly CostPanelAxis[] = ['task', 'assignee', 'tag', 'source', 'memory'];
/** How one axis's rows are ordered. */
export type CostPanelSort = 'cost-desc' | 'cost-asc' | 'name-asc' | 'name-desc';
export const COST_PANEL_SORTS: readonly CostPanelSort[] = ['cost-desc', 'cost-asc', 'name-asc', 'name-desc'];
export const DEFAULT_COST_PANEL_SORT: CostPanelSort = 'cost-desc';

export const DEFAULT_DENSITY: Density = 'comfortable';

/** Quiet hours are whole hours of the workspace day, 0-23. */
export const QUIET_HOUR = { min: 0, max: 23 } as const;

/** Comment filters kept per member (the least recently set are dropped past it) and per PUT. */
export const MAX_COMMENT_FILTERS = 200;
export const MAX_COMMENT_FILTERS_PER_PUT = 50;
/** The comment keyword filter's bound (the spec's comment search q). */
export const MAX_COMMENT_FILTER_Q = 200;

export type CostPanelOrder = Record<CostPanelAxis, CostPanelSort>;
export type CostPanelStamps = Record<CostPanelAxis, string | null>;

export const defaultCostPanelOrder = (): CostPanelOrder => ({ task: 'cost-desc', assignee: 'cost-desc', tag: 'cost-desc', source: 'cost-desc', memory: 'cost-desc' });
export const emptyCostPanelStamps = (): CostPanelStamps => ({ task: null, assignee: null, tag: null, source: null, memory: null });

/** A list of enum values, each at most once (422 naming the entry). */
export function checkEnumList<T extends string>(field: string, values: readonly T[], raw: unknown): T[] {
  if (!Array.isArray(raw)) throw invalid(field, 'must be an array');
  if (raw.length > values.length) throw invalid(field, `must hold at most ${values.length} values`);
  const out: T[] = [];
  raw.forEach((v: unknown, i) => {
    const value = checkEnum(`${field}[${i}]`, values, v);
    if (out.includes(value)) throw invalid(`${field}[${i}]`, 'is listed twice');
    out.push(value);
  });
  return out;
}

/** Panel ids: the id pattern, at most 30, each once. */
export function checkPanelList(field: string, raw: unknown): string[] {
  if (!Array.isArray(raw)) throw invalid(field, 'must be an array of panel ids');
  if (raw.length > MAX_PANELS) throw invalid(field, `must hold at most ${MAX_PANELS} panel ids`);
  const out: string[] = [];
  raw.forEach((v: unknown, i) => {
    if (typeof v !== 'string' || v.length > MAX_PANEL_ID_LENGTH || !PANEL_ID_PATTERN.test(v)) {
      throw invalid(`${field}[${i}]`, `must be a panel id: lowercase letters and digits joined by hyphens, at most ${MAX_PANEL_ID_LENGTH} characters`);
    }
    if (out.includes(v)) throw invalid(`${field}[${i}]`, 'is listed twice');
    out.push(v);
  });
  return out;
}

/** A quiet hour: an integer 0-23, or null (no quiet hours). */
export function checkQuietHour(field: string, raw: unknown): number | null {
  if (raw === null) return null;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < QUIET_HOUR.min || raw > QUIET_HOUR.max) throw invalid(field, `must be an integer ${QUIET_HOUR.min}-${QUIET_HOUR.max} or null`);
  return raw;
}

/** Quiet hours are both set (and different) or both null. */
export function checkQuietHours(start: number | null, end: number | null): void {
  if ((start === null) !== (end === null)) {
    const missing = start === null ? 'digestQuietHoursStart' : 'digestQuietHoursEnd';
    throw invalid(missing, 'must be set together with the other quiet hour (or both null for no quiet hours)');
  }
  if (start !== null && start === end) throw invalid('digestQuietHoursEnd', 'must differ from digestQuietHoursStart (quiet hours run from start up to end)');
}

/** Whether `hour` (0-23) falls in the quiet hours [start, end), which wrap past midnight when start > end. */
export function inQuietHours(hour: number, start: number | null, end: number | null): boolean {
  if (start === null || end === null || start === end) return false;
  return start < end ? hour >= start && hour < end : hour >= start || hour < end;
}

/** An optional id-like string (the echo stamps, taskId, authorId): a string of at most 200 characters or null. */
export function checkOptionalString(field: string, raw: unknown, max = MAX_ID_LENGTH): string | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw !== 'string' || raw.length > max) throw invalid(field, `must be a string of at most ${max} characters or null`);
  return raw;
}
