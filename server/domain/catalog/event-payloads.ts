/**
 * The payload types of the outbound events (one per event, `data` of the envelope), by area;
 * the catalog itself (names, descriptions, examples) is ./events.ts.
 */
import type {
  DigestDelivery,
  DigestMuteReason,
  DigestTrigger,
  DisabledReason,
  EngineKind,
  InviteRole,
  LoopState,
  MemberRole,
  MemoryKind,
  ReviewAvailability,
  SignalKind,
  SignalPriority,
  TaskStatus,
} from '../../core/vocabulary';

/** How a signal reached the desk. */
export type SignalOrigin = 'manual' | 'webhook' | 'feed' | 'file';

export interface SignalCreatedData {
  signalId: string;
  kind: SignalKind;
  priority: SignalPriority;
  title: string;
  sourceId: string | null;
  origin: SignalOrigin;
}

export interface SourceRef {
  sourceId: string;
  label: string;
}

export interface SourceCreatedData extends SourceRef {
  type: string;
}

export interface SourcePausedData extends SourceRef {
  /** When the pause ends by itself; null for a pause until resumed by hand. @format date-time */
  pausedUntilAt: string | null;
}

export interface SourceErroredData extends SourceRef {
  message: string;
  /** @isInt */
  consecutiveFailures: number;
  /** @format date-time */
  nextRetryAt: string | null;
}

export interface SourceQuietnessAckedData extends SourceRef {
  /** @format date-time */
  quietnessAckedAt: string;
  /** @format date-time */
  expiresAt: string;
}

export interface SourceQuietnessWarningData extends SourceRef {
  /** @format date-time */
  quietSince: string;
  /** @isInt */
  quietForDays: number;
  /** @isInt */
  floorDays: number;
}

export interface WorkspaceLoopStateData {
  loopState: LoopState;
  /** @format date-time */
  pauseUntilAt: string | null;
}

/** The loop changed state (`loop.state_changed`): the same change as `workspace.loop_state_changed`, with the state before it. */
export interface LoopStateChangedData {
  loopState: LoopState;
  previousLoopState: LoopState;
  /** When a scheduled pause ends; null without one. @format date-time */
  pauseUntilAt: string | null;
}

/** An output is ready for review (`artifact.ready`): from this instant its review clock runs. */
export interface ArtifactReadyData {
  artifactId: string;
  taskId: string | null;
  runId: string | null;
  title: string;
  kind: string;
  /** @isInt */
  version: number;
  /** Immutable once set. @format date-time */
  readyAt: string;
}

/** What POST /outbound/subscriptions/{id}/test sends (`artifact.test`): only to that subscription. */
export interface ArtifactTestData {
  subscriptionId: string;
  message: string;
  /** A sample of an output's fields, so a receiver can exercise its handling. */
  sample: ArtifactReadyData;
}

/** An outbound subscription as events name it: the receiver's origin only (a path or query may hold the receiver's own token). */
export interface OutboundSubscriptionData {
  subscriptionId: string;
  label: string | null;
  /** scheme://host[:port] of the receiver URL. */
  origin: string;
  events: string[];
  active: boolean;
}

/** Desk disabled a subscription: its receiver answered 410 Gone, or failed every scheduled attempt for 5 days. */
export interface OutboundSubscriptionDisabledData extends OutboundSubscriptionData {
  reason: DisabledReason;
  /** The first failed scheduled attempt of the failing streak; null for a 410. @format date-time */
  failingSince: string | null;
}

export interface WorkspaceCostCapData {
  /** The new daily AI spend cap in US cents; null = no cap. @isInt */
  dailyCostCapUsdCents: number | null;
  /** The cap before the change. @isInt */
  previousDailyCostCapUsdCents: number | null;
}

export interface WorkspaceTokenRotatedData {
  /** When the old token stopped working (bearer API and webhook URL). The token is never in an event. @format date-time */
  rotatedAt: string;
}

/** The AI engine settings after a change (the API key is never in an event: only whether one is set). */
export interface WorkspaceEngineChangedData {
  engine: EngineKind;
  model: string | null;
  baseUrl: string | null;
  apiKeySet: boolean;
  /** The operator's own price, USD per million tokens; null: the price table (or zero for a server on this machine) applies. */
  inputPricePerMillionUsd: number | null;
  outputPricePerMillionUsd: number | null;
}

/** What POST /workspace/import added and skipped (counts only; the rows are in the answer). */
export interface WorkspaceImportedData {
  added: { sources: number; signals: number; memory: number };
  /** Items left out as already present. @isInt */
  duplicates: number;
  /** Items left out because they break a rule of this desk. @isInt */
  invalid: number;
  /** When the file was exported (its exportedAt); null when the file does not say. */
  exportedAt: string | null;
}

/** A scoped ingest URL of a source (never the token itself). */
export interface IngestTokenData extends SourceRef {
  tokenId: string;
  /** The token's own label, e.g. the sending service. */
  tokenLabel: string;
}

export interface CommentCreatedData {
  commentId: string;
  taskId: string;
  /** The top-level comment a reply belongs to; null for a top-level comment. */
  parentCommentId: string | null;
  authorUserId: string;
  /** Members the comment mentions as `@name` (each got a mention to acknowledge). */
  mentionedUserIds: string[];
}

export interface MentionAcknowledgedData {
  mentionId: string;
  commentId: string;
  taskId: string;
  /** The member who was mentioned. */
  userId: string;
}

/** Which public page of a task a share link opens. */
export type SharePage = 'work_log' | 'timeline';

/** A task's public page was shared or unshared (the token itself is never in an event). */
export interface TaskShareChangedData {
  taskId: string;
  page: SharePage;
  enabled: boolean;
}

/** A pending invite (no email is sent: it is a record). */
export interface MemberInviteData {
  inviteId: string;
  email: string;
  role: InviteRole;
}

/** A member of the workspace. */
export interface MemberData {
  userId: string;
  name: string;
  role: MemberRole;
}

export interface MemberJoinedData extends MemberData {
  /** The invite the member accepted. */
  inviteId: string;
}

export interface MemberAvailabilityData extends MemberData {
  availability: ReviewAvailability;
  previousAvailability: ReviewAvailability;
}

/** A task template. */
export interface TaskTemplateData {
  templateId: string;
  label: string;
}

/** A shared saved search and who saved it. */
export interface SavedSearchData {
  searchId: string;
  name: string;
  query: string;
  createdByUserId: string;
}

/** A task, as events name it. */
export interface TaskRef {
  taskId: string;
  title: string;
}

export interface TaskCreatedData extends TaskRef {
  status: TaskStatus;
  /** Set when the task is a duplicate of another. */
  duplicateOfTaskId: string | null;
}

export interface TaskStatusChangedData extends TaskRef {
  from: TaskStatus;
  to: TaskStatus;
  /** `operator` (PATCH), `note` (a note on a needs_input task), `sweep` (stale auto-archive), `cycle` (an AI cycle moved it). */
  cause: 'operator' | 'note' | 'sweep' | 'cycle';
}

export interface TaskAssignedData extends TaskRef {
  /** null: unassigned. */
  assignedToUserId: string | null;
  previousAssignedToUserId: string | null;
}

export interface TaskUnblockedData extends TaskRef {
  /** The blocker whose move to done made the task eligible. */
  lastBlockerTaskId: string;
}

export interface TaskNoteAddedData extends TaskRef {
  noteId: string;
  text: string;
}

export interface TaskArchiveWarningData extends TaskRef {
  /** @format date-time */
  updatedAt: string;
  /** When the sweep archives the task unless it is renewed or changed first. @format date-time */
  archivesAfter: string;
}

/** A memory entry, as events name it. */
/** What a loop cycle read and produced, counted. */
export interface RunCounts {
  /** @isInt */
  signalsRead: number;
  /** @isInt */
  tasksRead: number;
  /** @isInt */
  memoryRead: number;
  /** @isInt */
  notesRead: number;
  /** @isInt */
  tasksCreated: number;
  /** @isInt */
  tasksUpdated: number;
  /** @isInt */
  artifactsCreated: number;
  /** @isInt */
  memoryCreated: number;
}

export interface RunCompletedData {
  runId: string;
  trigger: 'schedule' | 'manual';
  counts: RunCounts;
  /** @isInt */
  inputTokens: number;
  /** @isInt */
  outputTokens: number;
  estimatedCostUsd: number;
}

export interface RunFailedData {
  runId: string;
  trigger: 'schedule' | 'manual';
  /** What the engine (or the apply step) reported; never a key or a stack. */
  errorMessage: string;
}

export interface CostCapReachedData {
  /** The workspace-timezone day the cap stopped cycles on. @format date */
  day: string;
  /** @isInt */
  dailyCostCapUsdCents: number;
  /** Today's spend so far. */
  spentUsd: number;
  /** The run record of the cycle that did not start. */
  runId: string;
}

/** An output a loop cycle drafted; it waits for review in status ready. */
export interface ArtifactCreatedData {
  artifactId: string;
  taskId: string | null;
  runId: string | null;
  title: string;
  kind: string;
  /** @isInt */
  version: number;
  /** The previous version of the task's output (a re-work); null for a first version. */
  parentArtifactId: string | null;
  /** `engine`: a loop cycle wrote it; `member`: a member's edit or reopen. */
  authorKind: 'engine' | 'member';
  /** The member who wrote it; null for the engine. */
  authorUserId: string | null;
}

/** A ready version replaced by a newer version of the same output: out of the queue, still in the chain. */
export interface ArtifactSupersededData {
  artifactId: string;
  /** The version that replaced it. */
  supersededById: string;
  taskId: string | null;
  title: string;
  /** @format date-time */
  supersededAt: string;
}

/** An output was decided (approved or archived), one event per output, also for a bulk decision. */
export interface ArtifactDecidedData {
  artifactId: string;
  taskId: string | null;
  title: string;
  /** @format date-time */
  readyAt: string;
  /** @format date-time */
  decidedAt: string;
  /** Hours from readyAt to decidedAt (two decimals). */
  waitHours: number;
  /** `single`: POST /artifacts/{id}/approve or /archive; `bulk`: POST /artifacts/bulk. */
  via: 'single' | 'bulk';
  /** The review owner (the originating task's assignee) at decision time; null without one. */
  reviewOwnerId: string | null;
}

export interface MemoryRef {
  memoryId: string;
  title: string;
}

export interface MemoryCreatedData extends MemoryRef {
  kind: MemoryKind;
  /** 0-10, or null when not rated. */
  importance: number | null;
  pinned: boolean;
  tags: string[];
  /** The AI cycle that wrote the entry; null when added by hand. */
  createdByRunId: string | null;
}

export interface MemoryUpdatedData extends MemoryRef {
  /** The fields that changed: kind, title, content, importance, pinned, tags. */
  changed: ('kind' | 'title' | 'content' | 'importance' | 'pinned' | 'tags')[];
}

export interface MemoryArchivedData extends MemoryRef {
  /** null: never retrieved. @format date-time */
  lastRetrievedAt: string | null;
  /** The workspace's staleMemoryAutoArchiveDays the sweep applied. @isInt */
  thresholdDays: number;
}

/** Which kind of spender a cost alert or ack is about. */
export type CostGuardDimension = 'task' | 'source' | 'tag' | 'assignee' | 'memory';

/**
 * A cost spike (`<dimension>.cost_spike`): the entity spent at least 2 times its trailing 7-day daily
 * average and at least 0.50 USD on a workspace day. Raised once per entity per day, not while acked.
 */
export interface CostSpikeData {
  dimension: CostGuardDimension;
  /** The task id, source id, tag, member id or memory entry id. */
  key: string;
  /** The task title, source label, tag, member name or memory title. */
  label: string;
  /** The workspace day that spiked (today, or a day a stopped desk missed). @format date */
  day: string;
  todayUsd: number;
  /** @isInt */
  todayCents: number;
  /** The trailing 7-day daily average (the 7 days before `day`, zero days included). */
  baselineUsd: number;
  /** @isInt */
  baselineCents: number;
  /** today / baseline (2 decimals); null when the baseline is zero. */
  spikeRatio: number | null;
  /** @isInt */
  consecutiveSpikeDays: number;
  /** Whether the workspace's spike action paused the entity until acknowledged. */
  paused: boolean;
}

/** A chronic warning (`<dimension>.chronic_warning`): the entity spiked `thresholdDays` or more days in a row. */
export interface CostChronicData extends CostSpikeData {
  /** 3, or the workspace's sourceChronicThresholdDays for sources. @isInt */
  thresholdDays: number;
}

/** A cost-spike or chronic acknowledgement: one event per call (single or bulk) naming every acked key. */
export interface CostAckData {
  dimension: CostGuardDimension;
  keys: string[];
  /** @format date-time */
  ackedAt: string;
  /** Spike acks: the end of the workspace day; chronic acks: 7 days after ackedAt. @format date-time */
  expiresAt: string;
}

/** What a tag rename changed in one kind of row (renamed: now `to`; merged: already had `to`, lost `from`). */
export interface TagRenameCounts {
  renamed: number;
  merged: number;
}

export interface TagRenamedData {
  from: string;
  to: string;
  tasks: TagRenameCounts;
  artifacts: TagRenameCounts;
  memory: TagRenameCounts;
  /** Whether the workspace focus tags carried `from`. */
  focusTags: boolean;
}

/** An onboarding template applied to the workspace (POST /workspace/onboarding-template/apply). */
export interface OnboardingTemplateAppliedData {
  /** The template's key in the public catalog. */
  key: string;
  name: string;
  added: { /** @isInt */ memories: number; /** @isInt */ signals: number };
  /** Entries left out because their title was already on the desk. */
  skipped: { /** @isInt */ memories: number; /** @isInt */ signals: number };
}

// Dashboard preferences and the digest

/** A member's dashboard preferences changed (PUT) or were reset (DELETE); `fields` names what changed (empty on reset). */
export interface DashboardPrefsChangedData {
  userId: string;
  fields: string[];
}

/** A digest went out to one recipient (the daily schedule or a one-shot preview). */
export interface DigestSentData {
  trigger: DigestTrigger;
  userId: string;
  recipientLabel: string;
  subject: string;
  /** smtp (DESK_SMTP_URL) or outbox (an .eml file in the data folder's outbox/). */
  delivery: DigestDelivery;
  /** @isInt */
  approvalsWaiting: number;
}

/** A recipient's digest was muted by their preferences or had no address. */
export interface DigestMutedData {
  trigger: DigestTrigger;
  userId: string;
  recipientLabel: string;
  reason: DigestMuteReason;
}
