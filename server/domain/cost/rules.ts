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
