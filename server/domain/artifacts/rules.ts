import { defineList } from '../../core/lists';
import { ARTIFACT_STATUSES, type ArtifactStatus, ARTIFACT_KINDS, type ArtifactKind } from '../../core/vocabulary';
export { ARTIFACT_STATUSES, type ArtifactStatus, ARTIFACT_KINDS, type ArtifactKind };

/**
 * Pure rules of artifacts (outputs). Statuses are the spec's; the kinds are left open by the spec
 * ("not shown") and follow a task's deliverable type.
 */

/** The version chain (parentArtifactId) is walked at most this many hops. */
export const MAX_VERSION_HOPS = 12;

// One attention implementation: server/domain/review/attention.ts (exact ms thresholds); re-exported here for the artifact area.
export { APPROVAL_ATTENTIONS, approvalAgeHours, attentionAt, reviewClock, type ApprovalAttention, type ApprovalPolicy } from '../review/attention';

/** Artifact tags: at most this many on one output (each lowercase letters and digits joined by hyphens, at most 40 characters). */
export const MAX_ARTIFACT_TAGS = 10;

/** Decisions a bulk call makes on every ready output. */
export const BULK_DECISION_ACTIONS = ['approve_all', 'archive_all'] as const;
export type BulkDecisionAction = 'approve_all' | 'archive_all';

/** GET /decisions: the window in days (default 30, 1-365) and the rows (default 10, 1-100). */
export const DECISIONS_WINDOW_DEFAULT_DAYS = 30;
export const DECISIONS_WINDOW_MAX_DAYS = 365;
export const DECISIONS_LIST = defineList('ListDecisions', 10, 100);

/** GET /artifacts (the review queue and the lists of decided outputs). Default 25, at most 100. */
export const ARTIFACT_LIST = defineList('ListArtifacts', 25, 100);

/** A version a member writes (an edit): title 1-200 characters, Markdown content 1-100,000 (what a cycle may write). */
export const ARTIFACT_TITLE = { min: 1, max: 200 } as const;
export const ARTIFACT_CONTENT = { min: 1, max: 100_000 } as const;
