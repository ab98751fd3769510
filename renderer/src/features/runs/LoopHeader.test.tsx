import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Schema } from '../../api/client';
import { useAuth } from '../../lib/auth';
import { fixClock, resetClockAfterEach } from '../../testing/clock';
import { fakeFetch, json, noFake } from '../../testing/fake-api';
import { cleanUpAfterEach, renderAppAt } from '../../testing/render';
import { aProfile, aRun, someStats } from './testing';

/** The header's API: a profile, stats, and POST /runs that waits until the test lets it answer. */
function fakeDesk(options: { profile?: Partial<Schema<'WorkspaceProfile'>>; runAnswer?: () => Response } = {}) {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let stats = someStats();
  const fake = fakeFetch(async (call) => {
    const { method, path } = call;
    if (method === 'GET' && path === '/api/v1/workspace') return json(200, aProfile(options.profile));
    if (method === 'GET' && path === '/api/v1/stats') return json(200, stats);
    if (method === 'POST' && path === '/api/v1/runs') {
      await gate;
      stats = someStats({ cost: { todayUsd: 0.13, sevenDayUsd: 0.31, dailyCostCapUsdCents: 50, capPercent: 26 } });
      return options.runAnswer ? options.runAnswer() : json(200, aRun('run_1'));
    }
    if (method === 'GET' && path === '/api/v1/signals') return json(200, { signals: [], nextCursor: null });
    if (method === 'GET' && path === '/api/v1/sources') return json(200, { sources: [], nextCursor: null });
    return noFake(call);
  });
  return { ...fake, release: () => release() };
}

beforeEach(() => {
  fixClock('2026-03-10T12:00:00.000Z');
  useAuth.setState({ token: 't', status: 'signed-in', baseUrl: 'http://127.0.0.1:4000' });
});
afterEach(() => window.sessionStorage.clear());
cleanUpAfterEach();
resetClockAfterEach();

const header = () => screen.getByRole('region', { name: 'Loop' });
const shown = () => screen.findByRole('region', { name: 'Loop' });

describe('LoopHeader', () => {
  it('shows the loop state, the next cycle and today\'s spend against the cap', async () => {
    fakeDesk();
    renderAppAt('/signals');
    expect(await within(await shown()).findByText('Loop on · every 30 min')).toBeTruthy();
    expect(await within(header()).findByText('in 10 minutes')).toBeTruthy();
    expect(within(header()).getByText(/\$0\.12 of \$0\.50/)).toBeTruthy();
    expect(within(header()).getByRole('meter', { name: 'Spend against the daily cap' }).getAttribute('aria-valuenow')).toBe('24');
  });

  it('shows a scheduled pause', async () => {
    fakeDesk({ profile: { pauseUntilAt: '2026-03-11T09:00:00.000Z' } });
    renderAppAt('/signals');
    expect(await within(await shown()).findByText(/^Paused until /)).toBeTruthy();
  });

  it('Run now: disabled with progress while the cycle runs, then its result, and the figures refresh', async () => {
    const desk = fakeDesk();
    renderAppAt('/signals');
    const button = await within(await shown()).findByRole('button', { name: 'Run now' });
    await within(header()).findByText(/\$0\.12 of/);
    fireEvent.click(button);
    expect(await within(header()).findByText('Running a cycle…')).toBeTruthy();
    expect((within(header()).getByRole('button', { name: 'Run now' }) as HTMLButtonElement).disabled).toBe(true);

    desk.release();
    expect(await within(header()).findByText(/^Cycle done: 1 new task, 1 output · \$0\.0006/)).toBeTruthy();
    expect((within(header()).getByRole('button', { name: 'Run now' }) as HTMLButtonElement).disabled).toBe(false);
    expect(within(header()).getByRole('link', { name: 'See the run' }).getAttribute('href')).toBe('/runs');
    expect(await within(header()).findByText(/\$0\.13 of/)).toBeTruthy();
    expect(desk.calls.filter((c) => c.method === 'POST' && c.path === '/api/v1/runs')).toHaveLength(1);
  });

  it('Run now at the cost cap says so (409), and a failed cycle shows its error', async () => {
    const capped = fakeDesk({ runAnswer: () => json(409, { error: 'cost_cap_reached', message: 'The daily cost cap is reached' }) });
    renderAppAt('/signals');
    fireEvent.click(await within(await shown()).findByRole('button', { name: 'Run now' }));
    capped.release();
    expect(await within(header()).findByText(/Today's spend has reached the daily cost cap: no cycle ran/)).toBeTruthy();
    fireEvent.click(within(header()).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(within(header()).queryByText(/daily cost cap/)).toBeNull());
  });

  it('a failed cycle shows the engine\'s message', async () => {
    const failing = fakeDesk({ runAnswer: () => json(200, aRun('run_2', { status: 'failed', errorMessage: 'provider answered 500' })) });
    renderAppAt('/signals');
    fireEvent.click(await within(await shown()).findByRole('button', { name: 'Run now' }));
    failing.release();
    expect(await within(header()).findByRole('alert')).toBeTruthy();
    expect(within(header()).getByText(/The cycle failed: provider answered 500/)).toBeTruthy();
  });
});
