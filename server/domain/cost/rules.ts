/** Pure rules of cost accounting. */
import { EXPORT_MAX_ROWS } from '../../core/csv';
import { invalid } from '../../core/errors';
export { type CostDimension } from '../../core/vocabulary';

/** Key of the workspace total row, the unassigned bucket and the untagged bucket. */
export const WORKSPACE_KEY = 'workspace';
export const UNASSIGNED_KEY = '__unassigned__';
export const UNTAGGED_KEY = 'untagged';

/** Costs are stored as integer micro-USD: exact sums, no float drift over thousands of cycles. */
export const MICRO_USD_PER_CENT = 10_000;
export const MICRO_USD_PER_USD = 1_000_000;

/** Integer tokens and micro-USD of one share of cost. */
export interface CostAmount {
  inputTokens: number;
  outputTokens: number;
  costMicroUsd: number;
}

export const ZERO_COST: CostAmount = { inputTokens: 0, outputTokens: 0, costMicroUsd: 0 };

export function addCost(a: CostAmount, b: CostAmount): CostAmount {
  return { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens, costMicroUsd: a.costMicroUsd + b.costMicroUsd };
}

/**
 * Splits a non-negative integer into `n` integer parts that sum to it exactly: each gets
 * floor(total / n) and the remainder goes one unit each to the first parts (the caller orders the
 * keys, so who gets the extra unit is deterministic).
 */
export function splitInteger(total: number, n: number): number[] {
  if (n <= 0) return [];
  const base = Math.floor(total / n);
  const rest = total - base * n;
  return Array.from({ length: n }, (_, i) => base + (i < rest ? 1 : 0));
}

/**
 * Equal split of an amount across keys: duplicates folded, keys sorted (code-unit order) and each
 * of input tokens, output tokens and micro-USD split with `splitInteger`, so the parts sum to the
 * amount exactly and the first keys in sorted order carry the remainder. No keys: no shares.
 */
export function equalSplit(amount: CostAmount, keys: readonly string[]): Map<string, CostAmount> {
  const sorted = [...new Set(keys)].sort();
  const input = splitInteger(amount.inputTokens, sorted.length);
  const output = splitInteger(amount.outputTokens, sorted.length);
  const cost = splitInteger(amount.costMicroUsd, sorted.length);
  return new Map(sorted.map((k, i) => [k, { inputTokens: input[i], outputTokens: output[i], costMicroUsd: cost[i] }]));
}

/** Micro-USD as USD (6 decimals). */
export const microToUsd = (micro: number): number => Math.round(micro) / MICRO_USD_PER_USD;
/** Micro-USD as whole US cents (rounded). */
export const microToCents = (micro: number): number => Math.round(micro / MICRO_USD_PER_CENT);

/** A bounded integer parameter: its range and, when it has one, its default. */
export interface CostParamRange {
  min: number;
  max: number;
  default: number;
}

/** Trajectory windows (spec Limits: 1-30 workspace days, default 7); also `trajectoryDays` of the breakdowns. */
export const COST_TRAJECTORY_DAYS: CostParamRange = { min: 1, max: 30, default: 7 };
/** GET /tasks/top-cost `limit` (spec default 5): a ranking, not a paged list. */
export const TOP_COST_TASKS_LIMIT: CostParamRange = { min: 1, max: 50, default: 5 };
/** GET /cost/by-assignee, /by-source, /by-tag `limit` (spec default 10): rankings, not paged lists. */
export const COST_BREAKDOWN_LIMIT: CostParamRange = { min: 1, max: 100, default: 10 };
/** The days a top-cost task's `trajectory7d` covers, today included. */
export const TOP_COST_TRAJECTORY_DAYS = 7;
/** GET /cost/today: the sparkline covers the last 7 workspace days (today included); the baseline is the average of the 7 days before today. */
export const SPARKLINE_DAYS = 7;
export const BASELINE_DAYS = 7;
/** GET /workspace/cost-export: daily spend over the trailing 30 workspace days; at most 5000 data rows in all (spec Limits: exports). */
export const COST_EXPORT_DAILY_DAYS = 30;
export const COST_EXPORT_MAX_ROWS = EXPORT_MAX_ROWS;

/** Display name of the unassigned bucket. */
export const UNASSIGNED_NAME = 'Unassigned';

/** An integer parameter within its range (the default when absent); 422 naming the field otherwise. */
export function checkCostParam(field: string, value: number | undefined, r: CostParamRange): number {
  if (value === undefined) return r.default;
  if (!Number.isInteger(value) || value < r.min || value > r.max) throw invalid(field, `must be an integer from ${r.min} to ${r.max}`);
  return value;
}

/** Today's spend as a percentage of the daily cap, 2 decimals; null without a cap; a cap of 0 is reached at once (100). */
export function capPercent(spentMicro: number, capCents: number | null): number | null {
  if (capCents === null) return null;
  if (capCents === 0) return 100;
  return Math.round((spentMicro / (capCents * MICRO_USD_PER_CENT)) * 10_000) / 100;
}
