import type { Generated } from 'kysely';
// Enum columns carry the shared vocabulary's unions (type-only imports of leaves: db/ imports no
// area), so no area casts what it reads.
import type { ActivityKind } from '../server/domain/catalog/activity-kinds';
import type {
  ActiveWorkSort,
  ArtifactAuthorKind,
  ArtifactKind,
  ArtifactStatus,
  AttemptOutcome,
  AttemptTrigger,
  CostDimension,
  DeliveryState,
  Density,
  DigestDelivery,
  DigestOutcome,
  DigestTrigger,
  DisabledReason,
  EngineKind,
  GuardDimension,
  InviteRole,
  McpTokenScope,
  LoopState,
  MemberRole,
  MemoryKind,
  Plan,
  ReactionEmoji,
  ReviewAvailability,
  RunStatus,
  RunTrigger,
  SignalKind,
  SignalPriority,
  SourceStatus,
  SourceType,
  SpikeAction,
  StructuredOutputMode,
  TaskDeliverableType,
  TaskKind,
  TaskPriority,
  TaskStatus,
  TaskViewKind,
} from '../server/core/vocabulary';

/** Typed rows of every table. Booleans are stored as 0/1, JSON arrays as TEXT, times as ISO strings. */

export interface WorkspaceTable {
  id: string;
  name: string;
  ownerUserId: string;
  ingestToken: string;
  plan: Plan;
  timezone: string;
  loopState: LoopState;
  pauseUntilAt: string | null;
  loopIntervalMinutes: number;
  watchHours: number;
  overdueHours: number;
  focusTags: string;
  staleTaskAutoArchiveDays: number | null;
  staleMemoryAutoArchiveDays: number | null;
  taskCostSpikeAction: SpikeAction;
  sourceCostSpikeAction: SpikeAction;
  sourceChronicSpikeAction: SpikeAction;
  sourceChronicThresholdDays: number;
  tagCostSpikeAction: SpikeAction;
  dailyCostCapUsdCents: number | null;
  digestEmail: string | null;
  relayUrl: string | null;
  createdAt: string;
  updatedAt: string;
  /** The loop's engine (0011); the API key is kept outside the database. */
  engine: EngineKind;
  engineModel: string | null;
  engineBaseUrl: string | null;
  /** The workspace-timezone day the cost-cap stop was last announced (cost.cap_reached once a day). */
  costCapAnnouncedDay: string | null;
  /** The operator's price of the model, integer micro-USD per million tokens (0019); null: the price table, else 0 on this machine. */
  engineInputPrice: number | null;
  engineOutputPrice: number | null;
  /** How the server takes a structured answer, once found (0019); null until found. */
  engineStructuredOutput: StructuredOutputMode | null;
  /** Why the desk paused its own loop (0019); null when the operator set the state. */
  loopPauseReason: string | null;
}

export interface UserTable {
  id: string;
  name: string;
  email: string | null;
  role: MemberRole;
  createdAt: string;
  /** Reviewer availability (0009); `available` for a new member. */
  availability: Generated<ReviewAvailability>;
  /** When the member was removed (0009); null while a member. The row stays: other rows name it. */
  removedAt: Generated<string | null>;
}

/** A pending invite (0009); accepting turns it into a user, revoking deletes it. */
export interface InviteTable {
  id: string;
  email: string;
  role: InviteRole;
  invitedByUserId: string;
  createdAt: string;
}

export interface TaskTemplateTable {
  id: string;
  label: string;
  emoji: string | null;
  hint: string | null;
  title: string;
  summary: string;
  goal: string | null;
  kind: TaskKind;
  deliverableType: TaskDeliverableType;
  priority: TaskPriority | null;
  /** JSON array of tags. */
  tags: string;
  usageCount: number;
  lastUsedAt: string | null;
  createdByUserId: string;
  createdAt: string;
  updatedAt: string;
}

export interface SharedSavedSearchTable {
  id: string;
  name: string;
  query: string;
  createdByUserId: string;
  createdAt: string;
}

export interface FocusShiftTable {
  id: string;
  tags: string;
  startedAt: string;
}

export interface ActivityTable {
  id: string;
  kind: ActivityKind;
  detail: string;
  actorUserId: string | null;
  actorLabel: string;
  entityType: string | null;
  entityId: string | null;
  createdAt: string;
}

export interface OutboxEventTable {
  id: string;
  event: string;
  payload: string;
  createdAt: string;
  deliveredAt: string | null;
}

export interface SchedulerJobTable {
  name: string;
  lastRunAt: string | null;
  lastFinishedAt: string | null;
  lastError: string | null;
  runCount: Generated<number>;
}

export interface SourceTable {
  id: string;
  type: SourceType;
  label: string;
  url: string | null;
  notes: string | null;
  status: SourceStatus;
  pausedAt: string | null;
  pausedUntilAt: string | null;
  pollIntervalMinutes: number | null;
  includeKeywords: string;
  excludeKeywords: string;
  lastSyncedAt: string | null;
  lastPolledAt: string | null;
  lastErrorMessage: string | null;
  lastSignalAt: string | null;
  consecutiveFailures: number;
  nextRetryAt: string | null;
  etag: string | null;
  lastModified: string | null;
  quietnessAckedAt: string | null;
  quietnessWarnedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /**
   * File sources (0007): the file's path in its one spelling (`filePathKey`), unique among file
   * sources (index `sources_file_path`); null for other types.
   */
  filePath: string | null;
}

export interface SignalTable {
  id: string;
  kind: SignalKind;
  priority: SignalPriority;
  title: string;
  detail: string;
  sourceUrl: string | null;
  sourceId: string | null;
  pinned: number;
  createdAt: string;
  /** Sender's id of a pushed signal (0003); unique when set. */
  externalId?: string | null;
  /** When a loop cycle took the signal in (0011); null while new for the loop. */
  triagedAt: Generated<string | null>;
  /** When the feed item says it was published (0021); null when unknown. */
  publishedAt: Generated<string | null>;
}

export interface SignalReactionTable {
  signalId: string;
  userId: string;
  emoji: ReactionEmoji;
  createdAt: string;
}

export interface FeedItemSeenTable {
  sourceId: string;
  itemKey: string;
  seenAt: string;
}

export interface IdempotencyKeyTable {
  key: string;
  response: string;
  createdAt: string;
}

export interface IngestTokenTable {
  id: string;
  sourceId: string;
  label: string;
  /** SHA-256 (hex) of the token; the token itself is never stored. */
  tokenHash: string;
  tokenHint: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** MCP tokens (0020): bearer tokens of AI assistants on /mcp; the token itself is never stored. */
export interface McpTokenTable {
  id: string;
  label: string;
  scope: McpTokenScope;
  /** SHA-256 (hex) of the token. */
  tokenHash: string;
  tokenHint: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** Tasks (0008). Costs are integer tokens and micro-USD; the id lists are JSON arrays. */
export interface TaskTable {
  id: string;
  title: string;
  summary: string;
  kind: TaskKind | null;
  deliverableType: TaskDeliverableType | null;
  priority: TaskPriority | null;
  dueAt: string | null;
  status: TaskStatus;
  assignedToUserId: string | null;
  goal: string;
  context: string;
  pinned: number;
  sourceSignalIds: string;
  sourceMemoryIds: string;
  archiveWarnedAt: string | null;
  archivedAt: string | null;
  archivedBySweep: number;
  publicWorkLogToken: string | null;
  publicTimelineToken: string | null;
  totalInputTokens: number;
  totalOutputTokens: number;
  costMicroUsd: number;
  sessionCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface TaskTagTable {
  taskId: string;
  tag: string;
}

/** `taskId` waits on `blockerTaskId`. */
export interface TaskBlockerTable {
  taskId: string;
  blockerTaskId: string;
}

/** Operator notes: authoritative direction for the next AI cycle. */
export interface TaskNoteTable {
  id: string;
  taskId: string;
  text: string;
  authorUserId: string | null;
  createdAt: string;
  /** When a cycle read the note as direction (0011); null until then. */
  consumedAt: Generated<string | null>;
  consumedRunId: Generated<string | null>;
}

/** One entry per AI cycle on the task. */
export interface TaskWorkLogTable {
  id: string;
  taskId: string;
  entry: string;
  createdAt: string;
}

/** Share-page views per workspace-timezone day. */
export interface TaskViewTable {
  taskId: string;
  kind: TaskViewKind;
  day: string;
  count: number;
}

/** A comment on a task (0010); replies are one level deep (parentCommentId is a top-level comment). */
export interface TaskCommentTable {
  id: string;
  taskId: string;
  parentCommentId: string | null;
  authorUserId: string;
  text: string;
  createdAt: string;
}

export interface CommentReactionTable {
  commentId: string;
  userId: string;
  emoji: ReactionEmoji;
  createdAt: string;
}

/** A member named as `@name` in a comment (0010); one row per comment and member. */
export interface CommentMentionTable {
  id: string;
  commentId: string;
  userId: string;
  acknowledgedAt: string | null;
  createdAt: string;
}

/** A memory entry (0011). Attributed cost in integer tokens and micro-USD; archived by the stale sweep. */
export interface MemoryTable {
  id: string;
  kind: MemoryKind;
  title: string;
  content: string;
  importance: number | null;
  pinned: Generated<number>;
  retrievalCount: Generated<number>;
  lastRetrievedAt: Generated<string | null>;
  totalAttributedInputTokens: Generated<number>;
  totalAttributedOutputTokens: Generated<number>;
  costMicroUsd: Generated<number>;
  createdByRunId: Generated<string | null>;
  archivedAt: Generated<string | null>;
  createdAt: string;
  updatedAt: string;
}

export interface MemoryTagTable {
  memoryId: string;
  tag: string;
}

export interface MemoryReactionTable {
  memoryId: string;
  userId: string;
  emoji: ReactionEmoji;
  createdAt: string;
}

/** Retrievals of one entry on one workspace-timezone day. */
export interface MemoryRetrievalDailyTable {
  memoryId: string;
  day: string;
  count: number;
}

/** FTS5 index of memory (kept by triggers; read with bm25()). */
export interface MemoryFtsTable {
  memoryId: string;
  title: string;
  content: string;
  tags: string;
}

/** A row of the search index (0014): which source row an FTS rowid stands for (kept by triggers). */
export interface SearchDocTable {
  docId: number;
  /** signal, task, artifact, memory, comment, activity or source. */
  kind: string;
  /** The source row's id. */
  ref: string;
  /** A comment's task; null for other kinds. */
  parent: string | null;
  /** When the row was created (its created_at). */
  at: string;
}

/** FTS5 search index (0014; rowid = search_docs.doc_id, kept by triggers; read with MATCH, bm25, snippet). */
export interface SearchFtsTable {
  title: string;
  body: string;
  tags: string;
  kind: string;
}

/** A row waiting for the search index (0018): a new signal or its arrival activity row. */
export interface SearchQueueTable {
  kind: 'signal' | 'activity';
  ref: string;
}

/** One loop cycle (0011). Id lists are JSON arrays. */
export interface RunTable {
  id: string;
  trigger: RunTrigger;
  status: RunStatus;
  engine: string;
  model: string;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  engineMs: number | null;
  inputTokens: Generated<number>;
  outputTokens: Generated<number>;
  costMicroUsd: Generated<number>;
  readSignalIds: Generated<string>;
  readTaskIds: Generated<string>;
  readMemoryIds: Generated<string>;
  readNoteIds: Generated<string>;
  createdTaskIds: Generated<string>;
  updatedTaskIds: Generated<string>;
  artifactIds: Generated<string>;
  memoryIds: Generated<string>;
  errorMessage: string | null;
  skipReason: string | null;
  /** What was left of the day's cost cap when the cycle began, micro-USD (0019); null: no cap. */
  budgetMicroUsd: Generated<number | null>;
  /** The completion bound the model call was given (0019). */
  maxOutputTokens: Generated<number | null>;
  /** When the operator cancelled the cycle (0019); the run is `failed`. */
  cancelledAt: Generated<string | null>;
  /** The engine's account of the cycle's rules (0021); null when it gave none. */
  explanation: Generated<string | null>;
}

/** An output (0011): waits in the review queue while `ready`. */
export interface ArtifactTable {
  id: string;
  taskId: string | null;
  runId: string | null;
  parentArtifactId: string | null;
  version: number;
  kind: ArtifactKind;
  title: string;
  content: string;
  status: ArtifactStatus;
  pinned: Generated<number>;
  sourceSignalIds: Generated<string>;
  sourceMemoryIds: Generated<string>;
  publicShareToken: Generated<string | null>;
  readyAt: string;
  decidedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Who wrote this version (0021): the engine (a cycle) or a member (an edit, a reopen). */
  authorKind: Generated<ArtifactAuthorKind>;
  authorUserId: Generated<string | null>;
  /** A ready version a newer one replaced (0021): out of the queue, still in the chain. */
  supersededAt: Generated<string | null>;
  supersededById: Generated<string | null>;
}

export interface ArtifactTagTable {
  artifactId: string;
  tag: string;
}

export interface ArtifactReactionTable {
  artifactId: string;
  userId: string;
  emoji: ReactionEmoji;
  createdAt: string;
}

/** Daily cost bucket of one dimension key (task id, source id, tag, assignee id, memory id; `workspace` for the total). */
export interface CostDailyTable {
  dimension: CostDimension;
  key: string;
  day: string;
  inputTokens: number;
  outputTokens: number;
  costMicroUsd: number;
}

/** The spike detector's state of one watched entity (0012); see the migration for each column. */
export interface CostWatchTable {
  dimension: GuardDimension;
  key: string;
  lastSpikeDay: Generated<string | null>;
  consecutiveSpikeDays: Generated<number>;
  spikeEventDay: Generated<string | null>;
  chronicEventDay: Generated<string | null>;
  spikeAckedAt: Generated<string | null>;
  spikeAckDay: Generated<string | null>;
  chronicAckedAt: Generated<string | null>;
  pausedAt: Generated<string | null>;
  chronicPausedAt: Generated<string | null>;
}

/** The detector's high-water mark (one row, id 1). */
export interface CostGuardStateTable {
  id: number;
  closedThroughDay: string | null;
}

/** An outbound webhook subscription (issue 13). `active` is false when paused or disabled. */
export interface OutboundSubscriptionTable {
  id: string;
  url: string;
  label: string | null;
  /** `whsec_<base64>`: the signing secret, shown once at create; never logged nor answered again. */
  secret: string;
  secretHint: string;
  active: number;
  disabledReason: DisabledReason | null;
  disabledAt: string | null;
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface OutboundSubscriptionEventTable {
  subscriptionId: string;
  event: string;
}

/** One event for one subscription; `eventId` is the `webhook-id`, `payload` the exact bytes sent. */
export interface OutboundDeliveryTable {
  id: string;
  subscriptionId: string;
  eventId: string;
  event: string;
  payload: string;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  createdAt: string;
  finishedAt: string | null;
}

/** The delivery log: one row per HTTP attempt. */
export interface OutboundAttemptTable {
  id: string;
  deliveryId: string;
  subscriptionId: string;
  eventId: string;
  event: string;
  url: string;
  attemptNumber: number;
  trigger: AttemptTrigger;
  outcome: AttemptOutcome;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  durationMs: number;
  nextRetryAt: string | null;
  createdAt: string;
}

/** A member's dashboard preferences (0015); no row = the defaults. JSON text for lists and per-axis maps. */
export interface DashboardPrefsTable {
  userId: string;
  collapsedPanels: string;
  digestPersonalSections: string;
  collapsedActivityBuckets: string;
  digestQuietWeekends: number;
  digestQuietHoursStart: number | null;
  digestQuietHoursEnd: number | null;
  panelOrder: string;
  activeWorkSort: ActiveWorkSort;
  costPanelColumns: string;
  costPanelOrder: string;
  costPanelOrderUpdatedAt: string;
  density: Density;
  densityUpdatedAt: string | null;
  updatedAt: string;
}

/** A member's filter on one task's comments (0015). */
export interface DashboardCommentFilterTable {
  userId: string;
  taskId: string;
  q: string | null;
  authorId: string | null;
  updatedAt: string;
}

/** The production digest's one-row state (0015): the 22-hour gate and the day it last ran for. */
export interface DigestStateTable {
  id: number;
  lastRunAt: string | null;
  lastRunDay: string | null;
}

/** One recorded digest gating decision (0015). */
export interface DigestAuditTable {
  id: string;
  createdAt: string;
  trigger: DigestTrigger;
  userId: string;
  recipientLabel: string;
  recipientEmail: string | null;
  outcome: DigestOutcome;
  reason: string;
  delivery: DigestDelivery | null;
  subject: string | null;
  detail: string;
}

/** A member's vote on a roadmap item (server/domain/roadmap). */
export interface RoadmapVoteTable {
  itemKey: string;
  userId: string;
  votedAt: string;
}

/** The badge's read-only token (server/domain/badge): at most one row, id 1. */
export interface BadgeTokenTable {
  id: number;
  token: string;
  issuedAt: string;
}

export interface DB {
  workspace: WorkspaceTable;
  users: UserTable;
  dashboardPrefs: DashboardPrefsTable;
  dashboardCommentFilters: DashboardCommentFilterTable;
  digestState: DigestStateTable;
  digestAudit: DigestAuditTable;
  focusShifts: FocusShiftTable;
  activity: ActivityTable;
  outboxEvents: OutboxEventTable;
  schedulerJobs: SchedulerJobTable;
  sources: SourceTable;
  signals: SignalTable;
  signalReactions: SignalReactionTable;
  feedItemsSeen: FeedItemSeenTable;
  idempotencyKeys: IdempotencyKeyTable;
  ingestTokens: IngestTokenTable;
  mcpTokens: McpTokenTable;
  tasks: TaskTable;
  taskTags: TaskTagTable;
  taskBlockers: TaskBlockerTable;
  taskNotes: TaskNoteTable;
  taskWorkLog: TaskWorkLogTable;
  taskViews: TaskViewTable;
  taskComments: TaskCommentTable;
  commentReactions: CommentReactionTable;
  commentMentions: CommentMentionTable;
  invites: InviteTable;
  taskTemplates: TaskTemplateTable;
  sharedSavedSearches: SharedSavedSearchTable;
  memory: MemoryTable;
  memoryTags: MemoryTagTable;
  memoryReactions: MemoryReactionTable;
  memoryRetrievalDaily: MemoryRetrievalDailyTable;
  memoryFts: MemoryFtsTable;
  runs: RunTable;
  artifacts: ArtifactTable;
  artifactTags: ArtifactTagTable;
  artifactReactions: ArtifactReactionTable;
  costDaily: CostDailyTable;
  costWatch: CostWatchTable;
  costGuardState: CostGuardStateTable;
  outboundSubscriptions: OutboundSubscriptionTable;
  outboundSubscriptionEvents: OutboundSubscriptionEventTable;
  outboundDeliveries: OutboundDeliveryTable;
  outboundAttempts: OutboundAttemptTable;
  searchDocs: SearchDocTable;
  searchFts: SearchFtsTable;
  searchQueue: SearchQueueTable;
  roadmapVotes: RoadmapVoteTable;
  badgeToken: BadgeTokenTable;
}
