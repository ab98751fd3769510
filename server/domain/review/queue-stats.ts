import { approvalAgeHours, attentionAt, type ApprovalPolicy } from './attention';

/** A ready output as the queue aggregates see it. */
export interface WaitingReview {
  artifactId: string;
  readyAt: string;
  /** The originating task's assignee; null when unassigned. */
  ownerId: string | null;
}

export interface ApprovalAging {
  /** Ready outputs waiting. */
  waiting: number;
  fresh: number;
  /** Waiting at least watchHours (overdue ones included). */
  pastWatch: number;
  /** Waiting at least overdueHours. */
  pastOverdue: number;
  /** Hours the oldest ready output has waited; null with none waiting. */
  oldestWaitHours: number | null;
  oldestArtifactId: string | null;
}

/** Counts past each threshold and the oldest wait, over every ready output (filters and limit do not apply). */
export function approvalAging(waiting: readonly WaitingReview[], now: Date, policy: ApprovalPolicy): ApprovalAging {
  let fresh = 0;
  let pastWatch = 0;
  let pastOverdue = 0;
  let oldest: WaitingReview | null = null;
  for (const w of waiting) {
    const attention = attentionAt(w.readyAt, now, policy);
    if (attention === 'fresh') fresh++;
    else pastWatch++;
    if (attention === 'overdue') pastOverdue++;
    if (oldest === null || w.readyAt < oldest.readyAt || (w.readyAt === oldest.readyAt && w.artifactId < oldest.artifactId)) oldest = w;
  }
  return {
    waiting: waiting.length,
    fresh,
    pastWatch,
    pastOverdue,
    oldestWaitHours: oldest ? approvalAgeHours(oldest.readyAt, now) : null,
    oldestArtifactId: oldest?.artifactId ?? null,
  };
}

export interface ApprovalOwnership {
  /** Ready outputs whose task has an assignee. */
  assigned: number;
  unassigned: number;
  /** Owned by the viewer (asUserId, else the workspace owner). */
  mine: number;
  /** Owned by the viewer and overdue. */
  mineOverdue: number;
}

export function approvalOwnership(waiting: readonly WaitingReview[], viewerId: string, now: Date, policy: ApprovalPolicy): ApprovalOwnership {
  const out: ApprovalOwnership = { assigned: 0, unassigned: 0, mine: 0, mineOverdue: 0 };
  for (const w of waiting) {
    if (w.ownerId === null) out.unassigned++;
    else out.assigned++;
    if (w.ownerId === viewerId) {
      out.mine++;
      if (attentionAt(w.readyAt, now, policy) === 'overdue') out.mineOverdue++;
    }
  }
  return out;
}
