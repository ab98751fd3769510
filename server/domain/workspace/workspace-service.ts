import { inTransaction } from '../../../db/transactions';
import crypto from 'node:crypto';
import type { Updateable } from 'kysely';
import type { Db } from '../../../db/connection';
import type { WorkspaceTable } from '../../../db/schema';
import type { Plan } from '../../config';
import { DAY_MS, type Clock } from '../../core/clock';
import { newId } from '../../core/ids';
import { invalid } from '../../core/errors';
import type { ActivityKind } from '../catalog/activity-kinds';
import { recordActivity, SYSTEM_ACTOR, type Actor } from '../activity/activity';
import {
  DEFAULT_APPROVAL_POLICY,
  DEFAULT_LOOP_INTERVAL_MINUTES,
  DEFAULT_SOURCE_CHRONIC_THRESHOLD_DAYS,
  PLAN_DEFAULT_DAILY_COST_CAP_CENTS,
  PLAN_LOOP_FLOOR_MINUTES,
  checkApprovalPolicy,
  checkChronicThresholdDays,
  checkDailyCostCap,
  checkEmail,
  checkLoopInterval,
  checkRange,
  checkScheduledPause,
  checkStaleMemoryDays,
  checkStaleTaskDays,
  checkTimezone,
  effectiveLoopInterval,
  normaliseFocusTags,
} from './rules';

/** `on` runs cycles; `paused` holds them (by hand, or until `pauseUntilAt`); `off` stops them until turned on. */
export type LoopState = 'on' | 'paused' | 'off';
/**
 * What a cost spike does besides raising its alert: `none` alerts only, `pause` also pauses the
 * spender until the spike is acknowledged. null means not configured, which behaves like `none`
 * (the value of a new workspace).
 */
export type SpikeAction = 'none' | 'pause' | null;

export interface ApprovalPolicy {
  /**
   * Hours after its ready time at which a waiting output is labelled "watch".
   * @isInt
   */
  watchHours: number;
  /**
   * Hours after its ready time at which a waiting output is labelled "overdue".
   * @isInt
   */
  overdueHours: number;
}

/**
 * The workspace profile as the API shows it (the spec leaves its field list open; this is Desk's).
 * The ingest token is a secret and is not part of it.
 */
export interface WorkspaceProfile {
  id: string;
  /** Display name; "My desk" on creation. */
  name: string;
  /** Seeded from DESK_PLAN on creation (default free). */
  plan: Plan;
  /** IANA name; defines "today" and daily buckets. Seeded from DESK_TIMEZONE (default the machine's). */
  timezone: string;
  /** The first member, created with the workspace; acts for API calls that name no user. */
  ownerUserId: string;
  /** `on` for a new workspace. */
  loopState: LoopState;
  /**
   * When a scheduled pause ends and the desk resumes by itself; null when none is scheduled.
   * @format date-time
   */
  pauseUntilAt: string | null;
  /**
   * Requested minutes between loop cycles (30 for a new workspace).
   * @isInt
   */
  loopIntervalMinutes: number;
  /**
   * max(loopIntervalMinutes, planFloorMinutes): what the desk actually runs at.
   * @isInt
   */
  effectiveLoopIntervalMinutes: number;
  /**
   * Shortest interval of the plan: free 15, pro 5, team 1.
   * @isInt
   */
  planFloorMinutes: number;
  /** Watch 24 h, overdue 72 h for a new workspace (the Daily preset). */
  approvalPolicy: ApprovalPolicy;
  /** At most 3 lowercase-hyphen tags; none for a new workspace. */
  focusTags: string[];
  /**
   * 7-90 days, or null (off, the default).
   * @isInt
   */
  staleTaskAutoArchiveDays: number | null;
  /**
   * 30-365 days, or null (off, the default).
   * @isInt
   */
  staleMemoryAutoArchiveDays: number | null;
  taskCostSpikeAction: SpikeAction;
  sourceCostSpikeAction: SpikeAction;
  sourceChronicSpikeAction: SpikeAction;
  /**
   * Consecutive spike days before a source counts as chronic: 2-14, default 3.
   * @isInt
   */
  sourceChronicThresholdDays: number;
  tagCostSpikeAction: SpikeAction;
  /**
   * Daily AI spend cap in US cents; null = no cap. Seeded by plan on creation: free 50, pro 500, team 2000.
   * @isInt
   */
  dailyCostCapUsdCents: number | null;
  /** Where the daily digest goes; null (none) for a new workspace. */
  digestEmail: string | null;
  /** @format date-time */
  createdAt: string;
  /**
   * Time of the last change that changed something (a repeat of the current value does not count).
   * @format date-time
   */
  updatedAt: string;
}

export interface FocusShift {
  id: string;
  /** The focus tags set by this shift; empty when the focus was cleared. */
  tags: string[];
  /** @format date-time */
  startedAt: string;
  /**
   * When the next shift replaced it; null for the current focus.
   * @format date-time
   */
  endedAt: string | null;
  /**
   * Whole minutes the focus held (until now for the current one).
   * @isInt
   */
  durationMinutes: number;
  current: boolean;
}

export interface WorkspaceSeed {
  ingestToken?: string;
  plan: Plan;
  timezone: string;
}

function toProfile(row: WorkspaceTable): WorkspaceProfile {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    timezone: row.timezone,
    ownerUserId: row.ownerUserId,
    loopState: row.loopState,
    pauseUntilAt: row.pauseUntilAt,
    loopIntervalMinutes: row.loopIntervalMinutes,
    effectiveLoopIntervalMinutes: effectiveLoopInterval(row.loopIntervalMinutes, row.plan),
    planFloorMinutes: PLAN_LOOP_FLOOR_MINUTES[row.plan],
    approvalPolicy: { watchHours: row.watchHours, overdueHours: row.overdueHours },
    focusTags: JSON.parse(row.focusTags) as string[],
    staleTaskAutoArchiveDays: row.staleTaskAutoArchiveDays,
    staleMemoryAutoArchiveDays: row.staleMemoryAutoArchiveDays,
    taskCostSpikeAction: row.taskCostSpikeAction,
    sourceCostSpikeAction: row.sourceCostSpikeAction,
    sourceChronicSpikeAction: row.sourceChronicSpikeAction,
    sourceChronicThresholdDays: row.sourceChronicThresholdDays,
    tagCostSpikeAction: row.tagCostSpikeAction,
    dailyCostCapUsdCents: row.dailyCostCapUsdCents,
    digestEmail: row.digestEmail,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const describe = (v: unknown) => (v === null ? 'off' : String(v));

/** Workspace configuration: one row, every change logged in the same transaction. */
export class WorkspaceService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /**
   * Creates the workspace on first start: token, plan, timezone, owner, default cost cap.
   * An existing workspace is returned untouched, whatever the seed says.
   */
  async ensureCreated(seed: WorkspaceSeed): Promise<{ created: boolean; ingestToken: string }> {
    return inTransaction(this.db, async (trx) => {
      const existing = await trx.selectFrom('workspace').select('ingestToken').executeTakeFirst();
      if (existing) return { created: false, ingestToken: existing.ingestToken };
      const now = this.clock.now().toISOString();
      const ownerId = newId('usr', this.clock);
      const ingestToken = seed.ingestToken ?? crypto.randomBytes(32).toString('base64url');
      const timezone = checkTimezone(seed.timezone);
      await trx.insertInto('users').values({ id: ownerId, name: 'Owner', email: null, role: 'owner', createdAt: now }).execute();
      await trx
        .insertInto('workspace')
        .values({
          id: newId('wsp', this.clock),
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
          createdAt: now,
          updatedAt: now,
        })
        .execute();
      await recordActivity(trx, this.clock, {
        kind: 'workspace.created',
        detail: `Workspace created on the ${seed.plan} plan (${timezone}), daily cost cap ${PLAN_DEFAULT_DAILY_COST_CAP_CENTS[seed.plan]} cents`,
        actor: SYSTEM_ACTOR,
        entityType: 'workspace',
      });
      return { created: true, ingestToken };
    });
  }

  private async row(db: Db = this.db): Promise<WorkspaceTable> {
    return db.selectFrom('workspace').selectAll().executeTakeFirstOrThrow();
  }

  async profile(): Promise<WorkspaceProfile> {
    return toProfile(await this.row());
  }

  async ingestToken(): Promise<string> {
    return (await this.row()).ingestToken;
  }

  async ownerActor(): Promise<Actor> {
    const row = await this.db
      .selectFrom('workspace')
      .innerJoin('users', 'users.id', 'workspace.ownerUserId')
      .select(['users.id', 'users.name'])
      .executeTakeFirstOrThrow();
    return { userId: row.id, label: row.name };
  }

  /**
   * Applies a change to the row and logs it, in one transaction. Skips the log (and `extra`) when
   * nothing changed, judged inside the transaction so concurrent identical requests count once.
   */
  private async update(
    changes: Updateable<WorkspaceTable>,
    activity: { kind: ActivityKind; detail: string; actor?: Actor },
    extra?: (trx: Db, before: WorkspaceTable) => Promise<void>,
  ): Promise<WorkspaceProfile> {
    const actor = activity.actor ?? (await this.ownerActor());
    return inTransaction(this.db, async (trx) => {
      const before = await this.row(trx);
      const changed = Object.entries(changes).some(([k, v]) => before[k as keyof WorkspaceTable] !== v);
      if (changed) {
        await trx.updateTable('workspace').set({ ...changes, updatedAt: this.clock.now().toISOString() }).execute();
        await recordActivity(trx, this.clock, { kind: activity.kind, detail: activity.detail, actor, entityType: 'workspace', entityId: before.id });
        await extra?.(trx, before);
      }
      return toProfile(await this.row(trx));
    });
  }

  /** A manual state always wins over a scheduled pause, so it clears the schedule. */
  setLoopState(loopState: LoopState): Promise<WorkspaceProfile> {
    return this.update({ loopState, pauseUntilAt: null }, { kind: 'workspace.loop_state', detail: `Loop set to ${loopState}` });
  }

  /** Pausing until a time pauses the loop now; null clears the schedule and turns the loop back on. */
  async setPauseUntil(pauseUntilAt: string | null): Promise<WorkspaceProfile> {
    if (pauseUntilAt === null) {
      const current = await this.row();
      if (current.pauseUntilAt === null) return toProfile(current);
      return this.update({ pauseUntilAt: null, loopState: 'on' }, { kind: 'workspace.pause_cleared', detail: 'Scheduled pause cleared; loop on' });
    }
    const at = checkScheduledPause('pauseUntilAt', pauseUntilAt, this.clock.now(), (await this.row()).timezone);
    return this.update({ pauseUntilAt: at, loopState: 'paused' }, { kind: 'workspace.pause_scheduled', detail: `Loop paused until ${at}` });
  }

  /**
   * Scheduler job: resumes the loop once a scheduled pause has run out. Decided inside the
   * transaction, so a new pause the operator sets meanwhile is never wiped.
   */
  async resumeIfPauseExpired(): Promise<boolean> {
    const now = this.clock.now();
    return inTransaction(this.db, async (trx) => {
      const row = await this.row(trx);
      if (row.pauseUntilAt === null || new Date(row.pauseUntilAt).getTime() > now.getTime()) return false;
      await trx.updateTable('workspace').set({ pauseUntilAt: null, loopState: 'on', updatedAt: now.toISOString() }).execute();
      await recordActivity(trx, this.clock, {
        kind: 'workspace.pause_expired',
        detail: `Scheduled pause until ${row.pauseUntilAt} ended; loop resumed`,
        actor: SYSTEM_ACTOR,
        entityType: 'workspace',
        entityId: row.id,
      });
      return true;
    });
  }

  async setLoopInterval(minutes: number) {
    checkLoopInterval(minutes);
    const p = await this.update(
      { loopIntervalMinutes: minutes },
      { kind: 'workspace.loop_interval', detail: `Loop interval set to ${minutes} minutes` },
    );
    return {
      loopIntervalMinutes: p.loopIntervalMinutes,
      effectiveLoopIntervalMinutes: p.effectiveLoopIntervalMinutes,
      planFloorMinutes: p.planFloorMinutes,
      plan: p.plan,
    };
  }

  async approvalPolicy(): Promise<ApprovalPolicy> {
    return (await this.profile()).approvalPolicy;
  }

  async setApprovalPolicy(policy: ApprovalPolicy): Promise<ApprovalPolicy> {
    checkApprovalPolicy(policy.watchHours, policy.overdueHours);
    const p = await this.update(
      { watchHours: policy.watchHours, overdueHours: policy.overdueHours },
      { kind: 'workspace.approval_policy', detail: `Approval policy set to watch ${policy.watchHours}h, overdue ${policy.overdueHours}h` },
    );
    return p.approvalPolicy;
  }

  async focusTags(): Promise<string[]> {
    return (await this.profile()).focusTags;
  }

  /** Replaces the tags; a different set starts a new focus shift. */
  async setFocusTags(tags: string[]): Promise<string[]> {
    const next = normaliseFocusTags(tags);
    const before = await this.focusTags();
    const same = before.length === next.length && before.every((t) => next.includes(t));
    if (same) return before;
    const p = await this.update(
      { focusTags: JSON.stringify(next) },
      { kind: 'workspace.focus_tags', detail: next.length ? `Focus set to ${next.join(', ')}` : 'Focus cleared' },
      async (trx) => {
        await trx
          .insertInto('focusShifts')
          .values({ id: newId('fcs', this.clock), tags: JSON.stringify(next), startedAt: this.clock.now().toISOString() })
          .execute();
      },
    );
    return p.focusTags;
  }

  /** Focus shifts that started within the window, newest first, each with how long it held. */
  async focusHistory(sinceDays: number, limit: number): Promise<{ sinceDays: number; shifts: FocusShift[] }> {
    checkRange('sinceDays', sinceDays, 1, 365);
    checkRange('limit', limit, 1, 200);
    const now = this.clock.now();
    const since = new Date(now.getTime() - sinceDays * DAY_MS).toISOString();
    const rows = await this.db
      .selectFrom('focusShifts')
      .selectAll()
      .where('startedAt', '>=', since)
      .orderBy('startedAt', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    const latest = await this.db.selectFrom('focusShifts').select('id').orderBy('startedAt', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
    let nextStart: string | null = null;
    const shifts = rows.map((row, i) => {
      // rows are newest first: the shift before this one in the list is the one that replaced it
      const endedAt = i === 0 && row.id === latest?.id ? null : (nextStart ?? null);
      const end = endedAt ? new Date(endedAt) : now;
      nextStart = row.startedAt;
      return {
        id: row.id,
        tags: JSON.parse(row.tags) as string[],
        startedAt: row.startedAt,
        endedAt,
        durationMinutes: Math.max(0, Math.floor((end.getTime() - new Date(row.startedAt).getTime()) / 60_000)),
        current: endedAt === null,
      };
    });
    return { sinceDays, shifts };
  }

  async setStaleTaskAutoArchiveDays(days: number | null) {
    checkStaleTaskDays(days);
    const p = await this.update(
      { staleTaskAutoArchiveDays: days },
      { kind: 'workspace.auto_archive', detail: `Stale-task auto-archive set to ${describe(days)}${days ? ' days' : ''}` },
    );
    return { staleTaskAutoArchiveDays: p.staleTaskAutoArchiveDays };
  }

  async setStaleMemoryAutoArchiveDays(days: number | null) {
    checkStaleMemoryDays(days);
    const p = await this.update(
      { staleMemoryAutoArchiveDays: days },
      { kind: 'workspace.memory_archive', detail: `Stale-memory auto-archive set to ${describe(days)}${days ? ' days' : ''}` },
    );
    return { staleMemoryAutoArchiveDays: p.staleMemoryAutoArchiveDays };
  }

  async setTaskCostSpikeAction(action: SpikeAction) {
    const p = await this.update({ taskCostSpikeAction: action }, { kind: 'workspace.cost_spike_config', detail: `Task cost-spike action set to ${describe(action)}` });
    return { taskCostSpikeAction: p.taskCostSpikeAction };
  }

  async setSourceCostSpikeAction(action: SpikeAction) {
    const p = await this.update({ sourceCostSpikeAction: action }, { kind: 'workspace.source_cost_spike_config', detail: `Source cost-spike action set to ${describe(action)}` });
    return { sourceCostSpikeAction: p.sourceCostSpikeAction };
  }

  async setSourceChronicSpike(action: SpikeAction, thresholdDays?: number) {
    if (thresholdDays !== undefined) checkChronicThresholdDays(thresholdDays);
    const current = await this.row();
    const days = thresholdDays ?? current.sourceChronicThresholdDays;
    const p = await this.update(
      { sourceChronicSpikeAction: action, sourceChronicThresholdDays: days },
      { kind: 'workspace.source_chronic_spike_config', detail: `Source chronic-spike action set to ${describe(action)} after ${days} days` },
    );
    return { sourceChronicSpikeAction: p.sourceChronicSpikeAction, thresholdDays: p.sourceChronicThresholdDays };
  }

  async setTagCostSpikeAction(action: SpikeAction) {
    const p = await this.update({ tagCostSpikeAction: action }, { kind: 'workspace.tag_cost_spike_config', detail: `Tag cost-spike action set to ${describe(action)}` });
    return { tagCostSpikeAction: p.tagCostSpikeAction };
  }

  async setDailyCostCap(cents: number | null) {
    checkDailyCostCap(cents);
    const p = await this.update(
      { dailyCostCapUsdCents: cents },
      { kind: 'workspace.cost_cap', detail: cents === null ? 'Daily cost cap removed' : `Daily cost cap set to ${cents} cents` },
    );
    return { dailyCostCapUsdCents: p.dailyCostCapUsdCents };
  }

  async setTimezone(timezone: string): Promise<WorkspaceProfile> {
    const zone = checkTimezone(timezone);
    return this.update({ timezone: zone }, { kind: 'workspace.timezone', detail: `Timezone set to ${zone}` });
  }

  async setDigestEmail(email: string | null): Promise<WorkspaceProfile> {
    const value = email === null ? null : email.trim();
    if (value !== null) checkEmail('digestEmail', value);
    return this.update({ digestEmail: value }, { kind: 'workspace.digest_email', detail: value ? `Digest email set to ${value}` : 'Digest email removed' });
  }

  /** Changing plan moves the loop floor; the cost cap stays the operator's (the seed is for creation only). */
  async setPlan(plan: Plan): Promise<WorkspaceProfile> {
    if (!['free', 'pro', 'team'].includes(plan)) throw invalid('plan', 'must be free, pro or team');
    return this.update({ plan }, { kind: 'workspace.plan', detail: `Plan set to ${plan}` });
  }

  async relayUrl(): Promise<string | null> {
    return (await this.row()).relayUrl;
  }

  async setRelayUrl(url: string | null): Promise<string | null> {
    const p = await this.update({ relayUrl: url }, { kind: 'workspace.relay_url', detail: url ? 'Relay channel set' : 'Relay channel removed' });
    void p;
    return (await this.row()).relayUrl;
  }
}
