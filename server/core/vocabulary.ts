/**
 * The desk's shared vocabulary: the enum values that the tables store (db/schema.ts types its
 * columns with them), that events name (the catalog) and that engines decide (the engine contract),
 * and the few bounds an engine's answer schema repeats. A leaf: it imports nothing, so db/, the
 * engine and every area can use it without depending on one another. Each area's rules module
 * re-exports its own, so callers keep importing them from the area.
 */

// Signals (domain/signals/signal-store.ts and signal-view.ts re-export them)

/**
 * Signal kinds, Desk's decision (the spec leaves them open): `news` (articles, feed items),
 * `mention` (the operator's product or name mentioned somewhere), `review` (a customer review),
 * `message` (an inbound message or email), `alert` (something is broken or at risk),
 * `metric` (a number moved), `note` (written by the operator), `other`.
 */
export type SignalKind = 'news' | 'mention' | 'review' | 'message' | 'alert' | 'metric' | 'note' | 'other';
export const SIGNAL_KINDS = ['news', 'mention', 'review', 'message', 'alert', 'metric', 'note', 'other'] as const;
/** Signal priorities, lowest to highest. */
export type SignalPriority = 'low' | 'normal' | 'high' | 'urgent';
export const SIGNAL_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;

// Plan tiers and engine kinds (config.ts re-exports them)

/** Plan tiers; PLANS lists them for checks and the OpenAPI rule table. */
export type Plan = 'free' | 'pro' | 'team';
export const PLANS: readonly Plan[] = ['free', 'pro', 'team'];
export type EngineKind = 'local' | 'openai';

// MCP tokens (domain/mcp-tokens/rules.ts re-exports them)

/** What an MCP token opens: `read`, the tools that change nothing; `write`, every tool. */
export type McpTokenScope = 'read' | 'write';
export const MCP_TOKEN_SCOPES: readonly McpTokenScope[] = ['read', 'write'];

// How a server takes a structured answer (engine/structured-output.ts re-exports them)

/**
 * How an OpenAI-compatible server takes a structured answer, best first: a strict JSON schema
 * (`response_format: json_schema`), JSON mode (`response_format: json_object`, the schema in the
 * prompt), or a forced tool call whose arguments follow the schema. Found once per model and base
 * URL, remembered on the workspace (0019), shown in Settings.
 */
export type StructuredOutputMode = 'json_schema' | 'json_object' | 'tools';
export const STRUCTURED_OUTPUT_MODES: readonly StructuredOutputMode[] = ['json_schema', 'json_object', 'tools'];

// Workspace (domain/workspace/rules.ts re-exports them)

/** `on` runs cycles; `paused` holds them (by hand, or until `pauseUntilAt`); `off` stops them until turned on. */
export type LoopState = 'on' | 'paused' | 'off';
export const LOOP_STATES: readonly LoopState[] = ['on', 'paused', 'off'];

/**
 * What a cost spike does besides raising its alert: `none` alerts only, `pause` also pauses the
 * spender until the spike is acknowledged. null means not configured, which behaves like `none`
 * (the value of a new workspace).
 */
export type SpikeAction = 'none' | 'pause' | null;
export const SPIKE_ACTIONS: readonly SpikeAction[] = ['none', 'pause', null];

/** A focus tag (and a task or memory tag): lowercase letters and digits joined by single hyphens, at most 40 characters. */
export const FOCUS_TAG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_TAG_LENGTH = 40;

// Reactions (domain/reactions/reactions.ts re-exports them)

/**
 * The spec's reaction set, shared by every thing that takes reactions (signals today; comments,
 * artifacts and memory entries as they arrive). Order is the display order of summaries.
 * ❤️ is U+2764 U+FE0F (the bare U+2764 is not in the set).
 */
export const REACTION_EMOJIS = ['👍', '👀', '🎯', '❤️', '🚀'] as const;

/** One emoji of the reaction set: 👍 👀 🎯 ❤️ 🚀. */
export type ReactionEmoji = '👍' | '👀' | '🎯' | '❤️' | '🚀';

// Sources (domain/sources/rules.ts re-exports them)

export const SOURCE_TYPES = ['rss', 'review_site', 'linkedin', 'manual', 'file'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

export const SOURCE_STATUSES = ['pending', 'connected', 'error'] as const;
export type SourceStatus = (typeof SOURCE_STATUSES)[number];

// Tasks (domain/tasks/rules.ts re-exports them)

/** Every stored status. `archived` is what the stale auto-archive sweep sets; a PATCH move restores it. */
export const TASK_STATUSES = ['queued', 'in_progress', 'needs_input', 'done', 'archived'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** What PATCH /tasks/{id} `{ status }` accepts: free moves among these (archived is set by the sweep only). */
export const TASK_STATUS_MOVES = ['queued', 'in_progress', 'needs_input', 'done'] as const;
export type TaskStatusMove = (typeof TASK_STATUS_MOVES)[number];

/** What kind of work a task is. */
export const TASK_KINDS = ['research', 'writing', 'analysis', 'outreach', 'review', 'planning', 'ops', 'other'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

/** What a task produces (the artifact it leads to). */
export const TASK_DELIVERABLE_TYPES = ['brief', 'report', 'draft', 'summary', 'plan', 'checklist', 'email', 'post', 'other'] as const;
export type TaskDeliverableType = (typeof TASK_DELIVERABLE_TYPES)[number];

/** The same scale as signal priority. */
export const TASK_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];

/** Share-page view counters (task_views.kind). */
export const TASK_VIEW_KINDS = ['work_log', 'timeline'] as const;
export type TaskViewKind = (typeof TASK_VIEW_KINDS)[number];

export const MAX_TASK_TITLE = 200;
export const MAX_TASK_SUMMARY = 4000;

/** Tags per task (the spec leaves it open); each tag like a focus tag: lowercase letters and digits joined by single hyphens, at most 40 characters. */
export const MAX_TASK_TAGS = 10;

// Memory (domain/memory/rules.ts re-exports them)

export const MEMORY_KINDS = ['fact', 'decision', 'preference', 'lesson'] as const;
/** What a memory entry records: a fact, a decision, a preference or a lesson. */
export type MemoryKind = 'fact' | 'decision' | 'preference' | 'lesson';

// Artifacts (outputs) (domain/artifacts/rules.ts re-exports them)

export const ARTIFACT_STATUSES = ['ready', 'approved', 'archived'] as const;
/** `ready` waits for a decision; `approved` and `archived` are decisions (decidedAt stamped). */
export type ArtifactStatus = 'ready' | 'approved' | 'archived';

export const ARTIFACT_KINDS = ['brief', 'report', 'draft', 'summary', 'plan', 'checklist', 'email', 'post', 'other'] as const;
/** What an output is; the same vocabulary as a task's deliverableType. Brief-type outputs stay out of the decisions log. */
export type ArtifactKind = 'brief' | 'report' | 'draft' | 'summary' | 'plan' | 'checklist' | 'email' | 'post' | 'other';

/** Who wrote a version of an output: a loop cycle (`engine`) or a member (an edit, a reopen). */
export type ArtifactAuthorKind = 'engine' | 'member';

// Loop runs (domain/loop/rules.ts re-exports them)

/** `schedule`: the loop interval came round; `manual`: POST /runs (Run now). */
export type RunTrigger = 'schedule' | 'manual';
export const RUN_TRIGGERS = ['schedule', 'manual'] as const;

/** `skipped`: a cycle was due but did not run (the daily cost cap was reached; skipReason says why). */
export type RunStatus = 'running' | 'completed' | 'failed' | 'skipped';
export const RUN_STATUSES = ['running', 'completed', 'failed', 'skipped'] as const;

// Cost (domain/cost/rules.ts re-exports them)

/** The dimensions daily cost is bucketed by (cost_daily.dimension); `workspace` holds the total. */
export type CostDimension = 'workspace' | 'task' | 'source' | 'tag' | 'assignee' | 'memory';

// Cost guard (domain/cost-guard/rules.ts re-exports them)

/** The dimensions the detector watches (cost_daily dimensions without the workspace total). */
export type GuardDimension = 'task' | 'source' | 'tag' | 'assignee' | 'memory';
export const GUARD_DIMENSIONS: readonly GuardDimension[] = ['task', 'source', 'tag', 'assignee', 'memory'];

// Members (domain/members/rules.ts re-exports them)

/** A member's role: the one owner (made with the workspace), admins and editors (who decide on outputs), viewers (who read). */
export type MemberRole = 'owner' | 'admin' | 'editor' | 'viewer';
export const MEMBER_ROLES: readonly MemberRole[] = ['owner', 'admin', 'editor', 'viewer'];
/** Roles an invite may give (there is one owner, made with the workspace). */
export type InviteRole = 'admin' | 'editor' | 'viewer';
export const INVITE_ROLES: readonly InviteRole[] = ['admin', 'editor', 'viewer'];

export type ReviewAvailability = 'available' | 'away';
export const REVIEW_AVAILABILITIES: readonly ReviewAvailability[] = ['available', 'away'];

// Outbound webhooks (domain/outbound/rules.ts re-exports them)

/** pending: will be attempted (again); the other three are final. */
export const DELIVERY_STATES = ['pending', 'succeeded', 'failed', 'given_up'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** scheduled: the worker's attempts (they count toward disabling); manual: test sends and retries by hand. */
export const ATTEMPT_TRIGGERS = ['scheduled', 'manual'] as const;
export type AttemptTrigger = (typeof ATTEMPT_TRIGGERS)[number];

export const ATTEMPT_OUTCOMES = ['succeeded', 'failed'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** gone: the receiver answered 410; failing: every scheduled attempt failed for FAILING_DISABLE_MS. */
export const DISABLED_REASONS = ['gone', 'failing'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

// Dashboard preferences (domain/dashboard-prefs/rules.ts re-exports them)

/** Order of the active-work (open tasks) list; `smart` is the loop's own order (focus, priority, age). */
export type ActiveWorkSort = 'smart' | 'priority' | 'due' | 'updated' | 'created';
export const ACTIVE_WORK_SORTS: readonly ActiveWorkSort[] = ['smart', 'priority', 'due', 'updated', 'created'];

export type Density = 'comfortable' | 'compact';
export const DENSITIES: readonly Density[] = ['comfortable', 'compact'];

// Digest (domain/digest/rules.ts re-exports them)

export type DigestTrigger = 'schedule' | 'preview' | 'preferences';
export const DIGEST_TRIGGERS: readonly DigestTrigger[] = ['schedule', 'preview', 'preferences'];
export type DigestOutcome = 'would_send' | 'muted';
export const DIGEST_OUTCOMES: readonly DigestOutcome[] = ['would_send', 'muted'];
/** How a digest went out: SMTP, an .eml file in the outbox folder, or the SMTP server refused it. */
export type DigestDelivery = 'smtp' | 'outbox' | 'failed';
export const DIGEST_DELIVERIES: readonly DigestDelivery[] = ['smtp', 'outbox', 'failed'];
/**
 * Why a recipient's digest is muted: their quiet weekend, their quiet hours, no section chosen,
 * no address to send to, or (production only) nothing to report: no approval waiting and the loop
 * did nothing since the last digest.
 */
export type DigestMuteReason = 'quiet_weekend' | 'quiet_hours' | 'no_sections' | 'no_address' | 'nothing_to_report';
export const DIGEST_MUTE_REASONS: readonly DigestMuteReason[] = ['quiet_weekend', 'quiet_hours', 'no_sections', 'no_address', 'nothing_to_report'];

// The unions above are spelled out so tsoa lists them as enums; this fails to compile when one
// drifts from its list.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const unionsMatchLists: [
  Same<SignalKind, (typeof SIGNAL_KINDS)[number]>,
  Same<SignalPriority, (typeof SIGNAL_PRIORITIES)[number]>,
  Same<ReactionEmoji, (typeof REACTION_EMOJIS)[number]>,
  Same<MemoryKind, (typeof MEMORY_KINDS)[number]>,
  Same<ArtifactStatus, (typeof ARTIFACT_STATUSES)[number]>,
  Same<ArtifactKind, (typeof ARTIFACT_KINDS)[number]>,
  Same<RunTrigger, (typeof RUN_TRIGGERS)[number]>,
  Same<RunStatus, (typeof RUN_STATUSES)[number]>,
] = [true, true, true, true, true, true, true, true];
void unionsMatchLists;
