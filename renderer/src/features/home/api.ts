import { queryOptions } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';
import { pollWhenStreamDown } from '../live/live-store';

/** Query options and the one mutation of the Home page: the overview reads and acknowledging a mention. */

export type WorkspaceSummary = Schema<'WorkspaceSummary'>;
export type TodaySnapshot = Schema<'TodaySnapshot'>;
export type DayFigures = Schema<'DayFigures'>;
export type WhatsNew = Schema<'WhatsNew'>;
export type PersonalInbox = Schema<'PersonalInbox'>;
export type Insights = Schema<'Insights'>;
export type ReactionsSummary = Schema<'ReactionsSummary'>;

/** Home's figures move as cycles run and signals arrive: events refresh them; while the event stream is down, a poll every minute. */
export const HOME_POLL_MS = 60_000;
const homePoll = pollWhenStreamDown(HOME_POLL_MS);

export const summaryQuery = () => queryOptions({ queryKey: queryKeys.overview.summary, queryFn: () => unwrap(api.GET('/api/v1/workspace/summary')), refetchInterval: homePoll });

export const todayQuery = () => queryOptions({ queryKey: queryKeys.overview.today, queryFn: () => unwrap(api.GET('/api/v1/workspace/today')), refetchInterval: homePoll });

/** What's new since `since` (null: the server's default, the last 24 hours). */
export const whatsNewQuery = (since: string | null) =>
  queryOptions({
    queryKey: queryKeys.overview.whatsNew(since),
    queryFn: () => unwrap(api.GET('/api/v1/workspace/whats-new', { params: { query: since === null ? {} : { since } } })),
  });

/** One member's inbox (null: the workspace owner, as the desk acts by default). */
export const inboxQuery = (userId: string | null) =>
  queryOptions({
    queryKey: queryKeys.overview.inbox(userId),
    queryFn: () => unwrap(api.GET('/api/v1/workspace/personal-inbox', { params: { query: userId === null ? {} : { userId } } })),
    refetchInterval: homePoll,
  });

export const insightsQuery = () => queryOptions({ queryKey: queryKeys.overview.insights, queryFn: () => unwrap(api.GET('/api/v1/insights')) });

export const reactionsQuery = () => queryOptions({ queryKey: queryKeys.overview.reactions, queryFn: () => unwrap(api.GET('/api/v1/workspace/reactions-summary')) });

/** Acknowledges a mention as the member it names (it leaves their inbox and the task's mention list). */
export const useAckMention = () =>
  useDeskMutation({
    mutationFn: ({ mentionId, asUserId }: { mentionId: string; asUserId: string }) => unwrap(api.POST('/api/v1/mentions/{id}/ack', { params: { path: { id: mentionId } }, body: { asUserId } })),
    affects: [queryKeys.overview.all, queryKeys.tasks.all],
  });
