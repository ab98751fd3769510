import { queryOptions } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';

/** Members, invites and reviewer availability (/api/v1/workspace/members, /invites). */

export type Member = Schema<'Member'>;
export type Invite = Schema<'Invite'>;
export type InviteRole = Schema<'InviteRole'>;
export type ReviewAvailability = Schema<'ReviewAvailability'>;

export const membersQuery = () =>
  queryOptions({
    queryKey: queryKeys.members.list,
    queryFn: () => unwrap(api.GET('/api/v1/workspace/members')),
  });

const affects = [queryKeys.members.all];

export const useInvite = () =>
  useDeskMutation({
    mutationFn: (body: Schema<'InviteBody'>): Promise<Invite> => unwrap(api.POST('/api/v1/workspace/invites', { body })),
    affects,
  });

export const useAcceptInvite = () =>
  useDeskMutation({
    mutationFn: ({ inviteId, name }: { inviteId: string; name: string }): Promise<Member> =>
      unwrap(api.POST('/api/v1/workspace/invites/{inviteId}/accept', { params: { path: { inviteId } }, body: { name } })),
    affects,
  });

export const useRevokeInvite = () =>
  useDeskMutation({
    mutationFn: (inviteId: string): Promise<Invite> => unwrap(api.DELETE('/api/v1/workspace/invites/{inviteId}', { params: { path: { inviteId } } })),
    affects,
  });

export const useRemoveMember = () =>
  useDeskMutation({
    mutationFn: (userId: string): Promise<Member> => unwrap(api.DELETE('/api/v1/workspace/members/{userId}', { params: { path: { userId } } })),
    affects,
  });

export const useSetAvailability = () =>
  useDeskMutation({
    mutationFn: ({ userId, availability }: { userId: string; availability: ReviewAvailability }): Promise<Member> =>
      unwrap(api.PUT('/api/v1/workspace/members/{userId}/availability', { params: { path: { userId } }, body: { availability } })),
    update: (qc, member) =>
      qc.setQueryData(membersQuery().queryKey, (cur) => (cur ? { ...cur, members: cur.members.map((m) => (m.id === member.id ? member : m)) } : cur)),
    affects,
  });
