import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../../db/connection';
import type { RunTable } from '../../../db/schema';
import { inTransaction, type Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { notFound } from '../../core/errors';
import { newId } from '../../core/ids';
import { afterKey, pageRequest, toPage } from '../../core/lists';
import type { EngineKind } from '../../config';
import type { RunCounts } from '../catalog/events';
import { microToUsd } from '../cost/rules';
import { parseIdList } from './gather';
import { MAX_RUN_ERROR_CHARS, RUN_LIST, RUN_SKIP_REASONS, type RunSkipReason, type RunStatus, type RunTrigger } from './rules';

/** The run record: one row per cycle, inserted `running` before the engine is called. */

export type RunRow = Selectable<RunTable>;

/** The inputs a cycle read. */
export interface RunRead {
  signalIds: string[];
  taskIds: string[];
  memoryIds: string[];
  noteIds: string[];
}

/** What a cycle wrote. */
export interface RunProduced {
  createdTaskIds: string[];
  updatedTaskIds: string[];
  artifactIds: string[];
  memoryIds: string[];
}

/** One loop cycle. */
export interface Run {
  id: string;
  /** `schedule`: the loop interval came round; `manual`: POST /runs (Run now). */
  trigger: RunTrigger;
  /** `running` until the cycle ends; `skipped` when it did not start (skipReason says why). */
  status: RunStatus;
  /** The engine that ran it: `local` (built-in) or `openai` (an OpenAI-compatible endpoint). */
  engine: string;
  /** The model its usage is priced at. */
  model: string;
  /** @format date-time */
  startedAt: string;
  /** null while running. @format date-time */
  finishedAt: string | null;
  /** Wall time from start to finish; null while running. @isInt */
  durationMs: number | null;
  /** Time spent in the engine (the model call, memory retrieval included). @isInt */
  engineMs: number | null;
  /** @isInt */
  inputTokens: number;
  /** @isInt */
  outputTokens: number;
  /** USD at the model's price (6 decimals). */
  estimatedCostUsd: number;
  read: RunRead;
  produced: RunProduced;
  counts: RunCounts;
  /** The engine's or provider's message when the cycle failed, or the figures of a `cost_cap_insufficient` skip; null otherwise. */
  errorMessage: string | null;
  /** Why a due cycle did not run (`cost_cap_reached`, `cost_cap_insufficient`); null otherwise. */
  skipReason: RunSkipReason | null;
  /** What was left of today's cost cap when the cycle began, USD; null when there is no cap (or the cycle predates this figure). */
  budgetUsd: number | null;
  /** The completion bound the model call was given (tokens), so input plus the longest answer fits the budget; null when no call was made. @isInt */
  maxOutputTokens: number | null;
  /** When the operator cancelled the cycle (its status is then `failed`, nothing applied); null otherwise. @format date-time */
  cancelledAt: string | null;
  /** The engine's account of the rules it applied (how signals were grouped into tasks, how priority was set); null when it gave none. */
  explanation: string | null;
}

export interface RunList {
  runs: Run[];
  nextCursor: string | null;
}

export function toRun(r: RunRow): Run {
  const read = { signalIds: parseIdList(r.readSignalIds), taskIds: parseIdList(r.readTaskIds), memoryIds: parseIdList(r.readMemoryIds), noteIds: parseIdList(r.readNoteIds) };
  const produced = {
    createdTaskIds: parseIdList(r.createdTaskIds),
    updatedTaskIds: parseIdList(r.updatedTaskIds),
    artifactIds: parseIdList(r.artifactIds),
    memoryIds: parseIdList(r.memoryIds),
  };
  return {
    id: r.id,
    trigger: r.trigger,
    status: r.status,
    engine: r.engine,
    model: r.model,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    durationMs: r.durationMs,
    engineMs: r.engineMs,
    inputTokens: r.inputTokens,
    outputTokens: r.outputTokens,
    estimatedCostUsd: microToUsd(r.costMicroUsd),
    read,
    produced,
    counts: countsOf(read, produced),
    errorMessage: r.errorMessage,
    skipReason: (RUN_SKIP_REASONS as readonly string[]).includes(r.skipReason ?? '') ? (r.skipReason as RunSkipReason) : null,
    budgetUsd: r.budgetMicroUsd === null ? null : microToUsd(r.budgetMicroUsd),
    maxOutputTokens: r.maxOutputTokens,
    cancelledAt: r.cancelledAt,
    explanation: r.explanation ?? null,
  };
}

export function countsOf(read: RunRead, produced: RunProduced): RunCounts {
  return {
    signalsRead: read.signalIds.length,
    tasksRead: read.taskIds.length,
    memoryRead: read.memoryIds.length,
    notesRead: read.noteIds.length,
    tasksCreated: produced.createdTaskIds.length,
    tasksUpdated: produced.updatedTaskIds.length,
    artifactsCreated: produced.artifactIds.length,
    memoryCreated: produced.memoryIds.length,
  };
}

export const clipError = (message: string): string => (message.length > MAX_RUN_ERROR_CHARS ? `${message.slice(0, MAX_RUN_ERROR_CHARS - 1)}…` : message);

/**
 * Inserts the run as `running` (its own short transaction), so the UI shows the cycle under way.
 * `startedAt` is when the cycle started by the desk's clock (the loop interval runs from it).
 */
export async function insertRunningRun(db: Db, clock: Clock, startedAt: Date, trigger: RunTrigger, engine: EngineKind, model: string, budgetMicroUsd: number | null = null): Promise<RunRow> {
  const row = { id: newId('run', clock), trigger, status: 'running' as const, engine, model, startedAt: startedAt.toISOString(), finishedAt: null, durationMs: null, engineMs: null, errorMessage: null, skipReason: null, budgetMicroUsd };
  await inTransaction(db, (trx) => trx.insertInto('runs').values(row).execute());
  return getRunRow(db, row.id);
}

/** Inserts a whole run row as given (fixtures: explicit ids and times). */
export async function insertRunRow(trx: Trx, row: Insertable<RunTable>): Promise<void> {
  await trx.insertInto('runs').values(row).execute();
}

/** Sets columns of one run (the apply that completes it). */
export async function updateRun(trx: Trx, id: string, change: Updateable<RunTable>): Promise<void> {
  await trx.updateTable('runs').set(change).where('id', '=', id).execute();
}

/** Settles a run still `running` (skipped, failed); false when it was settled already (nothing written). */
export async function settleRunningRun(trx: Trx, id: string, change: Updateable<RunTable>): Promise<boolean> {
  const res = await trx.updateTable('runs').set(change).where('id', '=', id).where('status', '=', 'running').executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** A cycle that did not start (finished at once, no tokens). */
export async function insertSkippedRun(trx: Trx, clock: Clock, trigger: RunTrigger, engine: EngineKind, model: string, reason: RunSkipReason): Promise<string> {
  const now = clock.now().toISOString();
  const id = newId('run', clock);
  await trx.insertInto('runs').values({ id, trigger, status: 'skipped', engine, model, startedAt: now, finishedAt: now, durationMs: 0, engineMs: 0, errorMessage: null, skipReason: reason }).execute();
  return id;
}

export async function getRunRow(db: Db, id: string): Promise<RunRow> {
  const row = await db.selectFrom('runs').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('run', id);
  return row;
}

/** GET /runs: newest first, keyset on (started_at, id) over runs_started. */
export async function listRuns(db: Db, query: { limit?: number; cursor?: string }): Promise<RunList> {
  const { limit, after } = pageRequest(RUN_LIST, query, ['string', 'string']);
  let q = db.selectFrom('runs').selectAll();
  if (after) q = q.where(afterKey(['runs.started_at', 'runs.id'], after, 'desc'));
  const rows = await q.orderBy('startedAt', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
  const page = toPage(rows, limit, (r) => [r.startedAt, r.id]);
  return { runs: page.rows.map(toRun), nextCursor: page.nextCursor };
}

/** The most recent run that started (any status), or null. */
export async function latestRun(db: Db): Promise<RunRow | null> {
  return (await db.selectFrom('runs').selectAll().orderBy('startedAt', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst()) ?? null;
}
