import { approvalAgeHours, attentionAt, type ApprovalPolicy } from './attention';
import type { WaitingReview } from './queue-stats';

/**
 * Reviewer capacity over the waiting queue: guidance only, nothing is moved automatically. Only
 * available reviewers count toward the target load and the suggestions; away reviewers and the
 * reviews they own stay visible.
 */

/** Capacity reads the oldest this-many waiting reviews (the spec's bound), and says so in `coverage`. */
export const CAPACITY_COVERAGE = 200;
/** A suggestion moves at most this many reviews at once. */
export const MAX_SUGGESTED_MOVES = 5;

/** A decision-capable member (owner, admin, editor) and their availability. */
export interface Reviewer {
  userId: string;
  name: string;
  available: boolean;
}

export interface ReviewerLoad {
  userId: string;
  name: string;
  available: boolean;
  /** Covered reviews this reviewer owns. */
  load: number;
  overdue: number;
  oldestWaitHours: number | null;
}

export interface CapacityMove {
  /** `rebalance`: from the most-loaded available reviewer; `away`: from a reviewer who is away. */
  reason: 'rebalance' | 'away';
  fromUserId: string;
  toUserId: string;
  /** Oldest first; at most MAX_SUGGESTED_MOVES. */
  artifactIds: string[];
}

export interface ApprovalCapacity {
  coverage: { considered: number; waiting: number; bound: number; complete: boolean };
  /** `no_reviewer_available`: every reviewer is away; `empty`: nothing waiting. */
  state: 'empty' | 'balanced' | 'unbalanced' | 'no_reviewer_available';
  reviewers: ReviewerLoad[];
  availableReviewers: number;
  unavailableReviewers: number;
  /** Covered reviews owned by available reviewers, by away reviewers, by nobody, and by someone who is not a reviewer (a viewer, a removed member). */
  availableOwned: number;
  awayOwned: number;
  unassigned: number;
  otherOwned: number;
  /** Covered reviews per available reviewer (one decimal); null with no reviewer available. */
  targetLoad: number | null;
  /** Highest minus lowest load among available reviewers; null with none. */
  queueSpread: number | null;
  mostLoaded: { userId: string; name: string; load: number } | null;
  lightest: { userId: string; name: string; load: number } | null;
  suggestion: CapacityMove | null;
}

const byOldest = (a: WaitingReview, b: WaitingReview) => (a.readyAt < b.readyAt ? -1 : a.readyAt > b.readyAt ? 1 : a.artifactId < b.artifactId ? -1 : 1);

export function approvalCapacity(waiting: readonly WaitingReview[], reviewers: readonly Reviewer[], now: Date, policy: ApprovalPolicy): ApprovalCapacity {
  const covered = [...waiting].sort(byOldest).slice(0, CAPACITY_COVERAGE);
  const byId = new Map(reviewers.map((r) => [r.userId, r]));
  const owned = new Map<string, WaitingReview[]>(reviewers.map((r) => [r.userId, []]));
  let unassigned = 0;
  let otherOwned = 0;
  for (const w of covered) {
    if (w.ownerId === null) unassigned++;
    else if (byId.has(w.ownerId)) owned.get(w.ownerId)!.push(w);
    else otherOwned++;
  }
  const loads: ReviewerLoad[] = reviewers.map((r) => {
    const mine = owned.get(r.userId)!;
    return {
      userId: r.userId,
      name: r.name,
      available: r.available,
      load: mine.length,
      overdue: mine.filter((w) => attentionAt(w.readyAt, now, policy) === 'overdue').length,
      oldestWaitHours: mine.length > 0 ? approvalAgeHours(mine[0].readyAt, now) : null,
    };
  });
  // Available first, the busiest first, then by name: the order the panel reads in.
  loads.sort((a, b) => Number(b.available) - Number(a.available) || b.load - a.load || a.name.localeCompare(b.name) || a.userId.localeCompare(b.userId));
  const available = loads.filter((l) => l.available);
  const away = loads.filter((l) => !l.available);
  const availableOwned = available.reduce((n, l) => n + l.load, 0);
  const awayOwned = away.reduce((n, l) => n + l.load, 0);
  const pick = (l: ReviewerLoad | undefined) => (l ? { userId: l.userId, name: l.name, load: l.load } : null);
  // available is sorted busiest first; the lightest is the last with the lowest load (name order among equals).
  const most = available[0];
  const light = available.length > 0 ? available.filter((l) => l.load === available[available.length - 1].load)[0] : undefined;
  const spread = most && light ? most.load - light.load : null;

  let suggestion: CapacityMove | null = null;
  const awayBusiest = away.find((l) => l.load > 0);
  if (light && awayBusiest) {
    suggestion = { reason: 'away', fromUserId: awayBusiest.userId, toUserId: light.userId, artifactIds: owned.get(awayBusiest.userId)!.slice(0, MAX_SUGGESTED_MOVES).map((w) => w.artifactId) };
  } else if (most && light && spread !== null && spread >= 2) {
    const count = Math.min(Math.floor(spread / 2), MAX_SUGGESTED_MOVES);
    suggestion = { reason: 'rebalance', fromUserId: most.userId, toUserId: light.userId, artifactIds: owned.get(most.userId)!.slice(0, count).map((w) => w.artifactId) };
  }

  const state: ApprovalCapacity['state'] =
    covered.length === 0 ? 'empty' : available.length === 0 ? 'no_reviewer_available' : suggestion !== null ? 'unbalanced' : 'balanced';
  return {
    coverage: { considered: covered.length, waiting: waiting.length, bound: CAPACITY_COVERAGE, complete: covered.length === waiting.length },
    state,
    reviewers: loads,
    availableReviewers: available.length,
    unavailableReviewers: away.length,
    availableOwned,
    awayOwned,
    unassigned,
    otherOwned,
    targetLoad: available.length > 0 ? Math.round((covered.length / available.length) * 10) / 10 : null,
    queueSpread: spread,
    mostLoaded: pick(most),
    lightest: pick(light),
    suggestion,
  };
}
