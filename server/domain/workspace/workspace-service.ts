import crypto from 'node:crypto';
import { centsText } from '../../core/plural';
import type { Db } from '../../../db/connection';
import { inTransaction } from '../../../db/transactions';
import type { Plan } from '../../config';
import type { Clock } from '../../core/clock';
import { newId } from '../../core/ids';
import { recordActivity, SYSTEM_ACTOR } from '../activity/activity';
import { emit } from '../events/outbox';
import { insertUsers } from '../members/member-store';
import { resolveActor } from '../members/resolve-actor';
import { focusHistory, focusTags, setFocusTags, type FocusHistory, type FocusHistoryQuery } from './focus';
import { resumeIfPauseExpired, setLoopState, setPauseUntil } from './loop-state';
import {
  DEFAULT_APPROVAL_POLICY,
  DEFAULT_LOOP_INTERVAL_MINUTES,
  DEFAULT_SOURCE_CHRONIC_THRESHOLD_DAYS,
  PLAN_DEFAULT_DAILY_COST_CAP_CENTS,
  checkApprovalPolicy,
  checkChronicThresholdDays,
  checkDailyCostCap,
  checkEmail,
  checkLoopInterval,
  checkPlan,
  checkSpikeAction,
  checkStaleMemoryDays,
  checkStaleTaskDays,
  checkTimezone,
  type LoopState,
  type SpikeAction,
} from './rules';
import { changeWorkspace, insertWorkspaceRow, readWorkspace, toProfile, updateWorkspaceRow, type ApprovalPolicy, type WorkspaceContext, type WorkspaceProfile } from './workspace-store';

// The area's public types, where controllers and other areas import them from.
export type { FocusHistory, FocusShift } from './focus';
export type { LoopState, SpikeAction } from './rules';
export type { ApprovalPolicy, WorkspaceProfile } from './workspace-store';

export interface WorkspaceSeed {
  ingestToken?: string;
  plan: Plan;
  timezone: string;
}

const describe = (v: unknown) => (v === null ? 'off' : String(v));

/**
 * Workspace configuration: one row, every change logged (and its events queued) in the same
 * transaction. The loop state machine lives in loop-state.ts, focus tags and history in focus.ts;
 * this class is the area's entry point and holds creation and the plain settings.
 */
export class WorkspaceService {
  private readonly ctx: WorkspaceContext;
  private readonly tokenListeners: ((token: string) => void)[] = [];

  constructor(
    private readonly db: Db,
    clock: Clock,
  ) {
    this.ctx = { db, clock };
  }

  /**
   * Creates the workspace on first start: token, plan, timezone, owner, default cost cap.
   * An existing workspace is returned untouched, whatever the seed says.
   */
  async ensureCreated(seed: WorkspaceSeed): Promise<{ created: boolean; ingestToken: string }> {
    const { clock } = this.ctx;
    return inTransaction(this.db, async (trx) => {
      const existing = await trx.selectFrom('workspace').select('ingestToken').executeTakeFirst();
      if (existing) return { created: false, ingestToken: existing.ingestToken };
      const now = clock.now().toISOString();
      const ownerId = newId('usr', clock);
      const ingestToken = seed.ingestToken ?? crypto.randomBytes(32).toString('base64url');
      const timezone = checkTimezone(seed.timezone);
      await insertUsers(trx, [{ id: ownerId, name: 'Owner', email: null, role: 'owner', createdAt: now }]);
      await insertWorkspaceRow(trx, {
        id: newId('wsp', clock),
        name: 'My desk',
        ownerUserId: ownerId,
        ingestToken,
        plan: seed.plan,
        timezone,
        loopState: 'on',
        pauseUntilAt: null,
        loopIntervalMinutes: DEFAULT_LOOP_INTERVAL_MINUTES,
        watchHours: DEFAULT_APPROVAL_POLICY.watchHours,
        overdueHours: DEFAULT_APPROVAL_POLICY.overdueHours,
        focusTags: '[]',
        staleTaskAutoArchiveDays: null,
        staleMemoryAutoArchiveDays: null,
        taskCostSpikeAction: null,
        sourceCostSpikeAction: null,
        sourceChronicSpikeAction: null,
        sourceChronicThresholdDays: DEFAULT_SOURCE_CHRONIC_THRESHOLD_DAYS,
        tagCostSpikeAction: null,
        dailyCostCapUsdCents: PLAN_DEFAULT_DAILY_COST_CAP_CENTS[seed.plan],
        digestEmail: null,
        relayUrl: null,
        engine: 'local',
        engineModel: null,
        engineBaseUrl: null,
        costCapAnnouncedDay: null,
        engineInputPrice: null,
        engineOutputPrice: null,
        engineStructuredOutput: null,
        loopPauseReason: null,
        createdAt: now,
        updatedAt: now,
      });
      await recordActivity(trx, clock, {
        kind: 'workspace.created',
        detail: `Workspace created on the ${seed.plan} plan (${timezone}), daily cost cap ${centsText(PLAN_DEFAULT_DAILY_COST_CAP_CENTS[seed.plan])}`,
        actor: SYSTEM_ACTOR,
        entityType: 'workspace',
      });
      return { created: true, ingestToken };
    });
  }

  /** Called with the new token right after a rotation commits (start.ts: auth, webhook, log scrubber). */
  onTokenRotated(listener: (token: string) => void): void {
    this.tokenListeners.push(listener);
  }

  /**
   * A new 256-bit workspace token, in one transaction with its activity row and event (neither
   * holds a token). Once it commits the listeners switch the running desk over: the old bearer
   * token and the old webhook URL stop working at once. Scoped ingest URLs are not affected.
   */
  async rotateToken(): Promise<{ token: string; rotatedAt: string }> {
    const { clock } = this.ctx;
    const token = crypto.randomBytes(32).toString('base64url');
    const rotatedAt = clock.now().toISOString();
    await inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx);
      await updateWorkspaceRow(trx, { ingestToken: token, updatedAt: rotatedAt });
      await recordActivity(trx, clock, {
        kind: 'workspace.token_rotated',
        detail: 'Workspace token rotated: the old bearer token and webhook URL no longer work',
        actor,
        entityType: 'workspace',
      });
      await emit(trx, clock, 'workspace.token_rotated', { rotatedAt });
    });
    for (const listener of this.tokenListeners) listener(token);
    return { token, rotatedAt };
  }

  /** Not async: GET /workspace is a hot path, and each async frame over the cached row costs promise ticks. */
  profile(): Promise<WorkspaceProfile> {
    return readWorkspace(this.db).then(toProfile);
  }

  // --- the loop (loop-state.ts) ---

  setLoopState(loopState: LoopState): Promise<WorkspaceProfile> {
    return setLoopState(this.ctx, loopState);
  }

  setPauseUntil(pauseUntilAt: string | null): Promise<WorkspaceProfile> {
    return setPauseUntil(this.ctx, pauseUntilAt);
  }

  /** Scheduler job: resumes the loop once a scheduled pause has run out. */
  resumeIfPauseExpired(): Promise<boolean> {
    return resumeIfPauseExpired(this.ctx);
  }

  async setLoopInterval(minutes: number) {
    checkLoopInterval(minutes);
    const p = await changeWorkspace(this.ctx, { loopIntervalMinutes: minutes }, { kind: 'workspace.loop_interval', detail: `Loop interval set to ${minutes} minutes` });
    return {
      loopIntervalMinutes: p.loopIntervalMinutes,
      effectiveLoopIntervalMinutes: p.effectiveLoopIntervalMinutes,
      planFloorMinutes: p.planFloorMinutes,
      plan: p.plan,
    };
  }

  // --- focus (focus.ts) ---

  focusTags(): Promise<string[]> {
    return focusTags(this.ctx);
  }

  setFocusTags(tags: string[]): Promise<string[]> {
    return setFocusTags(this.ctx, tags);
  }

  focusHistory(query: FocusHistoryQuery = {}): Promise<FocusHistory> {
    return focusHistory(this.ctx, query);
  }

  // --- settings ---

  async approvalPolicy(): Promise<ApprovalPolicy> {
    return (await this.profile()).approvalPolicy;
  }

  async setApprovalPolicy(policy: ApprovalPolicy): Promise<ApprovalPolicy> {
    checkApprovalPolicy(policy.watchHours, policy.overdueHours);
    const p = await changeWorkspace(
      this.ctx,
      { watchHours: policy.watchHours, overdueHours: policy.overdueHours },
      { kind: 'workspace.approval_policy', detail: `Approval policy set to watch ${policy.watchHours}h, overdue ${policy.overdueHours}h` },
    );
    return p.approvalPolicy;
  }

  async setStaleTaskAutoArchiveDays(days: number | null) {
    checkStaleTaskDays(days);
    const p = await changeWorkspace(
      this.ctx,
      { staleTaskAutoArchiveDays: days },
      { kind: 'workspace.auto_archive', detail: `Stale-task auto-archive set to ${describe(days)}${days ? ' days' : ''}` },
    );
    return { staleTaskAutoArchiveDays: p.staleTaskAutoArchiveDays };
  }

  async setStaleMemoryAutoArchiveDays(days: number | null) {
    checkStaleMemoryDays(days);
    const p = await changeWorkspace(
      this.ctx,
      { staleMemoryAutoArchiveDays: days },
      { kind: 'workspace.memory_archive', detail: `Stale-memory auto-archive set to ${describe(days)}${days ? ' days' : ''}` },
    );
    return { staleMemoryAutoArchiveDays: p.staleMemoryAutoArchiveDays };
  }

  async setTaskCostSpikeAction(action: SpikeAction) {
    checkSpikeAction('taskCostSpikeAction', action);
    const p = await changeWorkspace(this.ctx, { taskCostSpikeAction: action }, { kind: 'workspace.cost_spike_config', detail: `Task cost-spike action set to ${describe(action)}` });
    return { taskCostSpikeAction: p.taskCostSpikeAction };
  }

  async setSourceCostSpikeAction(action: SpikeAction) {
    checkSpikeAction('sourceCostSpikeAction', action);
    const p = await changeWorkspace(
      this.ctx,
      { sourceCostSpikeAction: action },
      { kind: 'workspace.source_cost_spike_config', detail: `Source cost-spike action set to ${describe(action)}` },
    );
    return { sourceCostSpikeAction: p.sourceCostSpikeAction };
  }

  /** An omitted thresholdDays keeps the current one (read in the transaction of the change). */
  async setSourceChronicSpike(action: SpikeAction, thresholdDays?: number) {
    checkSpikeAction('sourceChronicSpikeAction', action);
    if (thresholdDays !== undefined) checkChronicThresholdDays(thresholdDays);
    const p = await inTransaction(this.db, async (trx) => {
      const days = thresholdDays ?? (await readWorkspace(trx)).sourceChronicThresholdDays;
      return changeWorkspace(
        this.ctx,
        { sourceChronicSpikeAction: action, sourceChronicThresholdDays: days },
        { kind: 'workspace.source_chronic_spike_config', detail: `Source chronic-spike action set to ${describe(action)} after ${days} days` },
      );
    });
    return { sourceChronicSpikeAction: p.sourceChronicSpikeAction, thresholdDays: p.sourceChronicThresholdDays };
  }

  async setTagCostSpikeAction(action: SpikeAction) {
    checkSpikeAction('tagCostSpikeAction', action);
    const p = await changeWorkspace(this.ctx, { tagCostSpikeAction: action }, { kind: 'workspace.tag_cost_spike_config', detail: `Tag cost-spike action set to ${describe(action)}` });
    return { tagCostSpikeAction: p.tagCostSpikeAction };
  }

  /** Emits `workspace.cost_cap_changed`: spend-watching subscribers follow the cap. */
  async setDailyCostCap(cents: number | null) {
    checkDailyCostCap(cents);
    const p = await changeWorkspace(
      this.ctx,
      { dailyCostCapUsdCents: cents },
      { kind: 'workspace.cost_cap', detail: cents === null ? 'Daily cost cap removed' : `Daily cost cap set to ${centsText(cents)}` },
      async (trx, before, after) => {
        await emit(trx, this.ctx.clock, 'workspace.cost_cap_changed', {
          dailyCostCapUsdCents: after.dailyCostCapUsdCents,
          previousDailyCostCapUsdCents: before.dailyCostCapUsdCents,
        });
      },
    );
    return { dailyCostCapUsdCents: p.dailyCostCapUsdCents };
  }

  async setTimezone(timezone: string): Promise<WorkspaceProfile> {
    const zone = checkTimezone(timezone);
    return changeWorkspace(this.ctx, { timezone: zone }, { kind: 'workspace.timezone', detail: `Timezone set to ${zone}` });
  }

  async setDigestEmail(email: string | null): Promise<WorkspaceProfile> {
    const value = email === null ? null : email.trim();
    if (value !== null) checkEmail('digestEmail', value);
    return changeWorkspace(this.ctx, { digestEmail: value }, { kind: 'workspace.digest_email', detail: value ? `Digest email set to ${value}` : 'Digest email removed' });
  }

  /** Changing plan moves the loop floor; the cost cap stays the operator's (the seed is for creation only). */
  async setPlan(plan: Plan): Promise<WorkspaceProfile> {
    checkPlan(plan);
    return changeWorkspace(this.ctx, { plan }, { kind: 'workspace.plan', detail: `Plan set to ${plan}` });
  }

  async relayUrl(): Promise<string | null> {
    return (await readWorkspace(this.db)).relayUrl;
  }

  async setRelayUrl(url: string | null): Promise<string | null> {
    await changeWorkspace(this.ctx, { relayUrl: url }, { kind: 'workspace.relay_url', detail: url ? 'Relay channel set' : 'Relay channel removed' });
    return this.relayUrl();
  }
}
