/**
 * The outbound event catalog: every event Desk emits, with one payload type per event. An event is
 * emitted (through `emit`) in the same transaction as the activity row of the change it reports,
 * for every change a subscriber would want to react to. An area adds its events here; the catalog
 * is served by GET /api/v1/events and documented in the OpenAPI document.
 */
import type {
  SignalCreatedData,
  SourceRef,
  SourceCreatedData,
  SourcePausedData,
  SourceErroredData,
  SourceQuietnessAckedData,
  SourceQuietnessWarningData,
  WorkspaceLoopStateData,
  WorkspaceCostCapData,
  WorkspaceTokenRotatedData,
  WorkspaceEngineChangedData,
  LoopStateChangedData,
  ArtifactReadyData,
  ArtifactTestData,
  OutboundSubscriptionData,
  OutboundSubscriptionDisabledData,
  WorkspaceImportedData,
  IngestTokenData,
  CommentCreatedData,
  MentionAcknowledgedData,
  TaskShareChangedData,
  MemberInviteData,
  MemberData,
  MemberJoinedData,
  MemberAvailabilityData,
  TaskTemplateData,
  SavedSearchData,
  TaskRef,
  TaskCreatedData,
  TaskStatusChangedData,
  TaskAssignedData,
  TaskUnblockedData,
  TaskNoteAddedData,
  TaskArchiveWarningData,
  RunCompletedData,
  RunFailedData,
  CostCapReachedData,
  ArtifactCreatedData,
  ArtifactDecidedData,
  ArtifactSupersededData,
  MemoryRef,
  MemoryCreatedData,
  MemoryUpdatedData,
  MemoryArchivedData,
  CostSpikeData,
  CostChronicData,
  CostAckData,
  TagRenamedData,
  OnboardingTemplateAppliedData,
  DashboardPrefsChangedData,
  DigestMutedData,
  DigestSentData,
} from './event-payloads';

export type * from './event-payloads';

/** Event name -> payload (`data` of the envelope). */
export interface EventPayloads {
  'signal.created': SignalCreatedData;
  'source.created': SourceCreatedData;
  'source.deleted': SourceRef;
  'source.paused': SourcePausedData;
  'source.resumed': SourceRef;
  'source.errored': SourceErroredData;
  'source.recovered': SourceRef;
  'source.connected': SourceRef;
  'source.quietness_acked': SourceQuietnessAckedData;
  'source.quietness_unacked': SourceRef;
  'source.quietness_warning': SourceQuietnessWarningData;
  'workspace.loop_state_changed': WorkspaceLoopStateData;
  'workspace.cost_cap_changed': WorkspaceCostCapData;
  'workspace.token_rotated': WorkspaceTokenRotatedData;
  'workspace.engine_changed': WorkspaceEngineChangedData;
  'loop.state_changed': LoopStateChangedData;
  'artifact.ready': ArtifactReadyData;
  'artifact.test': ArtifactTestData;
  'outbound.subscription_created': OutboundSubscriptionData;
  'outbound.subscription_updated': OutboundSubscriptionData;
  'outbound.subscription_deleted': OutboundSubscriptionData;
  'outbound.subscription_disabled': OutboundSubscriptionDisabledData;
  'workspace.imported': WorkspaceImportedData;
  'ingest_token.created': IngestTokenData;
  'ingest_token.revoked': IngestTokenData;
  'comment.created': CommentCreatedData;
  'mention.acknowledged': MentionAcknowledgedData;
  'task.share_changed': TaskShareChangedData;
  'member.invited': MemberInviteData;
  'member.invite_revoked': MemberInviteData;
  'member.joined': MemberJoinedData;
  'member.removed': MemberData;
  'member.availability_changed': MemberAvailabilityData;
  'task_template.created': TaskTemplateData;
  'task_template.updated': TaskTemplateData;
  'task_template.deleted': TaskTemplateData;
  'saved_search.created': SavedSearchData;
  'saved_search.deleted': SavedSearchData;
  'task.created': TaskCreatedData;
  'task.status_changed': TaskStatusChangedData;
  'task.assigned': TaskAssignedData;
  'task.unblocked': TaskUnblockedData;
  'task.deleted': TaskRef;
  'task.note_added': TaskNoteAddedData;
  'task.renewed': TaskRef;
  'task.archive_warning': TaskArchiveWarningData;
  'memory.created': MemoryCreatedData;
  'memory.updated': MemoryUpdatedData;
  'memory.deleted': MemoryRef;
  'memory.archived': MemoryArchivedData;
  'run.completed': RunCompletedData;
  'run.failed': RunFailedData;
  'cost.cap_reached': CostCapReachedData;
  'artifact.created': ArtifactCreatedData;
  'artifact.approved': ArtifactDecidedData;
  'artifact.archived': ArtifactDecidedData;
  'artifact.superseded': ArtifactSupersededData;
  'task.cost_spike': CostSpikeData;
  'source.cost_spike': CostSpikeData;
  'tag.cost_spike': CostSpikeData;
  'assignee.cost_spike': CostSpikeData;
  'memory.cost_spike': CostSpikeData;
  'source.chronic_warning': CostChronicData;
  'tag.chronic_warning': CostChronicData;
  'assignee.chronic_warning': CostChronicData;
  'memory.chronic_warning': CostChronicData;
  'task.cost_spike_acked': CostAckData;
  'source.cost_spike_acked': CostAckData;
  'tag.cost_spike_acked': CostAckData;
  'assignee.cost_spike_acked': CostAckData;
  'memory.cost_spike_acked': CostAckData;
  'source.chronic_warning_acked': CostAckData;
  'tag.chronic_warning_acked': CostAckData;
  'assignee.chronic_warning_acked': CostAckData;
  'memory.chronic_warning_acked': CostAckData;
  'tag.renamed': TagRenamedData;
  'onboarding.template_applied': OnboardingTemplateAppliedData;
  'dashboard_prefs.updated': DashboardPrefsChangedData;
  'dashboard_prefs.reset': DashboardPrefsChangedData;
  'digest.sent': DigestSentData;
  'digest.muted': DigestMutedData;
}

// Spelled out (not `keyof`) so tsoa documents it as an enum; the check below keeps them equal.
/** The name of an outbound event. */
export type EventName =
  | 'signal.created'
  | 'source.created'
  | 'source.deleted'
  | 'source.paused'
  | 'source.resumed'
  | 'source.errored'
  | 'source.recovered'
  | 'source.connected'
  | 'source.quietness_acked'
  | 'source.quietness_unacked'
  | 'source.quietness_warning'
  | 'workspace.loop_state_changed'
  | 'workspace.cost_cap_changed'
  | 'workspace.token_rotated'
  | 'workspace.engine_changed'
  | 'loop.state_changed'
  | 'artifact.ready'
  | 'artifact.test'
  | 'outbound.subscription_created'
  | 'outbound.subscription_updated'
  | 'outbound.subscription_deleted'
  | 'outbound.subscription_disabled'
  | 'workspace.imported'
  | 'ingest_token.created'
  | 'ingest_token.revoked'
  | 'comment.created'
  | 'mention.acknowledged'
  | 'task.share_changed'
  | 'member.invited'
  | 'member.invite_revoked'
  | 'member.joined'
  | 'member.removed'
  | 'member.availability_changed'
  | 'task_template.created'
  | 'task_template.updated'
  | 'task_template.deleted'
  | 'saved_search.created'
  | 'saved_search.deleted'
  | 'task.created'
  | 'task.status_changed'
  | 'task.assigned'
  | 'task.unblocked'
  | 'task.deleted'
  | 'task.note_added'
  | 'task.renewed'
  | 'task.archive_warning'
  | 'run.completed'
  | 'run.failed'
  | 'cost.cap_reached'
  | 'artifact.created'
  | 'artifact.superseded'
  | 'artifact.approved'
  | 'artifact.archived'
  | 'memory.created'
  | 'memory.updated'
  | 'memory.deleted'
  | 'memory.archived'
  | 'task.cost_spike'
  | 'source.cost_spike'
  | 'tag.cost_spike'
  | 'assignee.cost_spike'
  | 'memory.cost_spike'
  | 'source.chronic_warning'
  | 'tag.chronic_warning'
  | 'assignee.chronic_warning'
  | 'memory.chronic_warning'
  | 'task.cost_spike_acked'
  | 'source.cost_spike_acked'
  | 'tag.cost_spike_acked'
  | 'assignee.cost_spike_acked'
  | 'memory.cost_spike_acked'
  | 'source.chronic_warning_acked'
  | 'tag.chronic_warning_acked'
  | 'assignee.chronic_warning_acked'
  | 'memory.chronic_warning_acked'
  | 'tag.renamed'
  | 'onboarding.template_applied'
  | 'dashboard_prefs.updated'
  | 'dashboard_prefs.reset'
  | 'digest.sent'
  | 'digest.muted';

/** The payload of any event (the `data` of its envelope). */
export type EventData =
  | SignalCreatedData
  | SourceCreatedData
  | SourceRef
  | SourcePausedData
  | SourceErroredData
  | SourceQuietnessAckedData
  | SourceQuietnessWarningData
  | WorkspaceLoopStateData
  | WorkspaceCostCapData
  | WorkspaceTokenRotatedData
  | WorkspaceEngineChangedData
  | LoopStateChangedData
  | ArtifactReadyData
  | ArtifactTestData
  | OutboundSubscriptionData
  | OutboundSubscriptionDisabledData
  | WorkspaceImportedData
  | IngestTokenData
  | CommentCreatedData
  | MentionAcknowledgedData
  | TaskShareChangedData
  | MemberInviteData
  | MemberData
  | MemberJoinedData
  | MemberAvailabilityData
  | TaskTemplateData
  | SavedSearchData
  | TaskRef
  | TaskCreatedData
  | TaskStatusChangedData
  | TaskAssignedData
  | TaskUnblockedData
  | TaskNoteAddedData
  | TaskArchiveWarningData
  | MemoryRef
  | MemoryCreatedData
  | MemoryUpdatedData
  | MemoryArchivedData
  | RunCompletedData
  | RunFailedData
  | CostCapReachedData
  | ArtifactCreatedData
  | ArtifactDecidedData
  | ArtifactSupersededData
  | CostSpikeData
  | CostChronicData
  | CostAckData
  | TagRenamedData
  | OnboardingTemplateAppliedData
  | DashboardPrefsChangedData
  | DigestSentData
  | DigestMutedData;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const catalogTypesMatch: [Same<EventName, keyof EventPayloads>, Same<EventData, EventPayloads[EventName]>] = [true, true];
void catalogTypesMatch;

/** What a subscriber receives: the same envelope for every event. */
export interface EventEnvelope<E extends EventName = EventName> {
  /** Unique per event; a receiver dedupes on it. */
  id: string;
  event: E;
  /** @format date-time */
  createdAt: string;
  data: EventPayloads[E];
}

export const EVENT_CATALOG: { readonly [E in EventName]: { description: string; example: EventPayloads[E] } } = {
  'signal.created': {
    description: 'A signal arrived: written by hand, pushed through the inbound webhook, polled from a feed or imported from a file.',
    example: { signalId: 'sig_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', kind: 'review', priority: 'high', title: 'New review: 2 stars', sourceId: null, origin: 'webhook' },
  },
  'source.created': {
    description: 'A source was added.',
    example: { sourceId: 'src_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Changelog feed', type: 'rss' },
  },
  'source.deleted': {
    description: 'A source was deleted (its signals stay).',
    example: { sourceId: 'src_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Changelog feed' },
  },
  'source.paused': {
    description: 'A source was paused, by hand or until a time.',
    example: { sourceId: 'src_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Changelog feed', pausedUntilAt: '2026-03-12T09:00:00.000Z' },
  },
  'source.resumed': {
    description: 'A paused source polls again (resumed by hand, or its scheduled pause ran out).',
    example: { sourceId: 'src_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Changelog feed' },
  },
  'source.errored': {
    description: 'A feed source failed to poll and is now in the error state (emitted on the failure that changes its status).',
    example: { sourceId: 'src_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Changelog feed', message: 'HTTP 503', consecutiveFailures: 1, nextRetryAt: '2026-03-10T12:30:00.000Z' },
  },
  'source.recovered': {
    description: 'A feed source in the error state polled successfully again.',
    example: { sourceId: 'src_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Changelog feed' },
  },
  'source.connected': {
    description: "A new feed source's first poll succeeded: it leaves `pending` for `connected` (with or without new items; those arrive as `signal.created`).",
    example: { sourceId: 'src_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Changelog feed' },
  },
  'source.quietness_acked': {
    description: 'A quiet source was acknowledged (once per acked source, also in bulk).',
    example: { sourceId: 'src_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Changelog feed', quietnessAckedAt: '2026-03-10T12:00:00.000Z', expiresAt: '2026-03-17T12:00:00.000Z' },
  },
  'source.quietness_unacked': {
    description: 'A quietness acknowledgement was revoked (once per actually revoked source).',
    example: { sourceId: 'src_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Changelog feed' },
  },
  'source.quietness_warning': {
    description: 'A source is quiet beyond its quietness floor; not repeated within a quiet period or for 7 days after an ack.',
    example: { sourceId: 'src_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Changelog feed', quietSince: '2026-02-20T08:00:00.000Z', quietForDays: 18, floorDays: 14 },
  },
  'workspace.loop_state_changed': {
    description: 'The loop was turned on, paused (by hand or until a time) or off, or a scheduled pause ran out.',
    example: { loopState: 'paused', pauseUntilAt: '2026-03-12T09:00:00.000Z' },
  },
  'workspace.cost_cap_changed': {
    description: 'The daily AI cost cap was set, changed or removed (null), so spend-watching tools can follow it.',
    example: { dailyCostCapUsdCents: 500, previousDailyCostCapUsdCents: 50 },
  },
  'workspace.token_rotated': {
    description: 'The workspace token was rotated: the old bearer token and the old webhook URL stopped working. The new token is not in the event.',
    example: { rotatedAt: '2026-03-10T12:00:00.000Z' },
  },
  'workspace.engine_changed': {
    description: "The AI engine settings changed (engine, model, base URL, whether an API key is set, or the operator's own price of the model). The key itself is never in the event.",
    example: { engine: 'openai', model: 'gpt-4o-mini', baseUrl: 'https://api.openai.com/v1', apiKeySet: true, inputPricePerMillionUsd: null, outputPricePerMillionUsd: null },
  },
  'loop.state_changed': {
    description: 'The loop changed state (on, paused, off): by hand, by a scheduled pause, or when a scheduled pause ran out. Emitted with workspace.loop_state_changed, adding the state before.',
    example: { loopState: 'paused', previousLoopState: 'on', pauseUntilAt: '2026-03-12T09:00:00.000Z' },
  },
  'artifact.ready': {
    description: 'An output is ready for review (an AI cycle drafted it): its immutable readyAt starts the review clock.',
    example: { artifactId: 'art_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', taskId: 'tsk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', runId: 'run_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', title: 'Reply to the 2-star review', kind: 'draft', version: 1, readyAt: '2026-03-10T09:00:00.000Z' },
  },
  'artifact.test': {
    description: 'A test delivery (POST /outbound/subscriptions/{id}/test), sent only to that subscription whatever its events: signed and logged like any other delivery, never retried on its own.',
    example: {
      subscriptionId: 'whk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N',
      message: 'Test delivery from Desk: your receiver got a signed event.',
      sample: { artifactId: 'art_test', taskId: null, runId: null, title: 'Sample output', kind: 'draft', version: 1, readyAt: '2026-03-10T09:00:00.000Z' },
    },
  },
  'outbound.subscription_created': {
    description: 'An outbound webhook subscription was created (its secret is never in an event).',
    example: { subscriptionId: 'whk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Ops bot', origin: 'https://hooks.example.com', events: ['task.created', 'artifact.ready'], active: true },
  },
  'outbound.subscription_updated': {
    description: 'An outbound webhook subscription was paused, resumed (also after Desk disabled it) or given another event set.',
    example: { subscriptionId: 'whk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Ops bot', origin: 'https://hooks.example.com', events: ['task.created'], active: false },
  },
  'outbound.subscription_deleted': {
    description: 'An outbound webhook subscription was deleted, with its pending deliveries and its delivery log.',
    example: { subscriptionId: 'whk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Ops bot', origin: 'https://hooks.example.com', events: ['task.created'], active: true },
  },
  'outbound.subscription_disabled': {
    description: 'Desk disabled a subscription: its receiver answered 410 Gone (reason gone), or every scheduled attempt failed for 5 days (reason failing). Resume it to deliver again.',
    example: {
      subscriptionId: 'whk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N',
      label: 'Ops bot',
      origin: 'https://hooks.example.com',
      events: ['task.created'],
      active: false,
      reason: 'failing',
      failingSince: '2026-03-05T09:00:00.000Z',
    },
  },
  'workspace.imported': {
    description: 'Memory, signals and sources were appended from an export file (POST /workspace/import, not a dry run): one event per import, with what it added and skipped.',
    example: { added: { sources: 3, signals: 240, memory: 12 }, duplicates: 4, invalid: 1, exportedAt: '2026-03-09T18:00:00.000Z' },
  },
  'ingest_token.created': {
    description: 'A scoped ingest URL was created for a source (it can only push signals to that source).',
    example: { sourceId: 'src_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Zapier', tokenId: 'ing_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', tokenLabel: 'Zapier zap' },
  },
  'ingest_token.revoked': {
    description: 'A scoped ingest URL was revoked: its URL stopped working at once.',
    example: { sourceId: 'src_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Zapier', tokenId: 'ing_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', tokenLabel: 'Zapier zap' },
  },
  'comment.created': {
    description: 'A comment or reply was posted on a task; members it names as `@name` have a mention to acknowledge.',
    example: {
      commentId: 'cmt_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N',
      taskId: 'tsk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N',
      parentCommentId: null,
      authorUserId: 'usr_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N',
      mentionedUserIds: ['usr_01JQ3Z9Y8X7W6V5T4S3R2Q1P0M'],
    },
  },
  'mention.acknowledged': {
    description: 'A mention of a member in a task comment was acknowledged (once per mention).',
    example: { mentionId: 'mnt_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', commentId: 'cmt_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', taskId: 'tsk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', userId: 'usr_01JQ3Z9Y8X7W6V5T4S3R2Q1P0M' },
  },
  'task.share_changed': {
    description: "A task's public work-log or timeline link was created (enabled) or revoked (disabled). The link's token is not in the event.",
    example: { taskId: 'tsk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', page: 'work_log', enabled: true },
  },
  'member.invited': {
    description: 'A teammate was invited (a record: no email is sent).',
    example: { inviteId: 'inv_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', email: 'ada@example.com', role: 'editor' },
  },
  'member.invite_revoked': {
    description: 'A pending invite was revoked.',
    example: { inviteId: 'inv_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', email: 'ada@example.com', role: 'editor' },
  },
  'member.joined': {
    description: 'An invite was accepted: the invitee is a member with the invited role.',
    example: { userId: 'usr_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', name: 'Ada Lovelace', role: 'editor', inviteId: 'inv_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N' },
  },
  'member.removed': {
    description: 'A member was removed (their past activity keeps their name).',
    example: { userId: 'usr_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', name: 'Ada Lovelace', role: 'editor' },
  },
  'member.availability_changed': {
    description: 'A reviewer was marked available or away.',
    example: { userId: 'usr_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', name: 'Ada Lovelace', role: 'editor', availability: 'away', previousAvailability: 'available' },
  },
  'task_template.created': {
    description: 'A task template was created.',
    example: { templateId: 'tpl_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Bug triage' },
  },
  'task_template.updated': {
    description: 'A task template was edited.',
    example: { templateId: 'tpl_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Bug triage' },
  },
  'task_template.deleted': {
    description: 'A task template was deleted.',
    example: { templateId: 'tpl_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Bug triage' },
  },
  'saved_search.created': {
    description: 'A shared saved search was added.',
    example: { searchId: 'srch_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', name: 'Open billing bugs', query: 'billing bug', createdByUserId: 'usr_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N' },
  },
  'saved_search.deleted': {
    description: 'A shared saved search was removed.',
    example: { searchId: 'srch_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', name: 'Open billing bugs', query: 'billing bug', createdByUserId: 'usr_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N' },
  },
  'task.created': {
    description: 'A task was created (POST /tasks, or a duplicate of another task).',
    example: { taskId: 'tsk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', title: 'Reply to the 2-star review', status: 'queued', duplicateOfTaskId: null },
  },
  'task.status_changed': {
    description: 'A task changed status: moved by the operator, promoted to queued by a note on a needs_input task, archived by the stale sweep, or moved by an AI cycle (needs_input, done).',
    example: { taskId: 'tsk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', title: 'Reply to the 2-star review', from: 'in_progress', to: 'done', cause: 'operator' },
  },
  'task.assigned': {
    description: 'A task was assigned to a member, or unassigned (assignedToUserId null).',
    example: { taskId: 'tsk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', title: 'Reply to the 2-star review', assignedToUserId: 'usr_01JQ3Z9Y8X7W6V5T4S3R2Q1P0M', previousAssignedToUserId: null },
  },
  'task.unblocked': {
    description: 'The last unfinished blocker of a task changed to done: the task is eligible for the AI cycle again. Emitted once per such change.',
    example: { taskId: 'tsk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', title: 'Publish the launch post', lastBlockerTaskId: 'tsk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0P' },
  },
  'task.deleted': {
    description: 'A task was deleted (bulk delete).',
    example: { taskId: 'tsk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', title: 'Reply to the 2-star review' },
  },
  'task.note_added': {
    description: 'An operator note was posted on a task (also a renew note): direction for the next AI cycle.',
    example: { taskId: 'tsk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', title: 'Reply to the 2-star review', noteId: 'tno_01JQ3Z9Y8X7W6V5T4S3R2Q1P0Q', text: 'Keep it under 80 words.' },
  },
  'task.renewed': {
    description: 'A task was renewed: updatedAt bumped and any archive warning cleared.',
    example: { taskId: 'tsk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', title: 'Reply to the 2-star review' },
  },
  'task.archive_warning': {
    description: 'The stale sweep will archive this task after `archivesAfter` unless it is renewed or changed first.',
    example: { taskId: 'tsk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', title: 'Reply to the 2-star review', updatedAt: '2026-03-01T09:00:00.000Z', archivesAfter: '2026-03-15T09:00:00.000Z' },
  },
  'run.completed': {
    description: 'A loop cycle finished and its writes are committed: what it read and produced, its tokens and estimated cost.',
    example: {
      runId: 'run_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N',
      trigger: 'schedule',
      counts: { signalsRead: 4, tasksRead: 6, memoryRead: 3, notesRead: 1, tasksCreated: 2, tasksUpdated: 3, artifactsCreated: 2, memoryCreated: 0 },
      inputTokens: 5210,
      outputTokens: 940,
      estimatedCostUsd: 0.001346,
    },
  },
  'run.failed': {
    description: 'A loop cycle failed (the engine or provider reported an error); nothing it would have written was written.',
    example: { runId: 'run_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', trigger: 'manual', errorMessage: 'The model provider answered 401: invalid API key' },
  },
  'cost.cap_reached': {
    description: "Today's AI spend reached the daily cost cap: no cycle starts until the next workspace day or a higher cap. Emitted once per workspace day.",
    example: { day: '2026-03-10', dailyCostCapUsdCents: 50, spentUsd: 0.503, runId: 'run_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N' },
  },
  'artifact.created': {
    description:
      'A new version of an output waits for review (status ready): a loop cycle drafted it (authorKind engine), or a member edited or reopened an output (authorKind member). A re-work is a new version linked by parentArtifactId.',
    example: {
      artifactId: 'art_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N',
      taskId: 'tsk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N',
      runId: 'run_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N',
      title: 'Reply to the 2-star review',
      kind: 'draft',
      version: 2,
      parentArtifactId: 'art_01JQ3Z9Y8X7W6V5T4S3R2Q1P0M',
      authorKind: 'engine',
      authorUserId: null,
    },
  },
  'artifact.superseded': {
    description:
      'A ready version of an output was replaced by a newer version of the same output (a cycle re-worked it, or a member edited or reopened it): it leaves the review queue and stays in the version chain, still `ready` with supersededAt set.',
    example: {
      artifactId: 'art_01JQ3Z9Y8X7W6V5T4S3R2Q1P0M',
      supersededById: 'art_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N',
      taskId: 'tsk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N',
      title: 'Reply to the 2-star review',
      supersededAt: '2026-03-10T15:30:00.000Z',
    },
  },
  'artifact.approved': {
    description: 'An output waiting for review was approved (POST /artifacts/{id}/approve, or POST /artifacts/bulk approve_all: one event per output); decidedAt is stamped once.',
    example: {
      artifactId: 'art_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N',
      taskId: 'tsk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N',
      title: 'Reply to the 2-star review',
      readyAt: '2026-03-10T09:00:00.000Z',
      decidedAt: '2026-03-10T15:30:00.000Z',
      waitHours: 6.5,
      via: 'single',
      reviewOwnerId: 'usr_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N',
    },
  },
  'artifact.archived': {
    description: 'An output waiting for review was archived (POST /artifacts/{id}/archive, or POST /artifacts/bulk archive_all: one event per output); decidedAt is stamped once.',
    example: {
      artifactId: 'art_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N',
      taskId: 'tsk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N',
      title: 'Reply to the 2-star review',
      readyAt: '2026-03-10T09:00:00.000Z',
      decidedAt: '2026-03-10T15:30:00.000Z',
      waitHours: 6.5,
      via: 'bulk',
      reviewOwnerId: 'usr_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N',
    },
  },
  'memory.created': {
    description: 'A memory entry was added, by hand (POST /memory) or by an AI cycle (createdByRunId).',
    example: { memoryId: 'mem_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', title: 'Pricing changes need approval', kind: 'decision', importance: 8, pinned: false, tags: ['pricing'], createdByRunId: null },
  },
  'memory.updated': {
    description: 'A memory entry was edited (PATCH /memory/{id}) or pinned, unpinned, tagged or untagged in bulk; `changed` names the fields.',
    example: { memoryId: 'mem_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', title: 'Pricing changes need approval', changed: ['pinned'] },
  },
  'memory.deleted': {
    description: 'A memory entry was deleted (DELETE /memory/{id} or bulk delete).',
    example: { memoryId: 'mem_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', title: 'Pricing changes need approval' },
  },
  'memory.archived': {
    description: 'The stale-memory sweep archived an entry not retrieved within the workspace threshold: it is no longer listed nor retrieved by AI cycles.',
    example: { memoryId: 'mem_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', title: 'Office hours moved', lastRetrievedAt: '2026-01-02T10:00:00.000Z', thresholdDays: 60 },
  },
  'task.cost_spike': {
    description: 'A task spent at least 2 times its trailing 7-day daily average and at least 0.50 USD today (cost-spike detector, after cycles and every minute); once per task per day, skipped when acknowledged today. With taskCostSpikeAction `pause` the task is de-prioritised by the loop until acknowledged.',
    example: { dimension: 'task', key: 'tsk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Reply to the 2-star review', day: '2026-03-10', todayUsd: 1.2, todayCents: 120, baselineUsd: 0.3, baselineCents: 30, spikeRatio: 4, consecutiveSpikeDays: 1, paused: true },
  },
  'source.cost_spike': {
    description: 'A source spent at least 2 times its trailing 7-day daily average and at least 0.50 USD today (cost-spike detector, after cycles and every minute); once per source per day, skipped when acknowledged today. With sourceCostSpikeAction `pause` the feed poller skips the source until acknowledged.',
    example: { dimension: 'source', key: 'src_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Changelog feed', day: '2026-03-10', todayUsd: 1.2, todayCents: 120, baselineUsd: 0.3, baselineCents: 30, spikeRatio: 4, consecutiveSpikeDays: 1, paused: true },
  },
  'tag.cost_spike': {
    description: 'A tag (its tasks’ full cost) spent at least 2 times its trailing 7-day daily average and at least 0.50 USD today (cost-spike detector, after cycles and every minute); once per tag per day, skipped when acknowledged today. With tagCostSpikeAction `pause` its tasks are de-prioritised by the loop until acknowledged.',
    example: { dimension: 'tag', key: 'launch', label: 'launch', day: '2026-03-10', todayUsd: 1.2, todayCents: 120, baselineUsd: 0.3, baselineCents: 30, spikeRatio: 4, consecutiveSpikeDays: 1, paused: true },
  },
  'assignee.cost_spike': {
    description: 'An assignee’s queue spent at least 2 times its trailing 7-day daily average and at least 0.50 USD today (cost-spike detector, after cycles and every minute); once per assignee per day, skipped when acknowledged today.',
    example: { dimension: 'assignee', key: 'usr_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Ada', day: '2026-03-10', todayUsd: 1.2, todayCents: 120, baselineUsd: 0.3, baselineCents: 30, spikeRatio: 4, consecutiveSpikeDays: 1, paused: false },
  },
  'memory.cost_spike': {
    description: 'A memory entry (its equal share of the cycles that pulled it) spent at least 2 times its trailing 7-day daily average and at least 0.50 USD today (cost-spike detector, after cycles and every minute); once per memory per day, skipped when acknowledged today.',
    example: { dimension: 'memory', key: 'mem_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Pricing changes need approval', day: '2026-03-10', todayUsd: 1.2, todayCents: 120, baselineUsd: 0.3, baselineCents: 30, spikeRatio: 4, consecutiveSpikeDays: 1, paused: false },
  },
  'source.chronic_warning': {
    description: 'A source has spiked the workspace sourceChronicThresholdDays (default 3) or more days in a row; raised once a day while the streak lasts, skipped for 7 days after a chronic ack. With sourceChronicSpikeAction `pause` the feed poller skips the source until the chronic warning is acknowledged.',
    example: { dimension: 'source', key: 'src_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Changelog feed', day: '2026-03-10', todayUsd: 1.2, todayCents: 120, baselineUsd: 0.3, baselineCents: 30, spikeRatio: 4, consecutiveSpikeDays: 3, paused: true, thresholdDays: 3 },
  },
  'tag.chronic_warning': {
    description: 'A tag (its tasks’ full cost) has spiked 3 or more days in a row; raised once a day while the streak lasts, skipped for 7 days after a chronic ack.',
    example: { dimension: 'tag', key: 'launch', label: 'launch', day: '2026-03-10', todayUsd: 1.2, todayCents: 120, baselineUsd: 0.3, baselineCents: 30, spikeRatio: 4, consecutiveSpikeDays: 3, paused: false, thresholdDays: 3 },
  },
  'assignee.chronic_warning': {
    description: 'An assignee’s queue has spiked 3 or more days in a row; raised once a day while the streak lasts, skipped for 7 days after a chronic ack.',
    example: { dimension: 'assignee', key: 'usr_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Ada', day: '2026-03-10', todayUsd: 1.2, todayCents: 120, baselineUsd: 0.3, baselineCents: 30, spikeRatio: 4, consecutiveSpikeDays: 3, paused: false, thresholdDays: 3 },
  },
  'memory.chronic_warning': {
    description: 'A memory entry (its equal share of the cycles that pulled it) has spiked 3 or more days in a row; raised once a day while the streak lasts, skipped for 7 days after a chronic ack.',
    example: { dimension: 'memory', key: 'mem_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', label: 'Pricing changes need approval', day: '2026-03-10', todayUsd: 1.2, todayCents: 120, baselineUsd: 0.3, baselineCents: 30, spikeRatio: 4, consecutiveSpikeDays: 3, paused: false, thresholdDays: 3 },
  },
  'task.cost_spike_acked': {
    description: 'Cost spikes of tasks were acknowledged for the rest of the workspace day (alerts muted, a spike pause lifted); one event per call, single or bulk.',
    example: { dimension: 'task', keys: ['tsk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N'], ackedAt: '2026-03-10T12:00:00.000Z', expiresAt: '2026-03-11T00:00:00.000Z' },
  },
  'source.cost_spike_acked': {
    description: 'Cost spikes of sources were acknowledged for the rest of the workspace day (alerts muted, a spike pause lifted); one event per call, single or bulk.',
    example: { dimension: 'source', keys: ['src_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N'], ackedAt: '2026-03-10T12:00:00.000Z', expiresAt: '2026-03-11T00:00:00.000Z' },
  },
  'tag.cost_spike_acked': {
    description: 'Cost spikes of tags were acknowledged for the rest of the workspace day (alerts muted, a spike pause lifted); one event per call, single or bulk.',
    example: { dimension: 'tag', keys: ['launch'], ackedAt: '2026-03-10T12:00:00.000Z', expiresAt: '2026-03-11T00:00:00.000Z' },
  },
  'assignee.cost_spike_acked': {
    description: 'Cost spikes of assignees were acknowledged for the rest of the workspace day (alerts muted, a spike pause lifted); one event per call, single or bulk.',
    example: { dimension: 'assignee', keys: ['usr_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N'], ackedAt: '2026-03-10T12:00:00.000Z', expiresAt: '2026-03-11T00:00:00.000Z' },
  },
  'memory.cost_spike_acked': {
    description: 'Cost spikes of memory entries were acknowledged for the rest of the workspace day (alerts muted, a spike pause lifted); one event per call, single or bulk.',
    example: { dimension: 'memory', keys: ['mem_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N'], ackedAt: '2026-03-10T12:00:00.000Z', expiresAt: '2026-03-11T00:00:00.000Z' },
  },
  'source.chronic_warning_acked': {
    description: 'Chronic cost warnings of sources were acknowledged for 7 days (a chronic pause lifted); one event per call, single or bulk.',
    example: { dimension: 'source', keys: ['src_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N'], ackedAt: '2026-03-10T12:00:00.000Z', expiresAt: '2026-03-17T12:00:00.000Z' },
  },
  'tag.chronic_warning_acked': {
    description: 'Chronic cost warnings of tags were acknowledged for 7 days; one event per call, single or bulk.',
    example: { dimension: 'tag', keys: ['launch'], ackedAt: '2026-03-10T12:00:00.000Z', expiresAt: '2026-03-17T12:00:00.000Z' },
  },
  'assignee.chronic_warning_acked': {
    description: 'Chronic cost warnings of assignees were acknowledged for 7 days; one event per call, single or bulk.',
    example: { dimension: 'assignee', keys: ['usr_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N'], ackedAt: '2026-03-10T12:00:00.000Z', expiresAt: '2026-03-17T12:00:00.000Z' },
  },
  'memory.chronic_warning_acked': {
    description: 'Chronic cost warnings of memory entries were acknowledged for 7 days; one event per call, single or bulk.',
    example: { dimension: 'memory', keys: ['mem_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N'], ackedAt: '2026-03-10T12:00:00.000Z', expiresAt: '2026-03-17T12:00:00.000Z' },
  },
  'tag.renamed': {
    description: 'A tag was renamed (or merged into an existing one) across tasks, outputs, memory and the focus tags (POST /workspace/tags/rename); counts per kind. Not emitted when nothing carried the tag.',
    example: { from: 'pricing', to: 'pricing-2026', tasks: { renamed: 3, merged: 1 }, artifacts: { renamed: 2, merged: 0 }, memory: { renamed: 1, merged: 0 }, focusTags: true },
  },
  'onboarding.template_applied': {
    description: 'An onboarding template was applied (POST /workspace/onboarding-template/apply): what it added and what it skipped as already on the desk. Each entry added also has its own memory.created or signal.created event.',
    example: { key: 'online-fashion-boutique', name: 'Online fashion boutique', added: { memories: 7, signals: 5 }, skipped: { memories: 0, signals: 0 } },
  },
  'dashboard_prefs.updated': {
    description: "A member's dashboard preferences changed (PUT /workspace/dashboard-prefs); fields names what changed. Not emitted when nothing changed (e.g. every entry was rejected as stale).",
    example: { userId: 'usr_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', fields: ['density', 'panelOrder'] },
  },
  'dashboard_prefs.reset': {
    description: "A member's dashboard preferences were reset to the defaults (DELETE /workspace/dashboard-prefs).",
    example: { userId: 'usr_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', fields: [] },
  },
  'digest.sent': {
    description: 'A digest email went out to one owner or admin: by the daily schedule or as a one-shot preview (POST /workspace/digest-preview); delivery says SMTP or the outbox folder.',
    example: { trigger: 'schedule', userId: 'usr_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', recipientLabel: 'Ada Lovelace', subject: '3 approvals wait · Desk digest for Mon 23 Nov', delivery: 'smtp', approvalsWaiting: 3 },
  },
  'digest.muted': {
    description: "A recipient's digest was not sent: their quiet weekend or quiet hours, no digest sections chosen, or no address.",
    example: { trigger: 'schedule', userId: 'usr_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N', recipientLabel: 'Ada Lovelace', reason: 'quiet_weekend' },
  },
};

export const EVENT_NAMES = Object.keys(EVENT_CATALOG) as EventName[];
