import { defineList } from '../../core/lists';

/**
 * Pure rules of artifacts (outputs). Statuses are the spec's; the kinds are left open by the spec
 * ("not shown") and follow a task's deliverable type.
 */
export const ARTIFACT_STATUSES = ['ready', 'approved', 'archived'] as const;
/** `ready` waits for a decision; `approved` and `archived` are decisions (decidedAt stamped). */
export type ArtifactStatus = 'ready' | 'approved' | 'archived';

export const ARTIFACT_KINDS = ['brief', 'report', 'draft', 'summary', 'plan', 'checklist', 'email', 'post', 'other'] as const;
/** What an output is; the same vocabulary as a task's deliverableType. Brief-type outputs stay out of the decisions log. */
export type ArtifactKind = 'brief' | 'report' | 'draft' | 'summary' | 'plan' | 'checklist' | 'email' | 'post' | 'other';

/** The version chain (parentArtifactId) is walked at most this many hops. */
export const MAX_VERSION_HOPS = 12;

/** How long a ready output has waited, against the workspace approval policy (watchHours, overdueHours). */
export type ApprovalAttention = 'fresh' | 'watch' | 'overdue';
export const APPROVAL_ATTENTIONS = ['fresh', 'watch', 'overdue'] as const;

/** Hours a ready output has waited since readyAt (one decimal; never negative when the clock is behind a row). */
export function approvalAgeHours(readyAt: string, now: Date): number {
  const hours = Math.max(0, (now.getTime() - Date.parse(readyAt)) / 3_600_000);
  return Math.floor(hours * 10) / 10;
}

/** fresh below watchHours, watch from watchHours, overdue from overdueHours (the spec's thresholds are inclusive). */
export function approvalAttention(ageHours: number, policy: { watchHours: number; overdueHours: number }): ApprovalAttention {
  if (ageHours >= policy.overdueHours) return 'overdue';
  if (ageHours >= policy.watchHours) return 'watch';
  return 'fresh';
}

/** GET /artifacts (the minimal list of outputs; the review queue extends it). Default 25, at most 100. */
export const ARTIFACT_LIST = defineList('ListArtifacts', 25, 100);
