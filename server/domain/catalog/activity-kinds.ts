/**
 * Every kind of activity-log row, as `area.what`. One list so the log can be filtered by a known
 * vocabulary and a typo fails to compile; an area adds its kinds here when it adds a change.
 */
export const ACTIVITY_KINDS = [
  // workspace configuration
  'workspace.created',
  'workspace.loop_state',
  'workspace.pause_scheduled',
  'workspace.pause_cleared',
  'workspace.pause_expired',
  'workspace.loop_interval',
  'workspace.approval_policy',
  'workspace.focus_tags',
  'workspace.auto_archive',
  'workspace.memory_archive',
  'workspace.cost_spike_config',
  'workspace.source_cost_spike_config',
  'workspace.source_chronic_spike_config',
  'workspace.tag_cost_spike_config',
  'workspace.cost_cap',
  'workspace.timezone',
  'workspace.digest_email',
  'workspace.plan',
  'workspace.relay_url',
  'workspace.token_rotated',
  'workspace.engine',
  'workspace.imported',
  // signals
  'signal.created',
  'signal.received',
  'signal.bulk_deleted',
  'signal.bulk_pinned',
  'signal.bulk_unpinned',
  'signal.reaction_added',
  'signal.reaction_removed',
  // sources
  'source.created',
  'source.deleted',
  'source.renamed',
  'source.status',
  'source.paused',
  'source.resumed',
  'source.pause_scheduled',
  'source.cadence',
  'source.keywords',
  'source.polled',
  'source.poll_failed',
  'source.connected',
  'source.recovered',
  'source.imported',
  'source.quietness_acked',
  'source.quietness_unacked',
  'source.quietness_warning',
  // scoped ingest URLs (server/domain/ingest)
  'ingest_token.created',
  'ingest_token.revoked',
  // MCP tokens and the calls made with them (server/domain/mcp-tokens)
  'mcp_token.created',
  'mcp_token.revoked',
  'mcp.tool_called',
  // task comments, mentions and share links (server/domain/comments, server/domain/sharing)
  'comment.created',
  'comment.reaction_added',
  'comment.reaction_removed',
  'mention.acknowledged',
  'task.share_enabled',
  'task.share_disabled',
  // members and invites (server/domain/members)
  'member.invited',
  'member.invite_revoked',
  'member.joined',
  'member.removed',
  'member.availability',
  // task templates (server/domain/templates)
  'task_template.created',
  'task_template.updated',
  'task_template.deleted',
  'task_template.used',
  // shared saved searches (server/domain/saved-searches)
  'saved_search.created',
  'saved_search.deleted',
  // tasks
  'task.created',
  'task.status_changed',
  'task.assigned',
  'task.pinned',
  'task.unpinned',
  'task.tags',
  'task.blockers',
  'task.unblocked',
  'task.deleted',
  'task.priority',
  'task.tagged',
  'task.untagged',
  'task.note_added',
  'task.renewed',
  'task.archive_warning',
  'task.auto_archived',
  'task.duplicated',
  // the loop (server/domain/loop): cycles, the cost cap, what cycles write
  'run.completed',
  'run.failed',
  'run.skipped',
  'cost.cap_reached',
  'artifact.created',
  // outbound webhooks (server/domain/outbound)
  'outbound.subscription_created',
  'outbound.subscription_updated',
  'outbound.subscription_deleted',
  'outbound.subscription_disabled',
  // backups
  'backup.created',
  // memory (server/domain/memory)
  'memory.created',
  'memory.updated',
  'memory.pinned',
  'memory.unpinned',
  'memory.tagged',
  'memory.untagged',
  'memory.deleted',
  'memory.archived',
  'memory.reaction_added',
  'memory.reaction_removed',
  // outputs (server/domain/artifacts)
  'artifact.reaction_added',
  'artifact.reaction_removed',
  'artifact.approved',
  'artifact.archived',
  'artifact.tags_changed',
  'artifact.pinned',
  'artifact.unpinned',
  // cost guardrails (server/domain/cost-guard): detections and acks, entityType = the dimension
  'cost.spike',
  'cost.chronic_warning',
  'cost.spike_acked',
  'cost.chronic_acked',
  // tags across the workspace (server/domain/tags)
  'tag.renamed',
  // dashboard preferences and the daily digest (server/domain/dashboard-prefs, server/domain/digest)
  'dashboard_prefs.updated',
  'dashboard_prefs.reset',
  'digest.run',
  'digest.preview',
  // roadmap votes and the health badge's token (server/domain/roadmap, server/domain/badge)
  'roadmap.voted',
  'roadmap.vote_removed',
  'badge_token.issued',
  'badge_token.rotated',
  'badge_token.revoked',
  // onboarding templates (server/domain/onboarding): one row per apply
  'onboarding.template_applied',
] as const;

export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

const known = new Set<string>(ACTIVITY_KINDS);
export const isActivityKind = (value: string): value is ActivityKind => known.has(value);
