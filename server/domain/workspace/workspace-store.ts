import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../../db/connection';
import type { FocusShiftTable, WorkspaceTable } from '../../../db/schema';
import { tableCache } from '../../../db/table-cache';
import { inTransaction, type Trx } from '../../../db/transactions';
import type { Plan, StructuredOutputMode } from '../../core/vocabulary';
import type { Clock } from '../../core/clock';
import { recordActivity, type Actor } from '../activity/activity';
import type { ActivityKind } from '../catalog/activity-kinds';
import { resolveActor } from '../members/resolve-actor';
import { PLAN_LOOP_FLOOR_MINUTES, effectiveLoopInterval, type LoopState, type SpikeAction } from './rules';

/**
 * The workspace row: its API view and the one way to change it (change + activity row + events in
 * one transaction). The loop, focus and settings modules all change the row through `changeWorkspace`.
 */

export interface WorkspaceContext {
  db: Db;
  clock: Clock;
}

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

export function toProfile(row: WorkspaceTable): WorkspaceProfile {
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

/**
 * The committed workspace row, kept between requests (every API call reads it: GET /workspace,
 * timezones, the plan) until a committed write to the `workspace` table, through changeWorkspace
 * or any other path (db/table-cache.ts: inside a transaction it is always read, so a transaction
 * sees its own change and nothing uncommitted is ever kept). Callers get copies.
 */
const rowCacheOf = (db: Db) => tableCache<'row', WorkspaceTable>(db, 'workspace.row', ['workspace']);
const copyRow = (row: WorkspaceTable): WorkspaceTable => ({ ...row });

/** The one workspace row (reads join an open transaction). */
export function readWorkspace(db: Db): Promise<WorkspaceTable> {
  const cache = rowCacheOf(db);
  const kept = cache?.get('row');
  if (kept !== undefined) return Promise.resolve({ ...kept });
  // The loader is an unnamed argument: a named per-call closure costs a defineProperty under tsx (keepNames).
  return cache === null ? loadWorkspace(db) : cache.load('row', () => loadWorkspace(db), copyRow);
}

const loadWorkspace = (db: Db): Promise<WorkspaceTable> => db.selectFrom('workspace').selectAll().executeTakeFirstOrThrow();

/** The activity row of a change; the actor is the owner unless given (the system for scheduled changes). */
export interface ChangeLog {
  kind: ActivityKind;
  detail: string;
  actor?: Actor;
}

/** Runs after a change, in its transaction: extra rows and outbound events of the change. */
export type AfterChange = (trx: Trx, before: WorkspaceTable, after: WorkspaceTable) => Promise<void>;

/**
 * Applies a change to the row and logs it, in one transaction. Skips the log and `after` when
 * nothing changed, judged inside the transaction so concurrent identical requests count once.
 */
export async function changeWorkspace(
  ctx: WorkspaceContext,
  changes: Updateable<WorkspaceTable>,
  log: ChangeLog,
  after?: AfterChange,
): Promise<WorkspaceProfile> {
  return inTransaction(ctx.db, async (trx) => {
    const before = await readWorkspace(trx);
    const changed = Object.entries(changes).some(([k, v]) => before[k as keyof WorkspaceTable] !== v);
    if (!changed) return toProfile(before);
    await updateWorkspaceRow(trx, { ...changes, updatedAt: ctx.clock.now().toISOString() });
    const actor = log.actor ?? (await resolveActor(trx));
    await recordActivity(trx, ctx.clock, { kind: log.kind, detail: log.detail, actor, entityType: 'workspace', entityId: before.id });
    const updated = await readWorkspace(trx);
    await after?.(trx, before, updated);
    return toProfile(updated);
  });
}

/** The engine's columns of the row, as Settings → AI engine (or the environment, on a fresh workspace) sets them. */
export type EngineColumns = Pick<Updateable<WorkspaceTable>, 'engine' | 'engineModel' | 'engineBaseUrl' | 'engineInputPrice' | 'engineOutputPrice' | 'engineStructuredOutput' | 'updatedAt'>;

/** Writes the engine's columns; the caller logs the change in the same transaction. */
export async function writeEngineColumns(trx: Trx, columns: EngineColumns): Promise<void> {
  await trx.updateTable('workspace').set(columns).execute();
}

/**
 * How the configured server takes a structured answer, as a cycle found it (the next cycles start
 * with it). Kept only while the model and base URL are the ones it was found for.
 */
export async function rememberStructuredOutput(trx: Trx, seen: Pick<WorkspaceTable, 'engineModel' | 'engineBaseUrl'>, mode: StructuredOutputMode): Promise<void> {
  await trx
    .updateTable('workspace')
    .set({ engineStructuredOutput: mode })
    .where('engineModel', 'is', seen.engineModel)
    .where('engineBaseUrl', 'is', seen.engineBaseUrl)
    .execute();
}

/** The workspace row of a fresh desk (first start). */
export async function insertWorkspaceRow(trx: Trx, row: Insertable<WorkspaceTable>): Promise<void> {
  await trx.insertInto('workspace').values(row).execute();
}

/** Sets columns of the one workspace row as given (changeWorkspace for a change with its activity row). */
export async function updateWorkspaceRow(trx: Trx, change: Updateable<WorkspaceTable>): Promise<void> {
  await trx.updateTable('workspace').set(change).execute();
}

/** A new set of focus tags starts a focus shift. */
export async function insertFocusShift(trx: Trx, row: Insertable<FocusShiftTable>): Promise<void> {
  await trx.insertInto('focusShifts').values(row).execute();
}
