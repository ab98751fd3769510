import { sql } from 'kysely';
import { runStatement } from '../../../db/compiled';
import type { Db } from '../../../db/connection';
import type { Trx } from '../../../db/transactions';
import type { Day } from '../../core/workspace-time';
import { addCost, equalSplit, UNASSIGNED_KEY, UNTAGGED_KEY, WORKSPACE_KEY, ZERO_COST, type CostAmount, type CostDimension } from './rules';

/**
 * The cost ledger: what one cycle cost, written into the daily buckets (cost_daily, one row per
 * dimension, key and workspace day) and onto the rows that carry running totals (tasks, memory).
 * Called inside the cycle's apply transaction.
 */

/** What one cycle charged one task. */
export interface TaskCharge {
  taskId: string;
  /** The task's tokens this cycle, priced at the engine's model. */
  amount: CostAmount;
  /** Every memory entry a retrieval for the task returned this cycle, repeats included (one per retrieval). */
  retrievedMemoryIds: readonly string[];
  /** Sources of the task's signals (signals without a source add none). */
  sourceIds: readonly string[];
  tags: readonly string[];
  assignedToUserId: string | null;
  /** Whether the cycle worked the task (sessionCount + 1). */
  worked: boolean;
}

export interface CycleCharge {
  /** The workspace day of the cycle. */
  day: Day;
  /** The whole cycle (the workspace bucket): includes triage work no task is charged for. */
  total: CostAmount;
  tasks: readonly TaskCharge[];
  /** When the cycle ran (lastRetrievedAt). */
  at: string;
}

type Buckets = Map<string, { dimension: CostDimension; key: string; amount: CostAmount }>;

function add(buckets: Buckets, dimension: CostDimension, key: string, amount: CostAmount): void {
  const id = `${dimension}\u0000${key}`;
  const b = buckets.get(id);
  if (b) b.amount = addCost(b.amount, amount);
  else buckets.set(id, { dimension, key, amount });
}

/**
 * The buckets of one cycle, before they are written (pure, tested on its own):
 * - workspace: the cycle total;
 * - task: each task's own amount;
 * - memory: each task's amount split equally across the distinct entries its retrievals returned;
 * - source: each task's amount split equally across its distinct sources (none: no source bucket);
 * - tag: each task's full amount to every tag it carries (`untagged` when none);
 * - assignee: each task's full amount to its assignee (`__unassigned__` when none).
 * Splits are integer (`equalSplit`): the shares sum to the task's amount exactly.
 */
export function cycleBuckets(charge: Omit<CycleCharge, 'at'>): { buckets: Buckets; memory: Map<string, CostAmount> } {
  const buckets: Buckets = new Map();
  const memory = new Map<string, CostAmount>();
  add(buckets, 'workspace', WORKSPACE_KEY, charge.total);
  for (const t of charge.tasks) {
    add(buckets, 'task', t.taskId, t.amount);
    for (const [id, share] of equalSplit(t.amount, t.retrievedMemoryIds)) {
      add(buckets, 'memory', id, share);
      memory.set(id, addCost(memory.get(id) ?? ZERO_COST, share));
    }
    for (const [id, share] of equalSplit(t.amount, t.sourceIds)) add(buckets, 'source', id, share);
    const tags = t.tags.length > 0 ? [...new Set(t.tags)] : [UNTAGGED_KEY];
    for (const tag of tags) add(buckets, 'tag', tag, t.amount);
    add(buckets, 'assignee', t.assignedToUserId ?? UNASSIGNED_KEY, t.amount);
  }
  return { buckets, memory };
}

/**
 * The bucket statement, fixed SQL run with new values: one cycle writes a bucket per task it
 * touched (a thousand in a big cycle), and building each with the query builder cost more than
 * SQLite's own work. Same rows as the builder wrote.
 */
const ADD_TO_BUCKET =
  'insert into cost_daily (dimension, key, day, input_tokens, output_tokens, cost_micro_usd) values (?, ?, ?, ?, ?, ?) ' +
  'on conflict (dimension, key, day) do update set input_tokens = cost_daily.input_tokens + ?, output_tokens = cost_daily.output_tokens + ?, cost_micro_usd = cost_daily.cost_micro_usd + ?';

/**
 * Writes a cycle's cost into the daily buckets; the tasks' running totals are the tasks area's
 * (`addTaskCharges`, which the cycle calls beside this). Returns what each memory entry is attributed, for memory-store's recordRetrievals (the memory
 * area writes its own counters). `breathe` yields to the event loop between statements now and then.
 */
export async function recordCycleCost(trx: Trx, breathe: () => Promise<void>, charge: CycleCharge): Promise<Map<string, CostAmount>> {
  const { buckets, memory } = cycleBuckets(charge);
  for (const { dimension, key, amount } of buckets.values()) {
    await breathe();
    await addToBucket(trx, dimension, key, charge.day, amount);
  }
  return memory;
}

/** Adds an amount to one daily bucket (created at the first amount of its day). */
export async function addToBucket(trx: Trx, dimension: CostDimension, key: string, day: Day, amount: CostAmount): Promise<void> {
  const { inputTokens, outputTokens, costMicroUsd } = amount;
  await runStatement(trx, ADD_TO_BUCKET, [dimension, key, day, inputTokens, outputTokens, costMicroUsd, inputTokens, outputTokens, costMicroUsd]);
}

/** Forgets the buckets of one key (a deleted memory entry: its buckets have no foreign key). */
export async function deleteBuckets(trx: Trx, dimension: CostDimension, key: string): Promise<void> {
  await trx.deleteFrom('costDaily').where('dimension', '=', dimension).where('key', '=', key).execute();
}

/** Micro-USD spent on a workspace day (the workspace bucket). */
export async function workspaceSpendMicro(db: Db, day: Day): Promise<number> {
  const row = await db.selectFrom('costDaily').select('costMicroUsd').where('dimension', '=', 'workspace').where('key', '=', WORKSPACE_KEY).where('day', '=', day).executeTakeFirst();
  return row?.costMicroUsd ?? 0;
}

/** Micro-USD spent over a range of workspace days (inclusive), from the workspace buckets. */
export async function workspaceSpendBetween(db: Db, from: Day, to: Day): Promise<number> {
  const row = await db
    .selectFrom('costDaily')
    .select(sql<number>`coalesce(sum(cost_micro_usd), 0)`.as('total'))
    .where('dimension', '=', 'workspace')
    .where('key', '=', WORKSPACE_KEY)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}
