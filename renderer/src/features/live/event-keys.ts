import type { QueryKey } from '@tanstack/react-query';
import type { Schema } from '../../api/client';
import { queryKeys as k } from '../../api/query-keys';

/**
 * What each desk event makes stale in the app, as react-query key prefixes: the one table the live
 * stream reads (event-keys.test.ts checks that every event of the catalog has a row, that every key
 * is one the app uses, and the rows the header, Today, Cost, Sources, Signals and Outputs depend on).
 * `EVERYTHING` reloads the whole cache (an import replaces the workspace's data).
 */

export type EventName = Schema<'EventName'>;

export const EVERYTHING = 'everything' as const;
type Affects = readonly QueryKey[] | typeof EVERYTHING;

/** The header (GET /stats), Today and the workspace summary: the figures a cycle moves. */
const figures = [k.stats.all, k.overview.all] as const;
/** What a cycle can change: its own record, what it made, what it read, what it spent. */
const cycle = [k.runs.all, ...figures, k.cost.all, k.tasks.all, k.artifacts.all, k.signals.all, k.memory.all, k.sources.all, k.search.all] as const;
const sources = [k.sources.all, ...figures] as const;
const tasks = [k.tasks.all, k.overview.all, k.search.all] as const;
const outputs = [k.artifacts.all, k.tasks.all, ...figures, k.search.all] as const;
const memory = [k.memory.all, k.search.all] as const;
const loopState = [k.workspace.all, ...figures] as const;
const spike = (area: QueryKey) => [k.cost.all, area, k.overview.all] as const;

export const EVENT_AFFECTS: Readonly<Record<EventName, Affects>> = {
  // A signal through the inbound webhook or the relay also moves the counts of Settings › Integrations.
  'signal.created': [k.signals.all, k.sources.all, k.overview.all, k.search.all, k.integrations.all],
  'source.created': sources,
  'source.deleted': [...sources, k.signals.all],
  'source.paused': sources,
  'source.resumed': sources,
  'source.errored': sources,
  'source.recovered': sources,
  // A source's first poll succeeded (pending -> connected), with or without new items.
  'source.connected': [k.sources.all],
  'source.quietness_acked': sources,
  'source.quietness_unacked': sources,
  'source.quietness_warning': sources,
  'workspace.loop_state_changed': loopState,
  'loop.state_changed': loopState,
  // The cap shows in the header, Today, the Cost page and Settings.
  'workspace.cost_cap_changed': [k.workspace.all, ...figures, k.cost.all],
  // Nothing to refetch: this tab's rotation updates its own token and URLs from the answer, and the
  // event can come first, when a refetch would still send the old token (refused). Other tabs hold
  // the old token and sign in again.
  'workspace.token_rotated': [],
  'workspace.engine_changed': [k.workspace.all, k.cost.all, k.stats.all],
  'workspace.imported': EVERYTHING,
  'run.completed': cycle,
  'run.failed': cycle,
  'cost.cap_reached': [...figures, k.cost.all, k.workspace.all],
  'artifact.ready': outputs,
  'artifact.created': outputs,
  'artifact.superseded': outputs,
  'artifact.approved': outputs,
  'artifact.archived': outputs,
  // A test delivery to a webhook subscription: it shows in the deliveries.
  'artifact.test': [k.outbound.all],
  'outbound.subscription_created': [k.outbound.all],
  'outbound.subscription_updated': [k.outbound.all],
  'outbound.subscription_deleted': [k.outbound.all],
  'outbound.subscription_disabled': [k.outbound.all],
  'ingest_token.created': [k.integrations.all],
  'ingest_token.revoked': [k.integrations.all],
  'comment.created': tasks,
  'mention.acknowledged': tasks,
  'task.share_changed': tasks,
  'task.created': tasks,
  'task.status_changed': tasks,
  'task.assigned': tasks,
  'task.unblocked': tasks,
  'task.deleted': [...tasks, k.artifacts.all],
  'task.note_added': tasks,
  'task.renewed': tasks,
  'task.archive_warning': tasks,
  'member.invited': [k.members.all],
  'member.invite_revoked': [k.members.all],
  'member.joined': [k.members.all],
  'member.removed': [k.members.all, k.tasks.all],
  'member.availability_changed': [k.members.all, k.overview.all],
  'task_template.created': [k.templates.all],
  'task_template.updated': [k.templates.all],
  'task_template.deleted': [k.templates.all],
  'saved_search.created': [k.search.all],
  'saved_search.deleted': [k.search.all],
  'memory.created': memory,
  'memory.updated': memory,
  'memory.deleted': memory,
  'memory.archived': memory,
  'task.cost_spike': spike(k.tasks.all),
  'source.cost_spike': spike(k.sources.all),
  'tag.cost_spike': spike(k.cost.all),
  'assignee.cost_spike': spike(k.members.all),
  'memory.cost_spike': spike(k.memory.all),
  'source.chronic_warning': spike(k.sources.all),
  'tag.chronic_warning': spike(k.cost.all),
  'assignee.chronic_warning': spike(k.members.all),
  'memory.chronic_warning': spike(k.memory.all),
  'task.cost_spike_acked': spike(k.tasks.all),
  'source.cost_spike_acked': spike(k.sources.all),
  'tag.cost_spike_acked': spike(k.cost.all),
  'assignee.cost_spike_acked': spike(k.members.all),
  'memory.cost_spike_acked': spike(k.memory.all),
  'source.chronic_warning_acked': spike(k.sources.all),
  'tag.chronic_warning_acked': spike(k.cost.all),
  'assignee.chronic_warning_acked': spike(k.members.all),
  'memory.chronic_warning_acked': spike(k.memory.all),
  'tag.renamed': [k.tasks.all, k.memory.all, k.artifacts.all, k.cost.all, k.search.all],
  'onboarding.template_applied': [k.workspace.all, k.memory.all, k.signals.all, k.sources.all, k.overview.all],
  // The member's own layout: the preferences hook holds its changes until the desk confirms them,
  // and a refetch under a pending change would show the older layout; the poll brings another
  // window's change.
  'dashboard_prefs.updated': [],
  'dashboard_prefs.reset': [],
  'digest.sent': [k.digest.all],
  'digest.muted': [k.digest.all],
};

/**
 * The keys to refresh for one event: its row, the activity log (every change writes a row there)
 * and the Webhooks section (any event may be delivered to a subscription, and deliveries make no
 * events of their own); an empty row refreshes nothing. An event the app does not know yet (a newer desk)
 * refreshes everything rather than leaving a panel stale.
 */
export function keysForEvent(event: string): Affects {
  const row = (EVENT_AFFECTS as Record<string, Affects | undefined>)[event];
  if (row === undefined || row === EVERYTHING) return EVERYTHING;
  return row.length === 0 ? [] : [...row, k.activity.all, k.outbound.all];
}
