import { PLANS } from '../config';
import { RUN_LIST, RUN_SKIP_REASONS, RUN_STATUSES, RUN_TRIGGERS } from '../domain/loop/rules';
import { RUNTIME_PHASES } from '../domain/loop/schedule';
import { STALE_EXPORT_THRESHOLD } from '../domain/exports/rules';
import { MAX_BULK_IDS, MAX_ID_LENGTH, MAX_URL_LENGTH, MIN_BULK_IDS } from '../core/input';
import type { ListSpec } from '../core/lists';
import { ACTIVITY_LIST, MAX_ACTIVITY_QUERY_LENGTH } from '../domain/activity/activity-rules';
import { MAX_SEARCH_QUERY_LENGTH, SEARCH_LIMIT } from '../domain/search/rules';
import { CATEGORY_RECENT_LIMIT, TEMPLATE_RECENT_LIMIT, TEMPLATE_SEARCH_LIMIT, TEMPLATE_SEARCH_MAX_QUERY } from '../domain/onboarding/rules';
import { ACTIVITY_KINDS } from '../domain/catalog/activity-kinds';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../domain/idempotency/idempotency';
import { REACTION_EMOJIS } from '../domain/reactions/reactions';
import { SIGNAL_KINDS, SIGNAL_PRIORITIES } from '../domain/signals/signal-store';
import { MAX_DETAIL_LENGTH, MAX_EXTERNAL_ID_LENGTH, MAX_TITLE_LENGTH, MAX_WEBHOOK_BATCH, SIGNAL_LIST } from '../domain/signals/signal-rules';
import {
  CHRONIC_THRESHOLD_DAYS,
  DAILY_COST_CAP_CENTS,
  FOCUS_HISTORY_DAYS,
  FOCUS_HISTORY_LIST,
  FOCUS_TAG_INPUT_PATTERN,
  LOOP_INTERVAL_MINUTES,
  LOOP_STATES,
  MAX_FOCUS_TAGS,
  MAX_TAG_LENGTH,
  OVERDUE_HOURS,
  SPIKE_ACTIONS,
  STALE_MEMORY_DAYS,
  STALE_TASK_DAYS,
  WATCH_HOURS,
  type IntRange,
} from '../domain/workspace/rules';
import { RELAY_URL_MAX_LENGTH } from '../domain/relay/relay-settings';
import { ENGINE_KINDS, MAX_API_KEY_LENGTH, MAX_BASE_URL_LENGTH, MAX_MODEL_LENGTH } from '../domain/engine-settings/rules';
import { MAX_PRICE_PER_MILLION_USD } from '../domain/engine-settings/price-settings';
import { MAX_INGEST_TOKEN_LABEL_LENGTH } from '../domain/ingest/rules';
import { MAX_MCP_TOKEN_LABEL_LENGTH, MCP_TOKEN_SCOPES } from '../domain/mcp-tokens/rules';
import { ATTEMPT_OUTCOMES, ATTEMPT_TRIGGERS, DELIVERIES_LIST, DELIVERY_STATES, DISABLED_REASONS, MAX_SUBSCRIPTION_LABEL, OUTBOUND_BULK_ACTIONS, SUBSCRIPTION_STATUSES } from '../domain/outbound/rules';
import {
  MAX_KEYWORDS,
  MAX_LABEL_CHARS,
  MAX_NOTES_CHARS,
  MAX_POLL_INTERVAL,
  MIN_POLL_INTERVAL,
  SOURCE_LIST,
  SOURCE_STATUS_CHANGES,
  SOURCE_STATUSES,
  SOURCE_TYPES,
} from '../domain/sources/rules';
import { BULK_ACTIONS } from '../domain/sources/source-bulk';
import { MAX_COMMENT_LENGTH, MAX_COMMENT_QUERY_LENGTH, MENTION_LIST, MIN_COMMENT_LENGTH } from '../domain/comments/comment-rules';
import { INVITE_ROLES, MAX_EMAIL_LENGTH, MAX_MEMBER_NAME_LENGTH, MEMBER_ROLES, REVIEW_AVAILABILITIES } from '../domain/members/rules';
import {
  MAX_TEMPLATE_TAGS,
  TEMPLATE_EMOJI_MAX,
  TEMPLATE_GOAL_MAX,
  TEMPLATE_HINT_MAX,
  TEMPLATE_LABEL,
  TEMPLATE_SUMMARY,
  TEMPLATE_TITLE,
} from '../domain/templates/rules';
import { SAVED_SEARCH_NAME, SAVED_SEARCH_QUERY } from '../domain/saved-searches/rules';
import {
  IMPORTANCE,
  MAX_MEMORY_QUERY,
  MAX_MEMORY_TAG_LENGTH,
  MAX_MEMORY_TAGS,
  MEMORY_BULK_ACTIONS,
  MEMORY_CONTENT,
  MEMORY_KINDS,
  MEMORY_LIST,
  MEMORY_TITLE,
  STALE_MEMORY_LIST,
  STALE_MEMORY_THRESHOLD,
  TOP_LIMIT,
  TRAJECTORY_DAYS,
} from '../domain/memory/rules';
import {
  AUTO_ARCHIVED_LIST,
  AUTO_ARCHIVED_SINCE_DAYS,
  MAX_BLOCKERS,
  MAX_NOTE_CHARS,
  MAX_TASK_GOAL,
  MAX_TASK_SUMMARY,
  MAX_TASK_TAG_LENGTH,
  MAX_TASK_TAGS,
  MAX_TASK_TITLE,
  NOTE_LIST,
  STALE_LIST,
  STALE_THRESHOLD_DAYS,
  TASK_BULK_ACTIONS,
  TASK_DELIVERABLE_TYPES,
  TASK_KINDS,
  TASK_LIST,
  TASK_PRIORITIES,
  TASK_STATUS_MOVES,
  TASK_STATUSES,
  TIMELINE_LIST,
} from '../domain/tasks/rules';
import { COST_BREAKDOWN_LIMIT, COST_TRAJECTORY_DAYS, TOP_COST_TASKS_LIMIT } from '../domain/cost/rules';
import { EXPORT_FORMATS } from '../core/csv';
import { INBOX_STALE_DAYS, INSIGHTS_TAG_LIMIT, REACTIONS_TOP_LIMIT } from '../domain/overview/rules';
import {
  ACTIVE_WORK_SORTS,
  ACTIVITY_BUCKETS,
  COST_PANEL_COLUMNS,
  COST_PANEL_SORTS,
  DENSITIES,
  DIGEST_SECTIONS,
  MAX_COMMENT_FILTER_Q,
  MAX_COMMENT_FILTERS_PER_PUT,
  MAX_PANELS,
  QUIET_HOUR,
} from '../domain/dashboard-prefs/rules';
import { AUDIT_LIMIT, AUDIT_SINCE_DAYS, DIGEST_DELIVERIES, DIGEST_OUTCOMES, DIGEST_REASONS, DIGEST_TRIGGERS } from '../domain/digest/rules';
import { CADENCE_DAYS, CHANGELOG_LIMIT, SINCE_REV, TREND_VERBS } from '../domain/changelog/rules';
import { BLOG_LIMIT, BLOG_RELATED_LIMIT, MAX_BLOG_QUERY, MAX_BLOG_TAG_FILTER } from '../domain/blog/rules';
import { ROADMAP_PHASES, ROADMAP_STATUSES } from '../domain/roadmap/rules';
import { INTEGRATION_AXES } from '../domain/integrations-catalog/catalog';
import { TASK_SORTS } from '../domain/tasks/task-sort';
import { APPROVAL_ATTENTIONS, ARTIFACT_CONTENT, ARTIFACT_KINDS, ARTIFACT_TITLE, ARTIFACT_LIST, ARTIFACT_STATUSES, BULK_DECISION_ACTIONS, DECISIONS_LIST, DECISIONS_WINDOW_MAX_DAYS, MAX_ARTIFACT_TAGS } from '../domain/artifacts/rules';
import { TAG_SEARCH_LIST } from '../domain/tags/tag-rules';
import {
  ASSIGNEE_CHRONIC_LIST,
  ASSIGNEE_SPIKES_LIST,
  MEMORY_CHRONIC_LIST,
  MEMORY_SPIKES_LIST,
  SOURCE_CHRONIC_LIST,
  SOURCE_SPIKES_LIST,
  TAG_CHRONIC_LIST,
  TAG_SPIKES_LIST,
  TASK_SPIKES_LIST,
} from '../domain/cost-guard/rules';

/**
 * The domain rules the OpenAPI document states. A row's bounds (minimum ... pattern) are written
 * here only: `npm run gen` puts them into tsoa's metadata (apply-bounds.ts), so run-time validation,
 * the OpenAPI document and the renderer's rules.gen.ts all follow the domain constant; a row's key
 * order is the keywords' order in the document. Enums and defaults come from the TypeScript types
 * and parameter defaults; their rows are checks. `at` is `Schema.property` (`.items` for an array
 * of an alias type), `Alias`, or `operationId?parameter` for a query parameter; bounds.test.ts
 * checks every row against the served document.
 */
export interface DocumentedRule {
  at: string;
  enum?: readonly (string | null)[];
  /** The enum's order carries no meaning (tsoa lists a long union in TypeScript's own order). */
  anyOrder?: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  /** A validation message of its own for a bound (tsoa's `errorMsg`), else tsoa's. */
  messages?: Partial<Record<'minimum' | 'maximum' | 'minLength' | 'maxLength' | 'minItems' | 'maxItems' | 'pattern', string>>;
  default?: number | string;
}

const range = (at: string, r: IntRange): DocumentedRule => ({ at, minimum: r.min, maximum: r.max });
/** A list's `limit` (server/core/lists.ts): 1 to its maximum. */
const list = (spec: ListSpec): DocumentedRule => ({ at: `${spec.operationId}?limit`, minimum: 1, maximum: spec.maxLimit, default: spec.defaultLimit });
const bulkIds = (at: string): DocumentedRule => ({ at, minItems: MIN_BULK_IDS, maxItems: MAX_BULK_IDS });
const text = (at: string, b: { min: number; max: number }): DocumentedRule => ({ at, minLength: b.min, maxLength: b.max });
/** A task template body's bounds (create and patch share them). */
const templateRules = (schema: string): DocumentedRule[] => [
  text(`${schema}.label`, TEMPLATE_LABEL),
  { at: `${schema}.emoji`, maxLength: TEMPLATE_EMOJI_MAX },
  { at: `${schema}.hint`, maxLength: TEMPLATE_HINT_MAX },
  text(`${schema}.title`, TEMPLATE_TITLE),
  text(`${schema}.summary`, TEMPLATE_SUMMARY),
  { at: `${schema}.goal`, maxLength: TEMPLATE_GOAL_MAX },
  { at: `${schema}.tags`, maxItems: MAX_TEMPLATE_TAGS },
];

export const documentedRules: DocumentedRule[] = [
  // every list's page size (the digest audit's is AUDIT_LIMIT, below)
  ...[ACTIVITY_LIST, TASK_LIST, NOTE_LIST, STALE_LIST, AUTO_ARCHIVED_LIST, TIMELINE_LIST, FOCUS_HISTORY_LIST, DELIVERIES_LIST, SIGNAL_LIST, SOURCE_LIST, RUN_LIST].map(list),
  ...[MENTION_LIST, DECISIONS_LIST, ARTIFACT_LIST, TAG_SEARCH_LIST, MEMORY_LIST, STALE_MEMORY_LIST].map(list),
  ...[TASK_SPIKES_LIST, SOURCE_SPIKES_LIST, MEMORY_SPIKES_LIST, MEMORY_CHRONIC_LIST, ASSIGNEE_SPIKES_LIST, ASSIGNEE_CHRONIC_LIST, SOURCE_CHRONIC_LIST, TAG_SPIKES_LIST, TAG_CHRONIC_LIST].map(list),
  // the loop: run records and the runtime phase
  { at: 'RunStatus', enum: RUN_STATUSES },
  { at: 'RunTrigger', enum: RUN_TRIGGERS },
  { at: 'RunSkipReason', enum: RUN_SKIP_REASONS },
  { at: 'RuntimePhase', enum: RUNTIME_PHASES },
  { at: 'SignalKind', enum: SIGNAL_KINDS },
  { at: 'SignalPriority', enum: SIGNAL_PRIORITIES },
  { at: 'NewSignalBody.title', minLength: 1, maxLength: MAX_TITLE_LENGTH },
  { at: 'NewSignalBody.detail', maxLength: MAX_DETAIL_LENGTH },
  { at: 'NewSignalBody.sourceUrl', maxLength: MAX_URL_LENGTH },
  { at: 'ReactionEmoji', enum: REACTION_EMOJIS },
  { at: 'ActivityKind', enum: ACTIVITY_KINDS, anyOrder: true },
  { at: 'ListActivity?q', maxLength: MAX_ACTIVITY_QUERY_LENGTH },
  // search and tags (server/domain/search, server/domain/tags)
  { at: 'Search?q', minLength: 1, maxLength: MAX_SEARCH_QUERY_LENGTH },
  { at: 'Search?limit', minimum: SEARCH_LIMIT.min, maximum: SEARCH_LIMIT.max, default: SEARCH_LIMIT.default },
  { at: 'SearchTag?tag', maxLength: MAX_TAG_LENGTH },
  { at: 'TagRenameBody.from', pattern: FOCUS_TAG_INPUT_PATTERN.source, maxLength: MAX_TAG_LENGTH },
  { at: 'TagRenameBody.to', pattern: FOCUS_TAG_INPUT_PATTERN.source, maxLength: MAX_TAG_LENGTH },
  // the inbound webhook
  { at: 'InboundSignalItem.title', minLength: 1, maxLength: MAX_TITLE_LENGTH },
  { at: 'InboundSignalItem.detail', maxLength: MAX_DETAIL_LENGTH },
  { at: 'InboundSignalItem.sourceUrl', maxLength: MAX_URL_LENGTH },
  { at: 'InboundSignalItem.externalId', minLength: 1, maxLength: MAX_EXTERNAL_ID_LENGTH },
  { at: 'InboundSignalItem.sourceId', minLength: 1, maxLength: MAX_ID_LENGTH },
  { at: 'InboundSignal.idempotencyKey', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
  { at: 'InboundSignalBatch.signals', minItems: 1, maxItems: MAX_WEBHOOK_BATCH },
  { at: 'InboundSignalBatch.idempotencyKey', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
  // sources
  { at: 'SourceType', enum: SOURCE_TYPES, anyOrder: true },
  { at: 'SourceStatus', enum: SOURCE_STATUSES },
  { at: 'SourceStatusChange', enum: SOURCE_STATUS_CHANGES },
  { at: 'BulkAction', enum: BULK_ACTIONS },
  { at: 'CreateSourceBody.label', minLength: 1, maxLength: MAX_LABEL_CHARS },
  { at: 'CreateSourceBody.url', maxLength: MAX_URL_LENGTH },
  { at: 'CreateSourceBody.notes', maxLength: MAX_NOTES_CHARS },
  { at: 'CreateSourceBody.pollIntervalMinutes', minimum: MIN_POLL_INTERVAL, maximum: MAX_POLL_INTERVAL },
  { at: 'CreateSourceBody.includeKeywords', maxItems: MAX_KEYWORDS },
  { at: 'CreateSourceBody.excludeKeywords', maxItems: MAX_KEYWORDS },
  { at: 'SourcePatchBody.label', minLength: 1, maxLength: MAX_LABEL_CHARS },
  { at: 'SourcePatchBody.pollIntervalMinutes', minimum: MIN_POLL_INTERVAL, maximum: MAX_POLL_INTERVAL },
  { at: 'KeywordsBody.includeKeywords', maxItems: MAX_KEYWORDS },
  { at: 'KeywordsBody.excludeKeywords', maxItems: MAX_KEYWORDS },
  { at: 'PreviewBody.url', maxLength: MAX_URL_LENGTH },
  { at: 'BulkCadenceBody.pollIntervalMinutes', minimum: MIN_POLL_INTERVAL, maximum: MAX_POLL_INTERVAL },
  { at: 'BulkRenameBody.findText', minLength: 1, maxLength: MAX_LABEL_CHARS },
  { at: 'BulkRenameBody.replaceText', maxLength: MAX_LABEL_CHARS },
  // integrations
  { at: 'RelayUrlBody.relayUrl', maxLength: RELAY_URL_MAX_LENGTH },
  // scoped ingest URLs
  { at: 'CreateIngestTokenBody.label', minLength: 1, maxLength: MAX_INGEST_TOKEN_LABEL_LENGTH },
  // MCP tokens
  { at: 'CreateMcpTokenBody.label', minLength: 1, maxLength: MAX_MCP_TOKEN_LABEL_LENGTH },
  { at: 'McpTokenScope', enum: MCP_TOKEN_SCOPES },
  // task comments
  { at: 'NewCommentBody.text', minLength: MIN_COMMENT_LENGTH, maxLength: MAX_COMMENT_LENGTH },
  { at: 'ListTaskComments?q', maxLength: MAX_COMMENT_QUERY_LENGTH },

  // tasks
  { at: 'TaskStatus', enum: TASK_STATUSES, anyOrder: true },
  { at: 'TaskStatusMove', enum: TASK_STATUS_MOVES, anyOrder: true },
  { at: 'TaskKind', enum: TASK_KINDS, anyOrder: true },
  { at: 'TaskDeliverableType', enum: TASK_DELIVERABLE_TYPES, anyOrder: true },
  { at: 'TaskPriority', enum: TASK_PRIORITIES, anyOrder: true },
  { at: 'TaskBulkAction', enum: TASK_BULK_ACTIONS, anyOrder: true },
  { at: 'CreateTaskBody.title', minLength: 1, maxLength: MAX_TASK_TITLE },
  { at: 'CreateTaskBody.summary', minLength: 1, maxLength: MAX_TASK_SUMMARY },
  { at: 'CreateTaskBody.goal', maxLength: MAX_TASK_GOAL },
  { at: 'CreateTaskBody.context', maxLength: MAX_TASK_GOAL },
  { at: 'CreateTaskBody.tags', maxItems: MAX_TASK_TAGS },
  { at: 'TaskTagsBody.tags', maxItems: MAX_TASK_TAGS },
  { at: 'TaskBulkBody.tag', maxLength: MAX_TASK_TAG_LENGTH },
  { at: 'TaskBlockersBody.blockedByTaskIds', maxItems: MAX_BLOCKERS },
  { at: 'TaskNoteBody.text', minLength: 1, maxLength: MAX_NOTE_CHARS },
  { at: 'TaskRenewBody.note', minLength: 1, maxLength: MAX_NOTE_CHARS },
  { at: 'TaskNoteAddedData.text', maxLength: MAX_NOTE_CHARS },
  { ...range('ListStaleTasks?thresholdDays', STALE_THRESHOLD_DAYS), default: STALE_THRESHOLD_DAYS.default },
  { ...range('ListAutoArchivedTasks?sinceDays', AUTO_ARCHIVED_SINCE_DAYS), default: AUTO_ARCHIVED_SINCE_DAYS.default },
  // exports (server/domain/exports/rules.ts)
  { ...range('ExportStaleTasks?thresholdDays', STALE_EXPORT_THRESHOLD), default: STALE_EXPORT_THRESHOLD.default },

  // bulk bodies: one id limit for every area (server/core/input.ts)
  bulkIds('SignalBulkBody.signalIds'),
  bulkIds('BulkBody.sourceIds'),
  bulkIds('BulkCadenceBody.sourceIds'),
  bulkIds('BulkRenameBody.sourceIds'),
  bulkIds('SourceIdsBody.sourceIds'),
  bulkIds('TaskBulkBody.taskIds'),
  // cost guardrails (server/domain/cost-guard)
  bulkIds('TaskIdsBody.taskIds'),
  bulkIds('MemoryIdsBody.memoryIds'),
  bulkIds('AssigneeIdsBody.assigneeUserIds'),
  bulkIds('TagsBody.tags'),

  // workspace
  { at: 'Plan', enum: PLANS },
  { at: 'LoopState', enum: LOOP_STATES },
  { at: 'SpikeAction', enum: SPIKE_ACTIONS },
  range('LoopIntervalBody.loopIntervalMinutes', LOOP_INTERVAL_MINUTES),
  range('ApprovalPolicyBody.watchHours', WATCH_HOURS),
  range('ApprovalPolicyBody.overdueHours', OVERDUE_HOURS),
  { at: 'FocusTagsBody.tags', maxItems: MAX_FOCUS_TAGS },
  {
    at: 'FocusTagsBody.tags.items',
    maxLength: MAX_TAG_LENGTH,
    pattern: FOCUS_TAG_INPUT_PATTERN.source,
    messages: { maxLength: `must be at most ${MAX_TAG_LENGTH} characters`, pattern: 'must be lowercase letters and digits joined by single hyphens' },
  },
  range('AutoArchiveConfig.staleTaskAutoArchiveDays', STALE_TASK_DAYS),
  range('MemoryArchiveConfig.staleMemoryAutoArchiveDays', STALE_MEMORY_DAYS),
  range('SourceChronicSpikeBody.thresholdDays', CHRONIC_THRESHOLD_DAYS),
  range('CostCapBody.dailyCostCapUsdCents', DAILY_COST_CAP_CENTS),
  { ...range('GetFocusHistory?sinceDays', FOCUS_HISTORY_DAYS), default: FOCUS_HISTORY_DAYS.default },
  // AI engine settings
  { at: 'EngineChoice', enum: ENGINE_KINDS },
  { at: 'EngineSettingsBody.model', maxLength: MAX_MODEL_LENGTH },
  { at: 'EngineSettingsBody.baseUrl', maxLength: MAX_BASE_URL_LENGTH },
  { at: 'EngineSettingsBody.apiKey', maxLength: MAX_API_KEY_LENGTH },
  { at: 'EngineSettingsBody.inputPricePerMillionUsd', minimum: 0, maximum: MAX_PRICE_PER_MILLION_USD },
  { at: 'EngineSettingsBody.outputPricePerMillionUsd', minimum: 0, maximum: MAX_PRICE_PER_MILLION_USD },
  { at: 'EngineModelsBody.baseUrl', maxLength: MAX_BASE_URL_LENGTH },
  { at: 'EngineModelsBody.apiKey', maxLength: MAX_API_KEY_LENGTH },

  // outputs (artifacts)
  { at: 'ArtifactStatus', enum: ARTIFACT_STATUSES },
  { at: 'ArtifactKind', enum: ARTIFACT_KINDS, anyOrder: true },
  { at: 'ApprovalAttention', enum: APPROVAL_ATTENTIONS },
  { at: 'ArtifactTagsBody.tags', maxItems: MAX_ARTIFACT_TAGS },
  text('ArtifactEditBody.content', ARTIFACT_CONTENT),
  text('ArtifactEditBody.title', ARTIFACT_TITLE),
  { at: 'BulkDecisionAction', enum: BULK_DECISION_ACTIONS },
  range('ListDecisions?windowDays', { min: 1, max: DECISIONS_WINDOW_MAX_DAYS }),

  // members and invites
  { at: 'InviteRole', enum: INVITE_ROLES },
  { at: 'MemberRole', enum: MEMBER_ROLES },
  { at: 'ReviewAvailability', enum: REVIEW_AVAILABILITIES },
  { at: 'InviteBody.email', maxLength: MAX_EMAIL_LENGTH },
  { at: 'AcceptInviteBody.name', minLength: 1, maxLength: MAX_MEMBER_NAME_LENGTH },
  // task templates and shared saved searches
  ...templateRules('NewTaskTemplateBody'),
  ...templateRules('TaskTemplatePatchBody'),
  text('NewSavedSearchBody.name', SAVED_SEARCH_NAME),
  text('NewSavedSearchBody.query', SAVED_SEARCH_QUERY),
  // no domain rule: the API's own cap on an id it looks up
  { at: 'DeleteSavedSearchBody.searchId', maxLength: 200 },

  // memory
  { at: 'MemoryKind', enum: MEMORY_KINDS, anyOrder: true },
  { at: 'MemoryBulkAction', enum: MEMORY_BULK_ACTIONS, anyOrder: true },
  ...(['CreateMemoryBody', 'MemoryPatchBody'] as const).flatMap((schema): DocumentedRule[] => [
    text(`${schema}.title`, MEMORY_TITLE),
    text(`${schema}.content`, MEMORY_CONTENT),
    { at: `${schema}.importance`, minimum: IMPORTANCE.min, maximum: IMPORTANCE.max },
    { at: `${schema}.tags`, maxItems: MAX_MEMORY_TAGS },
  ]),
  bulkIds('MemoryBulkBody.memoryIds'),
  { at: 'MemoryBulkBody.tag', maxLength: MAX_MEMORY_TAG_LENGTH },
  { at: 'ListMemory?q', maxLength: MAX_MEMORY_QUERY },
  { ...range('ListStaleMemory?thresholdDays', STALE_MEMORY_THRESHOLD), default: STALE_MEMORY_THRESHOLD.default },
  { ...range('GetTopRetrievedMemory?limit', TOP_LIMIT), default: TOP_LIMIT.default },
  { ...range('GetTopRetrievedMemory?days', TRAJECTORY_DAYS), default: TRAJECTORY_DAYS.default },
  { ...range('GetTopCostMemory?limit', TOP_LIMIT), default: TOP_LIMIT.default },
  { ...range('GetMemoryRetrievalTrajectory?days', TRAJECTORY_DAYS), default: TRAJECTORY_DAYS.default },
  { ...range('GetMemoryCostTrajectory?days', TRAJECTORY_DAYS), default: TRAJECTORY_DAYS.default },

  // cost reads
  ...(['GetCostByAssignee', 'GetCostBySource', 'GetCostByTag'] as const).map((op) => ({ ...range(`${op}?limit`, COST_BREAKDOWN_LIMIT), default: COST_BREAKDOWN_LIMIT.default })),
  range('GetCostByAssignee?trajectoryDays', COST_TRAJECTORY_DAYS),
  range('GetCostByTag?trajectoryDays', COST_TRAJECTORY_DAYS),
  ...(['GetAssigneeCostTrajectory', 'GetTagCostTrajectory', 'GetTaskCostTrajectory', 'GetSourceCostTrajectory'] as const).map((op) => ({
    ...range(`${op}?days`, COST_TRAJECTORY_DAYS),
    default: COST_TRAJECTORY_DAYS.default,
  })),
  { ...range('GetTopCostTasks?limit', TOP_COST_TASKS_LIMIT), default: TOP_COST_TASKS_LIMIT.default },
  { at: 'ExportFormat', enum: EXPORT_FORMATS },
  // overview (server/domain/overview/rules.ts)
  { ...range('GetPersonalInbox?thresholdDays', INBOX_STALE_DAYS), default: INBOX_STALE_DAYS.default },
  { ...range('GetInsights?limit', INSIGHTS_TAG_LIMIT), default: INSIGHTS_TAG_LIMIT.default },
  { ...range('GetReactionsSummary?topLimit', REACTIONS_TOP_LIMIT), default: REACTIONS_TOP_LIMIT.default },
  // outbound webhooks
  { at: 'CreateOutboundSubscriptionBody.url', maxLength: MAX_URL_LENGTH },
  { at: 'CreateOutboundSubscriptionBody.label', maxLength: MAX_SUBSCRIPTION_LABEL },
  { at: 'CreateOutboundSubscriptionBody.events', minItems: 1 },
  { at: 'PatchOutboundSubscriptionBody.events', minItems: 1 },
  bulkIds('OutboundBulkBody.subscriptionIds'),
  { at: 'OutboundBulkAction', enum: OUTBOUND_BULK_ACTIONS, anyOrder: true },
  { at: 'AttemptOutcome', enum: ATTEMPT_OUTCOMES, anyOrder: true },
  { at: 'AttemptTrigger', enum: ATTEMPT_TRIGGERS, anyOrder: true },
  { at: 'DeliveryState', enum: DELIVERY_STATES, anyOrder: true },
  { at: 'DisabledReason', enum: DISABLED_REASONS, anyOrder: true },
  { at: 'SubscriptionStatus', enum: SUBSCRIPTION_STATUSES, anyOrder: true },
  // dashboard preferences (server/domain/dashboard-prefs/rules.ts)
  { at: 'DigestSection', enum: DIGEST_SECTIONS },
  { at: 'ActivityBucket', enum: ACTIVITY_BUCKETS },
  { at: 'ActiveWorkSort', enum: ACTIVE_WORK_SORTS },
  { at: 'TaskSortParam', enum: TASK_SORTS },
  { at: 'CostPanelColumn', enum: COST_PANEL_COLUMNS },
  { at: 'CostPanelSort', enum: COST_PANEL_SORTS },
  { at: 'Density', enum: DENSITIES },
  { at: 'DashboardPrefsBody.collapsedPanels', maxItems: MAX_PANELS },
  { at: 'DashboardPrefsBody.panelOrder', maxItems: MAX_PANELS },
  { at: 'DashboardPrefsBody.digestPersonalSections', maxItems: DIGEST_SECTIONS.length },
  { at: 'DashboardPrefsBody.collapsedActivityBuckets', maxItems: ACTIVITY_BUCKETS.length },
  { at: 'DashboardPrefsBody.costPanelColumns', maxItems: COST_PANEL_COLUMNS.length },
  { at: 'DashboardPrefsBody.taskCommentFilters', maxItems: MAX_COMMENT_FILTERS_PER_PUT },
  range('DashboardPrefsBody.digestQuietHoursStart', QUIET_HOUR),
  range('DashboardPrefsBody.digestQuietHoursEnd', QUIET_HOUR),
  { at: 'TaskCommentFilterWrite.q', maxLength: MAX_COMMENT_FILTER_Q },
  { at: 'TaskCommentFilterWrite.taskId', minLength: 1, maxLength: MAX_ID_LENGTH },
  { at: 'TaskCommentFilterWrite.authorId', maxLength: MAX_ID_LENGTH },
  // the optimistic-concurrency echoes: timestamps as served, checked as ids are
  { at: 'TaskCommentFilterWrite.updatedAt', maxLength: MAX_ID_LENGTH },
  { at: 'DashboardPrefsBody.densityUpdatedAt', maxLength: MAX_ID_LENGTH },
  ...(['task', 'assignee', 'tag', 'source', 'memory'] as const).map((axis) => ({ at: `CostPanelOrderSeen.${axis}`, maxLength: MAX_ID_LENGTH })),
  // the daily digest (server/domain/digest/rules.ts)
  { at: 'DigestOutcome', enum: DIGEST_OUTCOMES },
  { at: 'DigestReason', enum: DIGEST_REASONS },
  { at: 'DigestTrigger', enum: DIGEST_TRIGGERS },
  { at: 'DigestDelivery', enum: DIGEST_DELIVERIES },
  { at: 'DigestPreviewFormat', enum: ['json', 'html'] },
  { at: 'DigestPreviewBody.userId', maxLength: MAX_ID_LENGTH },
  { ...range('GetDigestAudit?sinceDays', AUDIT_SINCE_DAYS), default: AUDIT_SINCE_DAYS.default },
  { ...range('GetDigestAudit?limit', AUDIT_LIMIT), default: AUDIT_LIMIT.default },
  // public changelog (server/domain/changelog/rules.ts)
  { ...range('ListChangelog?limit', CHANGELOG_LIMIT), default: CHANGELOG_LIMIT.default },
  range('ListChangelog?sinceRev', SINCE_REV),
  { ...range('GetChangelogCadence?days', CADENCE_DAYS), default: CADENCE_DAYS.default },
  { ...range('GetChangelogPeakWeek?days', CADENCE_DAYS), default: CADENCE_DAYS.default },
  { at: 'TrendVerb', enum: TREND_VERBS },
  // public blog (server/domain/blog/rules.ts)
  ...(['ListBlogPosts', 'ListBlogPostsByAuthor', 'ListBlogPostsByTag'] as const).map((op) => ({ ...range(`${op}?limit`, BLOG_LIMIT), default: BLOG_LIMIT.default })),
  { ...range('ListRelatedBlogPosts?limit', BLOG_RELATED_LIMIT), default: BLOG_RELATED_LIMIT.default },
  { at: 'ListBlogPosts?q', maxLength: MAX_BLOG_QUERY },
  { at: 'ListBlogPosts?tag', maxLength: MAX_BLOG_TAG_FILTER },
  // the public roadmap and the integration catalog (issue 16)
  { at: 'RoadmapStatus', enum: ROADMAP_STATUSES },
  { at: 'RoadmapPhaseKey', enum: ROADMAP_PHASES },
  { at: 'IntegrationAxis', enum: INTEGRATION_AXES },
  // onboarding templates (server/domain/onboarding/rules.ts)
  { at: 'SearchOnboardingTemplates?q', maxLength: TEMPLATE_SEARCH_MAX_QUERY },
  { at: 'SearchOnboardingTemplates?limit', minimum: TEMPLATE_SEARCH_LIMIT.min, maximum: TEMPLATE_SEARCH_LIMIT.max, default: TEMPLATE_SEARCH_LIMIT.default },
  { at: 'RecentOnboardingTemplates?limit', minimum: TEMPLATE_RECENT_LIMIT.min, maximum: TEMPLATE_RECENT_LIMIT.max, default: TEMPLATE_RECENT_LIMIT.default },
  { at: 'RecentOnboardingTemplatesByCategory?limit', minimum: CATEGORY_RECENT_LIMIT.min, maximum: CATEGORY_RECENT_LIMIT.max, default: CATEGORY_RECENT_LIMIT.default },
  // applying a template: no domain rule beyond "a known key" and "positions in the template", so the API's own caps
  { at: 'ApplyTemplateBody.key', minLength: 1, maxLength: 100 },
  { at: 'ApplyTemplateBody.memoryIndexes', maxItems: 50 },
  { at: 'ApplyTemplateBody.signalIndexes', maxItems: 50 },
];
