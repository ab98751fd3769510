import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '../../app/providers';
import { useAuth } from '../../lib/auth';
import { fakeFetch, json, noFake, type FakeCall } from '../../testing/fake-api';
import { usePrefsNotice } from './notice-store';
import { fakePrefs } from './testing';
import { buildBody, useDashboardPrefs } from './use-dashboard-prefs';
import { defaultPrefs } from './api';

function setup(handle: (call: FakeCall) => Response | undefined | Promise<Response | undefined>) {
  const { calls } = fakeFetch(async (call) => (await handle(call)) ?? noFake(call));
  const qc = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={qc}>{children}</QueryClientProvider>;
  const hook = renderHook(() => useDashboardPrefs(), { wrapper });
  return { calls, qc, hook, puts: () => calls.filter((c) => c.method === 'PUT') };
}

beforeEach(() => {
  useAuth.setState({ token: 't', status: 'signed-in', baseUrl: 'http://127.0.0.1:4000' });
  usePrefsNotice.setState({ message: null });
});

describe('useDashboardPrefs', () => {
  it('reads once, shows a change at once and sends only the fields that changed', async () => {
    const desk = fakePrefs({ activeWorkSort: 'due' });
    // The PUT is held until the test lets it through, to see the optimistic state.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const { calls, hook, puts } = setup(async (call) => {
      if (call.method === 'PUT') await held;
      return desk.handle(call);
    });
    await waitFor(() => expect(hook.result.current.ready).toBe(true));
    expect(hook.result.current.prefs.activeWorkSort).toBe('due');

    let done!: Promise<void>;
    act(() => {
      done = hook.result.current.update({ collapsedPanels: ['inbox'], activeWorkSort: 'due', panelOrder: [...defaultPrefs().panelOrder] });
    });
    // Optimistic: shown before the desk answers.
    await waitFor(() => expect(hook.result.current.prefs.collapsedPanels).toEqual(['inbox']));
    expect(puts()).toHaveLength(1);
    expect(desk.current().collapsedPanels).toEqual([]);
    release();
    await act(() => done);
    // activeWorkSort and panelOrder were unchanged: not sent.
    expect(puts().map((c) => c.body)).toEqual([{ collapsedPanels: ['inbox'] }]);
    expect(desk.current().collapsedPanels).toEqual(['inbox']);
    hook.rerender();
    expect(calls.filter((c) => c.method === 'GET' && c.path === '/api/v1/workspace/dashboard-prefs')).toHaveLength(1);
    expect(usePrefsNotice.getState().message).toBeNull();
  });

  it('sends changes one after the other, each echoing the stamps of the answer before it', async () => {
    const desk = fakePrefs();
    const { hook, puts } = setup((call) => desk.handle(call));
    await waitFor(() => expect(hook.result.current.ready).toBe(true));
    await act(async () => {
      // Fired together, as quick clicks are.
      void hook.result.current.update({ density: 'compact' });
      void hook.result.current.update({ costPanelOrder: { tag: 'name-asc' } });
      await hook.result.current.update({ density: 'comfortable', costPanelOrder: { tag: 'cost-asc' } });
    });
    const bodies = puts().map((c) => c.body as Record<string, unknown>);
    expect(bodies[0]).toEqual({ density: 'compact', densityUpdatedAt: null });
    expect(bodies[1]).toEqual({ costPanelOrder: { tag: 'name-asc' }, costPanelOrderUpdatedAt: { tag: null } });
    // The third echoes what the first two answered, so nothing is rejected.
    expect(bodies[2].densityUpdatedAt).not.toBeNull();
    expect((bodies[2].costPanelOrderUpdatedAt as Record<string, unknown>).tag).not.toBeNull();
    expect(desk.current().density).toBe('comfortable');
    expect(desk.current().costPanelOrder.tag).toBe('cost-asc');
    expect(usePrefsNotice.getState().message).toBeNull();
  });

  it('a change rejected as stale takes the desk’s value and says so quietly', async () => {
    const desk = fakePrefs();
    const { hook } = setup((call) => desk.handle(call));
    await waitFor(() => expect(hook.result.current.ready).toBe(true));
    // Another window orders tags by name and makes the layout compact after this one read them.
    desk.elsewhere({ density: 'compact', costPanelOrder: { ...desk.current().costPanelOrder, tag: 'name-asc' }, costPanelOrderUpdatedAt: { ...desk.current().costPanelOrderUpdatedAt, tag: '2026-03-10T11:00:00.000Z' } });

    await act(() => hook.result.current.update({ costPanelOrder: { tag: 'cost-asc' }, collapsedPanels: ['today'] }));
    await waitFor(() => expect(hook.result.current.prefs.costPanelOrder.tag).toBe('name-asc'));
    // The unguarded field went through.
    expect(hook.result.current.prefs.collapsedPanels).toEqual(['today']);
    expect(usePrefsNotice.getState().message).toBe('Your change to the order of tags on the Cost page was not saved: it had been changed in another window. Showing the saved setting.');

  });

  it('density: a stale choice is dropped for the value another window saved since', async () => {
    const desk = fakePrefs({ density: 'compact', densityUpdatedAt: '2026-03-10T08:00:00.000Z' });
    const { hook } = setup((call) => desk.handle(call));
    await waitFor(() => expect(hook.result.current.prefs.density).toBe('compact'));
    // Elsewhere: comfortable, then compact again (a newer stamp).
    desk.elsewhere({ density: 'comfortable' });
    desk.elsewhere({ density: 'compact' });
    await act(() => hook.result.current.update({ density: 'comfortable' }));
    await waitFor(() => expect(hook.result.current.prefs.density).toBe('compact'));
    expect(hook.result.current.prefs.densityUpdatedAt).toBe(desk.current().densityUpdatedAt);
    expect(usePrefsNotice.getState().message).toMatch(/^Your change to density was not saved: it had been changed in another window/);
    // The next choice echoes the adopted stamp and goes through.
    usePrefsNotice.setState({ message: null });
    await act(() => hook.result.current.update({ density: 'comfortable' }));
    expect(desk.current().density).toBe('comfortable');
    expect(usePrefsNotice.getState().message).toBeNull();
  });

  it('a failed write puts back what the desk holds, with the reason', async () => {
    const desk = fakePrefs({ panelOrder: ['inbox', 'today'] });
    const { hook } = setup((call) =>
      call.method === 'PUT' ? json(422, { error: 'validation_failed', message: 'panelOrder[0] is listed twice', details: [{ field: 'panelOrder[0]', message: 'is listed twice' }] }) : desk.handle(call),
    );
    await waitFor(() => expect(hook.result.current.ready).toBe(true));
    await act(() => hook.result.current.update({ panelOrder: ['today', 'today'] }));
    await waitFor(() => expect(hook.result.current.prefs.panelOrder).toEqual(['inbox', 'today']));
    expect(usePrefsNotice.getState().message).toBe('Your preference change was not saved: panelOrder[0] is listed twice');
  });

  it('reset asks the desk for the defaults and shows them', async () => {
    const desk = fakePrefs({ density: 'compact', collapsedPanels: ['today', 'inbox'], activeWorkSort: 'created' });
    const { calls, hook } = setup((call) => desk.handle(call));
    await waitFor(() => expect(hook.result.current.prefs.density).toBe('compact'));
    await act(() => hook.result.current.reset());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(true);
    await waitFor(() => expect(hook.result.current.prefs.collapsedPanels).toEqual([]));
    expect(hook.result.current.prefs.activeWorkSort).toBe('smart');
    expect(hook.result.current.prefs.density).toBe('comfortable');
  });

  it('an answer it cannot read leaves the defaults in place', async () => {
    const { hook } = setup((call) => (call.method === 'GET' ? json(404, { error: 'not_found', message: 'no such route' }) : undefined));
    await waitFor(() => expect(hook.result.current.ready).toBe(true));
    expect(hook.result.current.prefs).toEqual(defaultPrefs());
  });
});

describe('buildBody', () => {
  const base = { ...defaultPrefs('usr_1'), densityUpdatedAt: '2026-03-10T10:00:00.000Z', taskCommentFilters: [{ taskId: 'tsk_1', q: 'price', authorId: null, updatedAt: '2026-03-10T09:00:00.000Z' }] };

  it('is null when nothing differs from the desk’s answer', () => {
    expect(buildBody(base, { density: 'comfortable', collapsedPanels: [], costPanelOrder: { task: 'cost-desc' }, taskCommentFilters: [{ taskId: 'tsk_1', q: 'price', authorId: null }] })).toBeNull();
  });

  it('echoes the stamp of each guarded value it writes, and null for a filter never set', () => {
    expect(
      buildBody(base, {
        density: 'compact',
        taskCommentFilters: [
          { taskId: 'tsk_1', q: null, authorId: null },
          { taskId: 'tsk_2', q: 'launch', authorId: 'usr_2' },
        ],
      }),
    ).toEqual({
      density: 'compact',
      densityUpdatedAt: '2026-03-10T10:00:00.000Z',
      taskCommentFilters: [
        { taskId: 'tsk_1', q: null, authorId: null, updatedAt: '2026-03-10T09:00:00.000Z' },
        { taskId: 'tsk_2', q: 'launch', authorId: 'usr_2', updatedAt: null },
      ],
    });
  });
});
