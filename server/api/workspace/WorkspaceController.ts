import { Body, Controller, Get, Patch, Put, Query, Route, Security, Tags } from '@tsoa/runtime';
import type { Plan } from '../../config';
import type {
  ApprovalPolicy,
  FocusShift,
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
   * When the desk resumes by itself: in the future and at most 14 days ahead. Setting it pauses
   * the loop now; null clears the schedule and turns the loop back on.
   * @example "2026-01-20T09:00:00Z"
   */
  pauseUntilAt: string | null;
}

export interface LoopIntervalBody {
  /**
   * Requested minutes between loop cycles; the plan floor (free 15, pro 5, team 1) is applied on top.
   * @isInt
   * @minimum 1
   * @maximum 1440
   */
  loopIntervalMinutes: number;
}

export interface LoopIntervalResult {
  loopIntervalMinutes: number;
  /** max(requested, plan floor): the interval the desk actually runs at. */
  effectiveLoopIntervalMinutes: number;
  planFloorMinutes: number;
  plan: Plan;
}

export interface ApprovalPolicyBody {
  /**
   * @isInt
   * @minimum 1
   * @maximum 168
   */
  watchHours: number;
  /**
   * Must be greater than watchHours.
   * @isInt
   * @minimum 2
   * @maximum 720
   */
  overdueHours: number;
}

export interface FocusTagsBody {
  /** At most 3 tags, each lowercase letters and digits joined by hyphens, e.g. `q3-launch`. */
  tags: string[];
}

export interface FocusTagsResult {
  tags: string[];
}

export interface FocusHistory {
  sinceDays: number;
  shifts: FocusShift[];
}

export interface AutoArchiveConfig {
  /**
   * Days without an update after which queued or in-progress tasks are archived; null = off.
   * @isInt
   * @minimum 7
   * @maximum 90
   */
  staleTaskAutoArchiveDays: number | null;
}

export interface MemoryArchiveConfig {
  /**
   * Days without retrieval after which memory entries are archived; null = off.
   * @isInt
   * @minimum 30
   * @maximum 365
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
   * @minimum 2
   * @maximum 14
   */
  thresholdDays?: number;
}

export interface SourceChronicSpikeConfig {
  sourceChronicSpikeAction: SpikeAction;
  /** Default 3. */
  thresholdDays: number;
}

export interface CostCapBody {
  /**
   * Daily AI spend cap in US cents; null removes the cap.
   * @isInt
   * @minimum 0
   * @maximum 100000000
   */
  dailyCostCapUsdCents: number | null;
}

export interface CostCapResult {
  dailyCostCapUsdCents: number | null;
}

export interface TimezoneBody {
  /** IANA timezone name; defines what "today" and daily buckets mean. @example "Europe/Berlin" */
  timezone: string;
}

export interface DigestEmailBody {
  /** Address that receives the daily digest; null removes it. */
  digestEmail: string | null;
}

export interface PlanBody {
  plan: Plan;
}

/** Workspace configuration. Every change is written to the activity log. */
@Route('api/v1/workspace')
@Tags('Workspace configuration')
@Security('bearer')
export class WorkspaceController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /** Workspace profile, with the effective loop interval after the plan floor. */
  @Get()
  public async getWorkspace(): Promise<WorkspaceProfile> {
    return this.s.workspace.profile();
  }

  /** Sets the desk state. Any manual state clears a scheduled pause. */
  @Patch('loop')
  public async setLoop(@Body() body: LoopStateBody): Promise<WorkspaceProfile> {
    return this.s.workspace.setLoopState(body.loopState);
  }

  /** Pauses the loop until a time at most 14 days ahead; the desk resumes by itself then. */
  @Patch('pause-until')
  public async setPauseUntil(@Body() body: PauseUntilBody): Promise<WorkspaceProfile> {
    return this.s.workspace.setPauseUntil(body.pauseUntilAt);
  }

  /** Sets the requested interval; returns it with the effective value after the plan floor. */
  @Patch('loop-interval')
  public async setLoopInterval(@Body() body: LoopIntervalBody): Promise<LoopIntervalResult> {
    return this.s.workspace.setLoopInterval(body.loopIntervalMinutes);
  }

  @Get('approval-policy')
  public async getApprovalPolicy(): Promise<ApprovalPolicy> {
    return this.s.workspace.approvalPolicy();
  }

  /** Presets: Fast 4/12, Daily 24/72 (default), Weekly 48/120. overdueHours must exceed watchHours. */
  @Patch('approval-policy')
  public async setApprovalPolicy(@Body() body: ApprovalPolicyBody): Promise<ApprovalPolicy> {
    return this.s.workspace.setApprovalPolicy(body);
  }

  @Get('focus-tags')
  public async getFocusTags(): Promise<FocusTagsResult> {
    return { tags: await this.s.workspace.focusTags() };
  }

  /** Replaces the focus tags (at most 3). A changed set starts a new focus shift. */
  @Put('focus-tags')
  public async setFocusTags(@Body() body: FocusTagsBody): Promise<FocusTagsResult> {
    return { tags: await this.s.workspace.setFocusTags(body.tags) };
  }

  /**
   * Every focus shift that started in the window, newest first, with its duration.
   * @param sinceDays window in days, 1-365
   * @param limit at most this many shifts, 1-200
   */
  @Get('focus-history')
  public async getFocusHistory(@Query() sinceDays = 90, @Query() limit = 30): Promise<FocusHistory> {
    return this.s.workspace.focusHistory(sinceDays, limit);
  }

  @Get('auto-archive-config')
  public async getAutoArchive(): Promise<AutoArchiveConfig> {
    return { staleTaskAutoArchiveDays: (await this.s.workspace.profile()).staleTaskAutoArchiveDays };
  }

  @Put('auto-archive-config')
  public async setAutoArchive(@Body() body: AutoArchiveConfig): Promise<AutoArchiveConfig> {
    return this.s.workspace.setStaleTaskAutoArchiveDays(body.staleTaskAutoArchiveDays);
  }

  @Get('memory-archive-config')
  public async getMemoryArchive(): Promise<MemoryArchiveConfig> {
    return { staleMemoryAutoArchiveDays: (await this.s.workspace.profile()).staleMemoryAutoArchiveDays };
  }

  @Put('memory-archive-config')
  public async setMemoryArchive(@Body() body: MemoryArchiveConfig): Promise<MemoryArchiveConfig> {
    return this.s.workspace.setStaleMemoryAutoArchiveDays(body.staleMemoryAutoArchiveDays);
  }

  @Get('cost-spike-config')
  public async getTaskSpike(): Promise<TaskCostSpikeConfig> {
    return { taskCostSpikeAction: (await this.s.workspace.profile()).taskCostSpikeAction };
  }

  @Put('cost-spike-config')
  public async setTaskSpike(@Body() body: TaskCostSpikeConfig): Promise<TaskCostSpikeConfig> {
    return this.s.workspace.setTaskCostSpikeAction(body.taskCostSpikeAction);
  }

  @Get('source-cost-spike-config')
  public async getSourceSpike(): Promise<SourceCostSpikeConfig> {
    return { sourceCostSpikeAction: (await this.s.workspace.profile()).sourceCostSpikeAction };
  }

  @Put('source-cost-spike-config')
  public async setSourceSpike(@Body() body: SourceCostSpikeConfig): Promise<SourceCostSpikeConfig> {
    return this.s.workspace.setSourceCostSpikeAction(body.sourceCostSpikeAction);
  }

  @Get('source-chronic-spike-config')
  public async getSourceChronic(): Promise<SourceChronicSpikeConfig> {
    const p = await this.s.workspace.profile();
    return { sourceChronicSpikeAction: p.sourceChronicSpikeAction, thresholdDays: p.sourceChronicThresholdDays };
  }

  @Put('source-chronic-spike-config')
  public async setSourceChronic(@Body() body: SourceChronicSpikeBody): Promise<SourceChronicSpikeConfig> {
    return this.s.workspace.setSourceChronicSpike(body.sourceChronicSpikeAction, body.thresholdDays);
  }

  @Get('tag-cost-spike-config')
  public async getTagSpike(): Promise<TagCostSpikeConfig> {
    return { tagCostSpikeAction: (await this.s.workspace.profile()).tagCostSpikeAction };
  }

  @Put('tag-cost-spike-config')
  public async setTagSpike(@Body() body: TagCostSpikeConfig): Promise<TagCostSpikeConfig> {
    return this.s.workspace.setTagCostSpikeAction(body.tagCostSpikeAction);
  }

  /** Sets (integer US cents) or removes (null) the daily AI cost cap. Not in the spec's table; implied by it. */
  @Patch('cost-cap')
  public async setCostCap(@Body() body: CostCapBody): Promise<CostCapResult> {
    return this.s.workspace.setDailyCostCap(body.dailyCostCapUsdCents);
  }

  /** Sets the workspace IANA timezone. */
  @Patch('timezone')
  public async setTimezone(@Body() body: TimezoneBody): Promise<WorkspaceProfile> {
    return this.s.workspace.setTimezone(body.timezone);
  }

  /** Sets or removes the address that receives the daily digest. */
  @Patch('digest-email')
  public async setDigestEmail(@Body() body: DigestEmailBody): Promise<WorkspaceProfile> {
    return this.s.workspace.setDigestEmail(body.digestEmail);
  }

  /** Sets the plan tier; the loop floor follows it, the cost cap stays as the operator set it. */
  @Patch('plan')
  public async setPlan(@Body() body: PlanBody): Promise<WorkspaceProfile> {
    return this.s.workspace.setPlan(body.plan);
  }
}
