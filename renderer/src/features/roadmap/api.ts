import { queryOptions } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';

/** The public roadmap (/api/v1/roadmap-items, /roadmap-votes) and voting on it (bearer). */

export type RoadmapItems = Schema<'RoadmapItems'>;
export type RoadmapVotes = Schema<'RoadmapVotes'>;
export type RoadmapItemVotes = Schema<'RoadmapItemVotes'>;
export type RoadmapVoteResult = Schema<'RoadmapVoteResult'>;

export const roadmapItemsQuery = () => queryOptions({ queryKey: queryKeys.roadmap.items, queryFn: () => unwrap(api.GET('/api/v1/roadmap-items')) });
export const roadmapVotesQuery = () => queryOptions({ queryKey: queryKeys.roadmap.votes, queryFn: () => unwrap(api.GET('/api/v1/roadmap-votes')) });
export const myRoadmapVotesQuery = () => queryOptions({ queryKey: queryKeys.roadmap.mine, queryFn: () => unwrap(api.GET('/api/v1/roadmap-items/my-votes')) });

const affects = [queryKeys.roadmap.votes, queryKeys.roadmap.mine];

/** Votes (`vote: true`) or takes the vote back for the signed-in operator (the owner). */
export const useRoadmapVote = () =>
  useDeskMutation({
    mutationFn: ({ key, vote }: { key: string; vote: boolean }): Promise<RoadmapVoteResult> =>
      vote
        ? unwrap(api.POST('/api/v1/roadmap-items/{key}/vote', { params: { path: { key } }, body: {} }))
        : unwrap(api.DELETE('/api/v1/roadmap-items/{key}/vote', { params: { path: { key } } })),
    affects,
    // Show the new state at once; the refetch brings the counts and trend.
    update: (qc, data) => {
      qc.setQueryData<Schema<'MyRoadmapVotes'>>(queryKeys.roadmap.mine, (mine) => {
        if (!mine) return mine;
        const keys = mine.itemKeys.filter((k) => k !== data.itemKey);
        return { ...mine, itemKeys: data.voted ? [...keys, data.itemKey] : keys };
      });
    },
    logged: (data) => data.changed,
  });
