import { Body, Controller, Get, Patch, Put, Query, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { Plan } from '../../config';
import type { ErrorBody } from '../../core/errors';
import type {
  ApprovalPolicy,
  FocusHistory,
  LoopState,
  SpikeAction,
  WorkspaceProfile,
} from '../../domain/workspace/workspace-service';
import type { Services } from '../../services';

export interface LoopStateBody {
  loopState: LoopState;
}

export interface PauseUntilBody {
  /**
   * When the desk resumes by itself: in the future and at most 14 days ahead. An ISO 8601 time with
   * an offset or Z; a date alone (`2026-01-20`) means the start of that day in the workspace
   * timezone. Setting it pauses the loop now; null clears the schedule and turns the loop back on.
   * @example "2026-01-20T09:00:00Z"
   */
  pauseUntilAt: string | null;
}

export interface LoopIntervalBody {
  /**
   * Requested minutes between loop cycles; the plan floor (free 15, pro 5, team 1) is applied on top.
   * @isInt
   */
  loopIntervalMinutes: number;
}

export interface LoopIntervalResult {
  /**
   * The requested interval, stored as sent.
   * @isInt
   */
  loopIntervalMinutes: number;
  /**
   * max(requested, plan floor): the interval the desk actually runs at.
   * @isInt
   */
  effectiveLoopIntervalMinutes: number;
  /**
   * Shortest interval of the plan: free 15, pro 5, team 1.
   * @isInt
   */
  planFloorMinutes: number;
  plan: Plan;
}

export interface ApprovalPolicyBody {
  /**
   * @isInt
   */
  watchHours: number;
  /**
   * Must be greater than watchHours.
   * @isInt
   */
  overdueHours: number;
}

/**
 * One focus tag as sent: lowercase letters and digits joined by single hyphens, at most 40
 * characters, e.g. `q3-launch`; surrounding spaces are allowed and trimmed.
 */
export type FocusTagInput = string;

export interface FocusTagsBody {
  /**
   * At most 3 tags. Surrounding spaces are trimmed and repeats folded; `[]` clears the focus.
   */
  tags: FocusTagInput[];
}

export interface FocusTagsResult {
  tags: string[];
}

export interface AutoArchiveConfig {
  /**
   * Days without an update after which queued or in-progress tasks are archived; null = off.
   * @isInt
   */
  staleTaskAutoArchiveDays: number | null;
}

export interface MemoryArchiveConfig {
  /**
   * Days without retrieval after which memory entries are archived; null = off.
   * @isInt
   */
  staleMemoryAutoArchiveDays: number | null;
}

export interface TaskCostSpikeConfig {
  taskCostSpikeAction: SpikeAction;
}

export interface SourceCostSpikeConfig {
  sourceCostSpikeAction: SpikeAction;
}

export interface TagCostSpikeConfig {
  tagCostSpikeAction: SpikeAction;
}

export interface SourceChronicSpikeBody {
  sourceChronicSpikeAction: SpikeAction;
  /**
   * Consecutive spike days before a source counts as chronic; unchanged when omitted.
   * @isInt
   */
  thresholdDays?: number;
}

export interface SourceChronicSpikeConfig {
  sourceChronicSpikeAction: SpikeAction;
  /**
   * Consecutive spike days before a source counts as chronic; default 3.
   * @isInt
   */
  thresholdDays: number;
}

export interface CostCapBody {
  /**
   * Daily AI spend cap in US cents (0 allows no AI spend at all); null removes the cap.
   * @isInt
   */
  dailyCostCapUsdCents: number | null;
}

export interface CostCapResult {
  /**
   * Daily AI spend cap in US cents; null = no cap.
   * @isInt
   */
  dailyCostCapUsdCents: number | null;
}

export interface TimezoneBody {
  /**
   * IANA timezone name; defines what "today" and daily buckets mean. Matched case-insensitively and
   * stored in its canonical spelling (`europe/berlin` becomes `Europe/Berlin`); a link such as
   * `Asia/Kolkata` or `EST` is kept as written.
   * @example "Europe/Berlin"
   */
  timezone: string;
}

export interface DigestEmailBody {
  /** Address that receives the daily digest (surrounding spaces trimmed, at most 254 characters); null removes it. */
  digestEmail: string | null;
}

export interface PlanBody {
  plan: Plan;
}

/**
 * Workspace configuration. Every change is written to the activity log (kind `workspace.*`, by the
 * owner) in the same transaction; a change of the loop state or of a scheduled pause also queues
 * the event `workspace.loop_state_changed`, a change of the cost cap `workspace.cost_cap_changed`.
 * A request that repeats the current value succeeds and changes nothing: no activity row, no event,
 * no new updatedAt. A rejected request changes nothing either.
 */
@Route('api/v1/workspace')
@Tags('Workspace configuration')
@Security('bearer')
export class WorkspaceController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /** Workspace profile, with the requested and the effective loop interval (after the plan floor). */
  @Get()
  public getWorkspace(): Promise<WorkspaceProfile> {
    return this.s.workspace.profile();
  }

  /** Sets the desk state. Any state set by hand, `paused` included, clears a scheduled pause. Returns the profile. */
  @Patch('loop')
  public async setLoop(@Body() body: LoopStateBody): Promise<WorkspaceProfile> {
    return this.s.workspace.setLoopState(body.loopState);
  }

  /**
   * Pauses the loop now until a time at most 14 days ahead; the scheduler turns it back on at that
   * time (activity `workspace.pause_expired`, by the system). null clears the schedule and turns
   * the loop on; null without a schedule changes nothing. Returns the profile.
   */
  @Response<ErrorBody>('422', 'pauseUntilAt is not an ISO time, is not in the future, or is more than 14 days ahead; nothing changed')
  @Patch('pause-until')
  public async setPauseUntil(@Body() body: PauseUntilBody): Promise<WorkspaceProfile> {
    return this.s.workspace.setPauseUntil(body.pauseUntilAt);
  }

  /**
   * Sets the requested interval (1-1440) as sent, also below the plan floor; returns it with the
   * effective value, which the floor raises (free 15, pro 5, team 1). A later plan change
   * recomputes the effective value from the stored request.
   */
  @Response<ErrorBody>('422', 'loopIntervalMinutes is not an integer from 1 to 1440; nothing changed')
  @Patch('loop-interval')
  public async setLoopInterval(@Body() body: LoopIntervalBody): Promise<LoopIntervalResult> {
    return this.s.workspace.setLoopInterval(body.loopIntervalMinutes);
  }

  /** Hours after an output's ready time at which it is labelled "watch", then "overdue". Default 24 and 72. */
  @Get('approval-policy')
  public async getApprovalPolicy(): Promise<ApprovalPolicy> {
    return this.s.workspace.approvalPolicy();
  }

  /**
   * Sets both thresholds at once. Presets: Fast 4/12, Daily 24/72 (default), Weekly 48/120, or any
   * custom pair within the bounds. overdueHours must be greater than watchHours.
   */
  @Response<ErrorBody>('422', 'An hour value is out of range, or overdueHours is not greater than watchHours (named as overdueHours); nothing changed')
  @Patch('approval-policy')
  public async setApprovalPolicy(@Body() body: ApprovalPolicyBody): Promise<ApprovalPolicy> {
    return this.s.workspace.setApprovalPolicy(body);
  }

  /** The current focus tags, in the order they were set. */
  @Get('focus-tags')
  public async getFocusTags(): Promise<FocusTagsResult> {
    return { tags: await this.s.workspace.focusTags() };
  }

  /**
   * Replaces the focus tags (at most 3). A different set (order ignored) starts a new focus shift;
   * the same set again changes nothing.
   */
  @Response<ErrorBody>('422', 'More than 3 tags (field `tags`) or a tag that is not lowercase-hyphen (field `tags[i]`); nothing changed')
  @Put('focus-tags')
  public async setFocusTags(@Body() body: FocusTagsBody): Promise<FocusTagsResult> {
    return { tags: await this.s.workspace.setFocusTags(body.tags) };
  }

  /**
   * Every focus shift that started in the window, newest first, with how long it held (the current
   * one until now; a shift on a later page still ends where its successor on an earlier page
   * starts). A shift that started before the window is left out, even when it is the current
   * focus: read the current tags from GET /workspace/focus-tags.
   * @param sinceDays the window: the last sinceDays workspace-timezone days, today included (1 = today)
   * @isInt sinceDays must be an integer
   * @param limit at most this many shifts per page, 1-200
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page, with the same sinceDays
   */
  @Get('focus-history')
  public async getFocusHistory(@Query() sinceDays = 90, @Query() limit = 30, @Query() cursor?: string): Promise<FocusHistory> {
    return this.s.workspace.focusHistory({ sinceDays, limit, cursor });
  }

  /** The stale-task auto-archive threshold; null (off) for a new workspace. */
  @Get('auto-archive-config')
  public async getAutoArchive(): Promise<AutoArchiveConfig> {
    return { staleTaskAutoArchiveDays: (await this.s.workspace.profile()).staleTaskAutoArchiveDays };
  }

  /** Sets the stale-task threshold (7-90 days) or turns it off (null). */
  @Put('auto-archive-config')
  public async setAutoArchive(@Body() body: AutoArchiveConfig): Promise<AutoArchiveConfig> {
    return this.s.workspace.setStaleTaskAutoArchiveDays(body.staleTaskAutoArchiveDays);
  }

  /** The stale-memory auto-archive threshold; null (off) for a new workspace. */
  @Get('memory-archive-config')
  public async getMemoryArchive(): Promise<MemoryArchiveConfig> {
    return { staleMemoryAutoArchiveDays: (await this.s.workspace.profile()).staleMemoryAutoArchiveDays };
  }

  /** Sets the stale-memory threshold (30-365 days) or turns it off (null). */
  @Put('memory-archive-config')
  public async setMemoryArchive(@Body() body: MemoryArchiveConfig): Promise<MemoryArchiveConfig> {
    return this.s.workspace.setStaleMemoryAutoArchiveDays(body.staleMemoryAutoArchiveDays);
  }

  /** What a per-task cost spike does: `none` alerts only, `pause` also pauses the task, null (not configured, the default) behaves like `none`. */
  @Get('cost-spike-config')
  public async getTaskSpike(): Promise<TaskCostSpikeConfig> {
    return { taskCostSpikeAction: (await this.s.workspace.profile()).taskCostSpikeAction };
  }

  /** Sets the per-task spike action. */
  @Put('cost-spike-config')
  public async setTaskSpike(@Body() body: TaskCostSpikeConfig): Promise<TaskCostSpikeConfig> {
    return this.s.workspace.setTaskCostSpikeAction(body.taskCostSpikeAction);
  }

  /** What a per-source cost spike does: `none` alerts only, `pause` also pauses the source, null (not configured, the default) behaves like `none`. */
  @Get('source-cost-spike-config')
  public async getSourceSpike(): Promise<SourceCostSpikeConfig> {
    return { sourceCostSpikeAction: (await this.s.workspace.profile()).sourceCostSpikeAction };
  }

  /** Sets the per-source spike action. */
  @Put('source-cost-spike-config')
  public async setSourceSpike(@Body() body: SourceCostSpikeConfig): Promise<SourceCostSpikeConfig> {
    return this.s.workspace.setSourceCostSpikeAction(body.sourceCostSpikeAction);
  }

  /** What a chronically spiking source does (same values as the spike actions), and after how many consecutive spike days (default 3). */
  @Get('source-chronic-spike-config')
  public async getSourceChronic(): Promise<SourceChronicSpikeConfig> {
    const p = await this.s.workspace.profile();
    return { sourceChronicSpikeAction: p.sourceChronicSpikeAction, thresholdDays: p.sourceChronicThresholdDays };
  }

  /** Sets the chronic action, and thresholdDays (2-14) when given; an omitted thresholdDays keeps the current one. */
  @Put('source-chronic-spike-config')
  public async setSourceChronic(@Body() body: SourceChronicSpikeBody): Promise<SourceChronicSpikeConfig> {
    return this.s.workspace.setSourceChronicSpike(body.sourceChronicSpikeAction, body.thresholdDays);
  }

  /** What a per-tag cost spike does: `none` alerts only, `pause` also pauses the tag's work, null (not configured, the default) behaves like `none`. */
  @Get('tag-cost-spike-config')
  public async getTagSpike(): Promise<TagCostSpikeConfig> {
    return { tagCostSpikeAction: (await this.s.workspace.profile()).tagCostSpikeAction };
  }

  /** Sets the per-tag spike action. */
  @Put('tag-cost-spike-config')
  public async setTagSpike(@Body() body: TagCostSpikeConfig): Promise<TagCostSpikeConfig> {
    return this.s.workspace.setTagCostSpikeAction(body.tagCostSpikeAction);
  }

  /**
   * Sets (integer US cents, 0-100000000) or removes (null) the daily AI cost cap; "daily" is the
   * workspace-timezone day. Not in the spec's table; implied by it. The plan-tier seed (free 50,
   * pro 500, team 2000) applies only when the workspace is created.
   */
  @Response<ErrorBody>('422', 'dailyCostCapUsdCents is not a whole number of cents from 0 to 100000000, or null; nothing changed')
  @Patch('cost-cap')
  public async setCostCap(@Body() body: CostCapBody): Promise<CostCapResult> {
    return this.s.workspace.setDailyCostCap(body.dailyCostCapUsdCents);
  }

  /**
   * Sets the workspace IANA timezone, which defines "today" and daily buckets from now on (stored
   * times are instants and do not move). Returns the profile.
   */
  @Response<ErrorBody>('422', 'timezone is not an IANA timezone name; nothing changed')
  @Patch('timezone')
  public async setTimezone(@Body() body: TimezoneBody): Promise<WorkspaceProfile> {
    return this.s.workspace.setTimezone(body.timezone);
  }

  /** Sets or removes (null) the address that receives the daily digest. Returns the profile. */
  @Response<ErrorBody>('422', 'digestEmail is not an email address; nothing changed')
  @Patch('digest-email')
  public async setDigestEmail(@Body() body: DigestEmailBody): Promise<WorkspaceProfile> {
    return this.s.workspace.setDigestEmail(body.digestEmail);
  }

  /**
   * Sets the plan tier: the loop floor and so the effective interval follow it; the requested
   * interval and the daily cost cap stay as they are. Returns the profile.
   */
  @Patch('plan')
  public async setPlan(@Body() body: PlanBody): Promise<WorkspaceProfile> {
    return this.s.workspace.setPlan(body.plan);
  }
}
