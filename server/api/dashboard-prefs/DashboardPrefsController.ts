import { Body, Controller, Delete, Get, Put, Query, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { CostPanelSort, ActiveWorkSort, ActivityBucket, CostPanelColumn, Density, DigestSection } from '../../domain/dashboard-prefs/rules';
import type { DashboardPrefs } from '../../domain/dashboard-prefs/prefs-store';
import type { PrefsWriteResult } from '../../domain/dashboard-prefs/prefs-service';
import type { Services } from '../../services';

/** Per axis, the order to write (axes left out are not touched). */
export interface CostPanelOrderPatch {
  task?: CostPanelSort;
  assignee?: CostPanelSort;
  tag?: CostPanelSort;
  source?: CostPanelSort;
  memory?: CostPanelSort;
}

/** Per axis written, the costPanelOrderUpdatedAt.<axis> the client last read (null: it read "never set"). */
export interface CostPanelOrderSeen {
  task?: string | null;
  assignee?: string | null;
  tag?: string | null;
  source?: string | null;
  memory?: string | null;
}

/** One task's comment filter to write; q and authorId both null (or empty) removes it. */
export interface TaskCommentFilterWrite {
  /** An existing task. */
  taskId: string;
  /** Keyword filter. */
  q?: string | null;
  /** A member (removed ones too: their comments stay). */
  authorId?: string | null;
  /**
   * The entry's updatedAt as the client last read it; null when it read no entry for this task.
   */
  updatedAt: string | null;
}

/**
 * A partial body: only the fields present are written. density, each costPanelOrder axis and each
 * taskCommentFilters entry are guarded by optimistic concurrency: the client echoes the version it
 * last read (densityUpdatedAt, costPanelOrderUpdatedAt.<axis>, the entry's updatedAt; null when it
 * read "never set", which is also what leaving the echo out means); a write whose echo is not the
 * stored version is not applied and is listed in `rejected` with the current value to adopt
 * (asking for the value already stored is never rejected). The other fields are last-writer-wins.
 */
export interface DashboardPrefsBody {
  /** Home panels collapsed: panel ids (lowercase letters and digits joined by hyphens, at most 40 characters), each once. */
  collapsedPanels?: string[];
  /** The digest sections this member receives; empty mutes their digest (reason no_sections). */
  digestPersonalSections?: DigestSection[];
  /** Activity page buckets collapsed. */
  collapsedActivityBuckets?: ActivityBucket[];
  /** No digest on Saturday and Sunday (workspace time). */
  digestQuietWeekends?: boolean;
  /**
   * Quiet hours start, a whole hour of the workspace day; set together with digestQuietHoursEnd, or both null for none.
   * @isInt
   */
  digestQuietHoursStart?: number | null;
  /**
   * Quiet hours end (exclusive); before start means the quiet hours run past midnight (22 -> 7); must differ from start.
   * @isInt
   */
  digestQuietHoursEnd?: number | null;
  /** Home panels in order: panel ids, each once. */
  panelOrder?: string[];
  activeWorkSort?: ActiveWorkSort;
  /** Visible columns of the Cost page's breakdown rows, each once. */
  costPanelColumns?: CostPanelColumn[];
  /** Per-axis orders to write (guarded per axis by costPanelOrderUpdatedAt). */
  costPanelOrder?: CostPanelOrderPatch;
  /** The echo for costPanelOrder: per axis written, the version last read. */
  costPanelOrderUpdatedAt?: CostPanelOrderSeen;
  /** Entries to write, each guarded by its own updatedAt echo. */
  taskCommentFilters?: TaskCommentFilterWrite[];
  density?: Density;
  /** The echo for density: densityUpdatedAt as last read (null: never set). */
  densityUpdatedAt?: string | null;
}

/** Dashboard preferences: per member, layout of Home, Cost and Activity, density, comment filters and digest preferences. */
@Route('api/v1/workspace')
@Tags('Dashboard preferences')
@Security('bearer')
export class DashboardPrefsController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * A member's preferences; a member who never changed any gets the defaults (all panels shown in
   * the default order, smart active-work sort, all cost columns visible, comfortable density, every
   * digest section, no quiet weekends or hours).
   * @param userId a member (default the owner)
   */
  @Get('dashboard-prefs')
  @Response<ErrorBody>('422', 'userId is not a member')
  public async getDashboardPrefs(@Query() userId?: string): Promise<DashboardPrefs> {
    return this.s.dashboardPrefs.get(userId);
  }

  /**
   * Writes the fields present and answers `{ prefs, rejected }`: prefs as stored after the write,
   * rejected the guarded entries dropped as stale (rejected.taskCommentFilters[], one
   * rejected.costPanelOrder[] entry per axis, rejected.density or null). A write that changes
   * something is logged as `dashboard_prefs.updated` (and emits it); a change to the digest fields
   * also records the member's new digest gating in the digest audit. A 422 changes nothing.
   * @param userId a member (default the owner)
   */
  @Put('dashboard-prefs')
  @Response<ErrorBody>('422', 'a field out of bounds or of the wrong kind, a panel or entry listed twice, quiet hours not both set (or equal), a taskCommentFilters taskId that is no task or authorId that is no member, or userId is not a member; nothing changed')
  public async putDashboardPrefs(@Body() body: DashboardPrefsBody, @Query() userId?: string): Promise<PrefsWriteResult> {
    return this.s.dashboardPrefs.put(userId, body as Record<string, unknown>);
  }

  /**
   * Resets the member's preferences to the defaults (comment filters removed), logged as
   * `dashboard_prefs.reset`; answers the defaults.
   * @param userId a member (default the owner)
   */
  @Delete('dashboard-prefs')
  @Response<ErrorBody>('422', 'userId is not a member')
  public async resetDashboardPrefs(@Query() userId?: string): Promise<DashboardPrefs> {
    return this.s.dashboardPrefs.reset(userId);
  }
}
