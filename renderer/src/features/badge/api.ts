import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';

/** The health badge's read-only token (/api/v1/workspace/badge-token). */

export type BadgeTokenInfo = Schema<'BadgeTokenInfo'>;

export const badgeTokenQuery = () => queryOptions({ queryKey: queryKeys.badge.token, queryFn: () => unwrap(api.GET('/api/v1/workspace/badge-token')) });

const affects = [queryKeys.badge.all];
/** Every change answers the new token state: show it at once. */
const update = (qc: QueryClient, data: BadgeTokenInfo) => void qc.setQueryData(queryKeys.badge.token, data);

export const useIssueBadgeToken = () => useDeskMutation({ mutationFn: (): Promise<BadgeTokenInfo> => unwrap(api.POST('/api/v1/workspace/badge-token', { body: {} })), affects, update });
export const useRotateBadgeToken = () => useDeskMutation({ mutationFn: (): Promise<BadgeTokenInfo> => unwrap(api.POST('/api/v1/workspace/badge-token/rotate', { body: {} })), affects, update });
export const useRevokeBadgeToken = () => useDeskMutation({ mutationFn: (): Promise<BadgeTokenInfo> => unwrap(api.DELETE('/api/v1/workspace/badge-token')), affects, update });
