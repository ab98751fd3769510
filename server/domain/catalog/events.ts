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
  MemoryRef,
  MemoryCreatedData,
  MemoryUpdatedData,
  MemoryArchivedData,
  TagRenamedData,
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
  'source.quietness_acked': SourceQuietnessAckedData;
  'source.quietness_unacked': SourceRef;
  'source.quietness_warning': SourceQuietnessWarningData;
  'workspace.loop_state_changed': WorkspaceLoopStateData;
  'workspace.cost_cap_changed': WorkspaceCostCapData;
  'workspace.token_rotated': WorkspaceTokenRotatedData;
  'workspace.engine_changed': WorkspaceEngineChangedData;
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
  'tag.renamed': TagRenamedData;
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
  | 'source.quietness_acked'
  | 'source.quietness_unacked'
  | 'source.quietness_warning'
  | 'workspace.loop_state_changed'
  | 'workspace.cost_cap_changed'
  | 'workspace.token_rotated'
  | 'workspace.engine_changed'
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
  | 'artifact.approved'
  | 'artifact.archived'
  | 'memory.created'
  | 'memory.updated'
  | 'memory.deleted'
  | 'memory.archived'
  | 'tag.renamed';

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
  | TagRenamedData;

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
    description: 'The AI engine settings changed (engine, model, base URL, or whether an API key is set). The key itself is never in the event.',
    example: { engine: 'openai', model: 'gpt-4o-mini', baseUrl: 'https://api.openai.com/v1', apiKeySet: true },
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
    description: 'A loop cycle drafted an output for a task; it waits for review (status ready). A re-work is a new version linked by parentArtifactId.',
    example: {
      artifactId: 'art_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N',
      taskId: 'tsk_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N',
      runId: 'run_01JQ3Z9Y8X7W6V5T4S3R2Q1P0N',
      title: 'Reply to the 2-star review',
      kind: 'draft',
      version: 2,
      parentArtifactId: 'art_01JQ3Z9Y8X7W6V5T4S3R2Q1P0M',
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
  'tag.renamed': {
    description: 'A tag was renamed (or merged into an existing one) across tasks, outputs, memory and the focus tags (POST /workspace/tags/rename); counts per kind. Not emitted when nothing carried the tag.',
    example: { from: 'pricing', to: 'pricing-2026', tasks: { renamed: 3, merged: 1 }, artifacts: { renamed: 2, merged: 0 }, memory: { renamed: 1, merged: 0 }, focusTags: true },
  },
};

export const EVENT_NAMES = Object.keys(EVENT_CATALOG) as EventName[];
