import { queryOptions } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { cursorList, withCursor, type CursorPage } from '../../api/cursor-list';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';

/** Query options and mutation hooks for the workspace configuration (/api/v1/workspace/...). */

export type WorkspaceProfile = Schema<'WorkspaceProfile'>;
export type SpikeAction = Schema<'SpikeAction'>;
export type LoopState = Schema<'LoopState'>;
export type Plan = Schema<'Plan'>;

export const workspaceQuery = () =>
  queryOptions({
    queryKey: queryKeys.workspace.profile,
    queryFn: () => unwrap(api.GET('/api/v1/workspace')),
  });

/** Focus shifts in the window, newest first, a page (the API's default size) at a time. */
export const focusHistoryList = (sinceDays: number) =>
  cursorList({
    queryKey: queryKeys.workspace.focusHistory(sinceDays),
    fetchPage: (cursor): Promise<Schema<'FocusHistory'> & CursorPage> =>
      unwrap(api.GET('/api/v1/workspace/focus-history', { params: { query: withCursor({ sinceDays }, cursor) } })),
    items: (page) => page.shifts,
    // The current focus's duration grows while the page is open.
    refetchInterval: 60_000,
  });

/**
 * A settings change: on success the answer is folded into the cached profile at once (`merge`),
 * then everything under `workspace`, the header's and Today's figures, Cost (and the activity log) are refetched.
 */
function useSettingMutation<Vars, Data>(send: (vars: Vars) => Promise<Data>, merge: (profile: WorkspaceProfile, data: Data) => WorkspaceProfile) {
  return useDeskMutation<Data, Vars>({
    mutationFn: send,
    update: (qc, data) => qc.setQueryData(workspaceQuery().queryKey, (p) => (p ? merge(p, data) : p)),
    // The loop state, its interval and the cap show in the header, Today and Cost too: a saved cap at once there as well.
    affects: [queryKeys.workspace.all, queryKeys.stats.all, queryKeys.overview.all, queryKeys.cost.all],
  });
}

const replaceProfile = (_: WorkspaceProfile, next: WorkspaceProfile) => next;

export const useSetLoopState = () =>
  useSettingMutation((body: Schema<'LoopStateBody'>) => unwrap(api.PATCH('/api/v1/workspace/loop', { body })), replaceProfile);

export const useSetPauseUntil = () =>
  useSettingMutation((body: Schema<'PauseUntilBody'>) => unwrap(api.PATCH('/api/v1/workspace/pause-until', { body })), replaceProfile);

export const useSetLoopInterval = () =>
  useSettingMutation(
    (body: Schema<'LoopIntervalBody'>) => unwrap(api.PATCH('/api/v1/workspace/loop-interval', { body })),
    (p, r) => ({ ...p, ...r }),
  );

export const useSetApprovalPolicy = () =>
  useSettingMutation(
    (body: Schema<'ApprovalPolicyBody'>) => unwrap(api.PATCH('/api/v1/workspace/approval-policy', { body })),
    (p, approvalPolicy) => ({ ...p, approvalPolicy }),
  );

export const useSetFocusTags = () =>
  useSettingMutation(
    (body: Schema<'FocusTagsBody'>) => unwrap(api.PUT('/api/v1/workspace/focus-tags', { body })),
    (p, r) => ({ ...p, focusTags: r.tags }),
  );

export const useSetTaskArchive = () =>
  useSettingMutation(
    (body: Schema<'AutoArchiveConfig'>) => unwrap(api.PUT('/api/v1/workspace/auto-archive-config', { body })),
    (p, r) => ({ ...p, ...r }),
  );

export const useSetMemoryArchive = () =>
  useSettingMutation(
    (body: Schema<'MemoryArchiveConfig'>) => unwrap(api.PUT('/api/v1/workspace/memory-archive-config', { body })),
    (p, r) => ({ ...p, ...r }),
  );

export const useSetTaskSpikeAction = () =>
  useSettingMutation(
    (body: Schema<'TaskCostSpikeConfig'>) => unwrap(api.PUT('/api/v1/workspace/cost-spike-config', { body })),
    (p, r) => ({ ...p, ...r }),
  );

export const useSetSourceSpikeAction = () =>
  useSettingMutation(
    (body: Schema<'SourceCostSpikeConfig'>) => unwrap(api.PUT('/api/v1/workspace/source-cost-spike-config', { body })),
    (p, r) => ({ ...p, ...r }),
  );

export const useSetTagSpikeAction = () =>
  useSettingMutation(
    (body: Schema<'TagCostSpikeConfig'>) => unwrap(api.PUT('/api/v1/workspace/tag-cost-spike-config', { body })),
    (p, r) => ({ ...p, ...r }),
  );

export const useSetSourceChronicSpike = () =>
  useSettingMutation(
    (body: Schema<'SourceChronicSpikeBody'>) => unwrap(api.PUT('/api/v1/workspace/source-chronic-spike-config', { body })),
    (p, r) => ({ ...p, sourceChronicSpikeAction: r.sourceChronicSpikeAction, sourceChronicThresholdDays: r.thresholdDays }),
  );

export const useSetCostCap = () =>
  useSettingMutation(
    (body: Schema<'CostCapBody'>) => unwrap(api.PATCH('/api/v1/workspace/cost-cap', { body })),
    (p, r) => ({ ...p, ...r }),
  );

export const useSetTimezone = () =>
  useSettingMutation((body: Schema<'TimezoneBody'>) => unwrap(api.PATCH('/api/v1/workspace/timezone', { body })), replaceProfile);

export const useSetDigestEmail = () =>
  useSettingMutation((body: Schema<'DigestEmailBody'>) => unwrap(api.PATCH('/api/v1/workspace/digest-email', { body })), replaceProfile);

export const useSetPlan = () =>
  useSettingMutation((body: Schema<'PlanBody'>) => unwrap(api.PATCH('/api/v1/workspace/plan', { body })), replaceProfile);

export type Backup = Schema<'Backup'>;
export type BackupList = Schema<'BackupList'>;

/** The backups on disk (newest first), their folder and how many are kept. */
export const backupsQuery = () =>
  queryOptions({
    queryKey: queryKeys.backups.list,
    queryFn: () => unwrap(api.GET('/api/v1/backups')),
  });

/** "Back up now": the new backup shows in the list at once, then the list is refetched (pruning may remove the oldest). */
export const useCreateBackup = () =>
  useDeskMutation<Backup, void>({
    mutationFn: () => unwrap(api.POST('/api/v1/backups')),
    update: (qc, backup) =>
      qc.setQueryData(backupsQuery().queryKey, (list) => (list && !list.backups.some((b) => b.name === backup.name) ? { ...list, backups: [backup, ...list.backups] } : list)),
    affects: [queryKeys.backups.all],
  });
