import { HOUR_MS } from '../../core/clock';

/**
 * Attention of a waiting review: a label from elapsed time, never a decision (the spec: "timeouts
 * never decide an output; elapsed time only changes an attention label").
 */
export type ApprovalAttention = 'fresh' | 'watch' | 'overdue';
export const APPROVAL_ATTENTIONS = ['fresh', 'watch', 'overdue'] as const;

// The workspace's policy type (one model in the OpenAPI document).
export type { ApprovalPolicy } from '../workspace/workspace-store';
import type { ApprovalPolicy } from '../workspace/workspace-store';

/** Hours a review has waited, to two decimals (never negative: a readyAt in the future reads 0). */
export function approvalAgeHours(readyAt: string, now: Date): number {
  const ms = Math.max(0, now.getTime() - Date.parse(readyAt));
  return Math.round((ms / HOUR_MS) * 100) / 100;
}

/** fresh below the watch threshold, watch from it, overdue from the overdue threshold (exact ms, not the rounded hours). */
export function attentionAt(readyAt: string, now: Date, policy: ApprovalPolicy): ApprovalAttention {
  const waited = now.getTime() - Date.parse(readyAt);
  if (waited >= policy.overdueHours * HOUR_MS) return 'overdue';
  if (waited >= policy.watchHours * HOUR_MS) return 'watch';
  return 'fresh';
}

/**
 * The review clock of an output: readyAt when stored; rows from before readyAt existed fall back
 * to their created (else updated) time, and count as inferred samples in throughput figures.
 */
export function reviewClock(row: { readyAt: string | null; createdAt: string; updatedAt: string }): { readyAt: string; inferred: boolean } {
  if (row.readyAt) return { readyAt: row.readyAt, inferred: false };
  return { readyAt: row.createdAt || row.updatedAt, inferred: true };
}
