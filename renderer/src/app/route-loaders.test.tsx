import { createMemoryHistory } from '@tanstack/react-router';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAuth } from '../lib/auth';
import { fixClock } from '../testing/clock';
import { fakeFetch, json, noFake, type FakeCall } from '../testing/fake-api';
import { renderAppAt } from '../testing/render';
import { aQueuePage } from '../features/outputs/testing';
import { defaultPrefs } from '../features/preferences/api';
import { taskRow } from '../features/tasks/testing';
import { createQueryClient } from './providers';
import { createAppRouter } from './routes';

const signal = (id: string, title: string) => ({
  id,
  kind: 'news',
  priority: 'normal',
  title,
  detail: 'What a customer said',
  sourceUrl: null,
  sourceId: null,
  sourceLabel: null,
  pinned: false,
  reactions: [],
  createdAt: '2026-03-10T09:00:00.000Z',
  triagedAt: null,
  externalId: null,
});

/** Answers the page reads these tests look at; everything else is unknown (a 404 the pages show). */
function fakeDesk() {
  return fakeFetch((call: FakeCall) => {
    if (call.path === '/api/v1/signals') return json(200, { signals: [signal('sig_1', 'Checkout fails on Safari')], nextCursor: null });
    if (call.path === '/api/v1/sources') return json(200, { sources: [], nextCursor: null });
    if (call.path === '/api/v1/tasks') return json(200, { tasks: [taskRow('tsk_1', 'Answer the refund thread')], nextCursor: null });
    if (call.path === '/api/v1/artifacts') return json(200, aQueuePage([]));
    return noFake(call);
  });
}

const gets = (calls: FakeCall[], path: string) => calls.filter((c) => c.method === 'GET' && c.path === path);

describe('route loaders', () => {
  it.each([
    ['/today', ['/api/v1/workspace/today', '/api/v1/workspace/dashboard-prefs']],
    ['/signals', ['/api/v1/signals', '/api/v1/sources']],
    ['/tasks', ['/api/v1/tasks', '/api/v1/workspace/dashboard-prefs']],
    ['/outputs', ['/api/v1/artifacts']],
    ['/cost', ['/api/v1/cost/today', '/api/v1/tasks/top-cost']],
    ['/activity', ['/api/v1/activity']],
  ])('navigation to %s asks for its first reads before anything renders', async (path, reads) => {
    const { calls } = fakeDesk();
    const client = createQueryClient();
    const router = createAppRouter(createMemoryHistory({ initialEntries: [path] }), client);
    // No React tree at all: only the router resolving the URL (its loaders, the page's chunk).
    await router.load();
    for (const read of reads) expect(gets(calls, read).length, read).toBe(1);
  });

  it('the page renders from the loader\'s request: the list is asked once, and shown', async () => {
    useAuth.setState({ token: 't', status: 'signed-in' });
    fixClock('2026-03-10T12:00:00.000Z');
    const { calls } = fakeDesk();
    renderAppAt('/signals');
    const list = await screen.findByRole('list', { name: 'Signals' });
    expect(within(list).getByText('Checkout fails on Safari')).toBeTruthy();
    expect(gets(calls, '/api/v1/signals')).toHaveLength(1);
  });

  it('the Outputs loader asks with the URL\'s filters, as the page does (defaults left out)', async () => {
    useAuth.setState({ token: 't', status: 'signed-in' });
    const { calls } = fakeDesk();
    renderAppAt('/outputs?status=approved&sort=recent');
    await screen.findByRole('heading', { level: 1, name: 'Outputs' });
    await waitFor(() => expect(gets(calls, '/api/v1/artifacts').length).toBeGreaterThan(0));
    const asked = gets(calls, '/api/v1/artifacts');
    // One request: the page's hook found the loader's; `recent` is approved's default order, so not sent.
    expect(asked).toHaveLength(1);
    expect(Object.fromEntries(asked[0].query)).toEqual({ status: 'approved' });
  });

  it('the Tasks loader asks in the order the page shows before the preferences are read (the defaults)', async () => {
    useAuth.setState({ token: 't', status: 'signed-in' });
    fixClock('2026-03-10T12:00:00.000Z');
    const { calls } = fakeDesk();
    renderAppAt('/tasks');
    await screen.findByRole('link', { name: 'Answer the refund thread' });
    const asked = gets(calls, '/api/v1/tasks');
    expect(asked).toHaveLength(1);
    expect(asked[0].query.get('sort')).toBe(defaultPrefs().activeWorkSort);
  });
});
