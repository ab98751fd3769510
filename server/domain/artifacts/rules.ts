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
