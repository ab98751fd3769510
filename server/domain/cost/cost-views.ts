import type { CostPoint } from './cost-series';

/** The answers of the cost read endpoints (documented in the OpenAPI through tsoa). */

/** Spend of one workspace day in whole cents. */
export interface CentsPoint {
  /** A workspace-timezone day, YYYY-MM-DD. */
  date: string;
  /** @isInt */
  cents: number;
}

/** One assignee's spend today. */
export interface AssigneeToday {
  /** The member's user id, or `__unassigned__` for tasks without an assignee. */
  assigneeId: string;
  /** The member's name (removed members keep theirs); `Unassigned` for the bucket. */
  displayName: string;
  unassigned: boolean;
  /** @isInt */
  todayCents: number;
  /** Today's spend in USD, 6 decimals. */
  todayEstimatedCostUsd: number;
}

export interface CostToday {
  /** Today in the workspace timezone, YYYY-MM-DD. */
  date: string;
  timezone: string;
  /** Spend today so far, whole cents (rounded). @isInt */
  todayCents: number;
  /** Spend today in USD, 6 decimals (the exact figure the cap is checked against). */
  todayEstimatedCostUsd: number;
  /** Spend yesterday, whole cents. @isInt */
  yesterdayCents: number;
  /** The 7-day baseline: the average daily spend of the 7 workspace days before today (today excluded), whole cents. @isInt */
  baselineCents: number;
  /** Daily spend of the last 7 workspace days, oldest first, today last, zero-filled. */
  sparkline: CentsPoint[];
  /** The workspace daily cost cap in cents (dailyCostCapUsdCents); null when there is none. @isInt */
  dailyCostCap: number | null;
  /** Today's spend as a percentage of the cap, 2 decimals (it can pass 100: a cycle in flight finishes); null without a cap. */
  capPercent: number | null;
  /** true when today's spend has reached the cap: scheduled cycles are skipped and Run now is refused until the next workspace day or a higher cap. */
  capReached: boolean;
  /** Today's spend per assignee (the queue of each member, and the unassigned bucket), most first; members without spend today are left out. */
  byAssignee: AssigneeToday[];
}

/** Sums over the counted tasks of one group. */
export interface CostGroupFigures {
  /** Counted tasks in the group that have any cost. @isInt */
  taskCount: number;
  /** @isInt */
  totalInputTokens: number;
  /** @isInt */
  totalOutputTokens: number;
  /** USD, 6 decimals. */
  estimatedCostUsd: number;
}

export interface AssigneeCost extends CostGroupFigures {
  /** The member's user id, or `__unassigned__` for tasks without an assignee (the literal the trajectory path takes). */
  assigneeId: string;
  /** The member's name (removed members keep theirs); `Unassigned` for the bucket. */
  displayName: string;
  unassigned: boolean;
  /** true when the member has been removed from the workspace (their tasks still count). */
  removed: boolean;
  /** AI cycles that worked the group's tasks. @isInt */
  sessionCount: number;
  /**
   * Only with `trajectoryDays`: daily spend in whole cents over that many workspace days, oldest
   * first, today last, zero-filled, as the cycles recorded it for this assignee (every task they
   * had at the time, done ones included).
   * @isInt
   */
  trajectory7d?: number[];
}

export interface AssigneeCostList {
  includeDone: boolean;
  /** The window of each row's trajectory7d; null when not asked. @isInt */
  trajectoryDays: number | null;
  /** Spend of every counted task (all groups, not only the rows shown), USD 6 decimals. */
  totalEstimatedCostUsd: number;
  /** Most expensive first (ties: assigneeId); groups without cost or tokens are left out. */
  assignees: AssigneeCost[];
}

export interface SourceCost extends CostGroupFigures {
  sourceId: string;
  label: string;
  type: string;
  status: string;
}

export interface SourceCostList {
  includeDone: boolean;
  /** Spend of every counted task that has a source, USD 6 decimals: the sum over all sources (the equal split sums exactly). */
  totalEstimatedCostUsd: number;
  /** Spend of counted tasks without any source (in no row), USD 6 decimals. */
  withoutSourceEstimatedCostUsd: number;
  /** Most expensive first (ties: sourceId); sources without cost are left out. */
  sources: SourceCost[];
}

export interface TagCost extends CostGroupFigures {
  /** The tag, or `untagged` for tasks without tags (the literal the trajectory path takes). */
  tag: string;
  untagged: boolean;
  /** @isInt */
  sessionCount: number;
  /**
   * Only with `trajectoryDays`: daily spend in whole cents over that many workspace days, oldest
   * first, today last, zero-filled, as the cycles recorded it for this tag.
   * @isInt
   */
  trajectory7d?: number[];
}

export interface TagCostList {
  includeDone: boolean;
  /** @isInt */
  trajectoryDays: number | null;
  /** Most expensive first (ties: tag). A task with several tags counts fully in each, so rows do not add up to the total spend. */
  tags: TagCost[];
}

/** A trajectory: one point per workspace day, oldest first, today last, zero-filled. */
export interface CostTrajectoryBase {
  /** @isInt */
  days: number;
  points: CostPoint[];
}

export interface TaskCostTrajectory extends CostTrajectoryBase {
  taskId: string;
}

export interface SourceCostTrajectory extends CostTrajectoryBase {
  sourceId: string;
}

export interface AssigneeCostTrajectory extends CostTrajectoryBase {
  /** The member's user id or `__unassigned__`. */
  assigneeId: string;
}

export interface TagCostTrajectory extends CostTrajectoryBase {
  /** The tag or `untagged`. */
  tag: string;
}
