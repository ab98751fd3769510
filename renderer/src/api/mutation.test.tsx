import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { useDeskMutation } from './mutation';
import { queryKeys } from './query-keys';

function setup() {
  const qc = new QueryClient();
  // Cached data standing for what pages show: sources, signals, the activity log and a setting.
  for (const key of [queryKeys.sources.list(), queryKeys.signals.list({}), queryKeys.activity.list({}), queryKeys.workspace.profile]) qc.setQueryData(key, { v: 1 });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>;
  const stale = () => ({
    sources: qc.getQueryState(queryKeys.sources.list())!.isInvalidated,
    signals: qc.getQueryState(queryKeys.signals.list({}))!.isInvalidated,
    activity: qc.getQueryState(queryKeys.activity.list({}))!.isInvalidated,
    workspace: qc.getQueryState(queryKeys.workspace.profile)!.isInvalidated,
  });
  return { qc, wrapper, stale };
}

describe('useDeskMutation', () => {
  it('after a change, refreshes what it affects and the activity log, and nothing else', async () => {
    const { wrapper, stale } = setup();
    const { result } = renderHook(() => useDeskMutation({ mutationFn: async (n: number) => n * 2, affects: [queryKeys.sources.all] }), { wrapper });
    await act(() => result.current.mutateAsync(2));
    expect(stale()).toEqual({ sources: true, signals: false, activity: true, workspace: false });
  });

  it('folds the answer into the cache before refreshing', async () => {
    const { qc, wrapper } = setup();
    const { result } = renderHook(
      () => useDeskMutation({ mutationFn: async (v: number) => ({ v }), update: (client, data) => client.setQueryData(queryKeys.workspace.profile, data), affects: [] }),
      { wrapper },
    );
    await act(() => result.current.mutateAsync(7));
    expect(qc.getQueryData(queryKeys.workspace.profile)).toEqual({ v: 7 });
  });

  it('a request that changes nothing (a preview) refreshes nothing', async () => {
    const { wrapper, stale } = setup();
    const { result } = renderHook(
      () => useDeskMutation({ mutationFn: async (preview: boolean) => ({ preview }), affects: (r) => (r.preview ? [] : [queryKeys.signals.all]), logged: (r) => !r.preview }),
      { wrapper },
    );
    await act(() => result.current.mutateAsync(true));
    expect(stale()).toEqual({ sources: false, signals: false, activity: false, workspace: false });
    await act(() => result.current.mutateAsync(false));
    expect(stale()).toEqual({ sources: false, signals: true, activity: true, workspace: false });
  });
});
