import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Schema } from '../../api/client';
import { useAuth } from '../../lib/auth';
import { fixClock } from '../../testing/clock';
import { fakeFetch, json, noFake } from '../../testing/fake-api';
import { renderAppAt } from '../../testing/render';
import { aProfile, someStats } from '../runs/testing';
import { aSignal } from '../signals/testing';
import { useLiveStream } from './live-store';
import { sseStream } from './testing';

/**
 * The app's one stream subscription, end to end in the renderer: the desk's events (a fake stream)
 * refresh the header and the Signals page with no poll involved (no timer runs in these tests).
 */
function fakeDesk() {
  const stream = sseStream();
  let stats: Schema<'DeskStats'> = someStats();
  let signals: unknown[] = [];
  const fake = fakeFetch(async (call) => {
    const { method, path } = call;
    if (method === 'GET' && path === '/api/v1/events/stream') return stream.response;
    if (method === 'GET' && path === '/api/v1/workspace') return json(200, aProfile());
    if (method === 'GET' && path === '/api/v1/stats') return json(200, stats);
    if (method === 'GET' && path === '/api/v1/signals') return json(200, { signals, nextCursor: null });
    if (method === 'GET' && path === '/api/v1/sources') return json(200, { sources: [], nextCursor: null });
    return noFake(call);
  });
  return {
    ...fake,
    stream,
    setStats: (s: Partial<Schema<'DeskStats'>>) => (stats = someStats(s)),
    setSignals: (s: unknown[]) => (signals = s),
    count: (path: string) => fake.calls.filter((c) => c.path === path).length,
  };
}

beforeEach(() => {
  fixClock('2026-03-10T12:00:00.000Z');
  useAuth.setState({ token: 't', status: 'signed-in', baseUrl: 'http://127.0.0.1:4000' });
});

const header = () => screen.findByRole('region', { name: 'Loop' });

describe('live events', () => {
  it('opens one stream with the bearer token; a failed cycle turns the header amber with a link to why', async () => {
    const desk = fakeDesk();
    renderAppAt('/signals');
    expect(await within(await header()).findByText('Loop on · every 30 min')).toBeTruthy();
    await expect.poll(() => useLiveStream.getState().status).toBe('open');
    const opened = desk.calls.filter((c) => c.path === '/api/v1/events/stream');
    expect(opened).toHaveLength(1);
    expect(opened[0].authorization).toBe('Bearer t');
    const before = desk.count('/api/v1/stats');

    desk.setStats({ loopAlert: { reason: 'cycle_failed', message: 'The last cycle failed: HTTP 500 from the model server', runId: 'run_9' } });
    desk.stream.event('evt_1', 'run.failed', { runId: 'run_9', trigger: 'schedule', errorMessage: 'HTTP 500' });
    const state = await within(await header()).findByText('Last cycle failed');
    expect(state.closest('a')?.className).toContain('loop-header__state--alert');
    expect(desk.count('/api/v1/stats')).toBe(before + 1);
    const why = within(await header()).getByRole('link', { name: 'Why the last cycle failed' });
    expect(why.getAttribute('href')).toBe('/runs?run=run_9');
  });

  it('says when the cap stopped the loop', async () => {
    const desk = fakeDesk();
    renderAppAt('/signals');
    await within(await header()).findByText('Loop on · every 30 min');
    await expect.poll(() => useLiveStream.getState().status).toBe('open');
    desk.setStats({ phase: 'capped', loopAlert: { reason: 'cap_reached', message: "Today's spend reached the daily cost cap.", runId: null } });
    desk.stream.event('evt_2', 'cost.cap_reached', { day: '2026-03-10' });
    expect(await within(await header()).findByText('Stopped: daily cap reached')).toBeTruthy();
  });

  it('a new signal appears on an open Signals page from its event', async () => {
    const desk = fakeDesk();
    renderAppAt('/signals');
    await expect.poll(() => useLiveStream.getState().status).toBe('open');
    await screen.findByRole('heading', { name: 'Signals', level: 1 });
    desk.setSignals([
      aSignal({ id: 'sig_1', kind: 'news', title: 'Pushed through the webhook', createdAt: '2026-03-10T11:59:00.000Z' }),
    ]);
    desk.stream.event('evt_3', 'signal.created', { signalId: 'sig_1' });
    expect(await screen.findByText('Pushed through the webhook')).toBeTruthy();
  });
});
