/** Pure rules of cost accounting. */

/** The dimensions daily cost is bucketed by (cost_daily.dimension); `workspace` holds the total. */
export type CostDimension = 'workspace' | 'task' | 'source' | 'tag' | 'assignee' | 'memory';

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
