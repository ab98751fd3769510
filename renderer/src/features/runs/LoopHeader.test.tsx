import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Schema } from '../../api/client';
import { useAuth } from '../../lib/auth';
import { setClock } from '../../lib/clock';
import { fixClock } from '../../testing/clock';
import { fakeFetch, json, noFake } from '../../testing/fake-api';
import { renderAppAt } from '../../testing/render';
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
    expect(within(header()).getByRole('link', { name: 'See the run' }).getAttribute('href')).toBe('/runs?run=run_1');
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

/** A desk whose cycle run_live is under way in `cycle`'s phase; POST /runs/run_live/cancel stops it (the stats then say idle). */
function runningDesk(
  cycle: Partial<Schema<'RunningCycle'>>,
  cancelAnswer: () => Response = () => json(200, aRun('run_live', { status: 'failed', cancelledAt: '2026-03-10T12:00:01.000Z', errorMessage: 'Cancelled by the operator', estimatedCostUsd: 0 })),
  runAnswer?: () => Promise<Response>,
) {
  const live = { runId: 'run_live', phase: 'model' as const, since: '2026-03-10T11:59:48.000Z', startedAt: '2026-03-10T11:59:45.000Z', attempt: 1, inputTokens: 1200, maxOutputTokens: 4096, cancelling: false, ...cycle };
  let stats = someStats({ phase: 'running', runningRunId: 'run_live', nextCycleAt: null, cycle: live });
  return fakeFetch((call) => {
    const { method, path } = call;
    if (method === 'GET' && path === '/api/v1/workspace') return json(200, aProfile());
    if (method === 'GET' && path === '/api/v1/stats') return json(200, stats);
    if (method === 'POST' && path === '/api/v1/runs/run_live/cancel') {
      stats = someStats();
      return cancelAnswer();
    }
    if (method === 'POST' && path === '/api/v1/runs' && runAnswer) {
      return runAnswer().then((r) => {
        stats = someStats();
        return r;
      });
    }
    if (method === 'GET' && path === '/api/v1/signals') return json(200, { signals: [], nextCursor: null });
    if (method === 'GET' && path === '/api/v1/sources') return json(200, { sources: [], nextCursor: null });
    return noFake(call);
  });
}

describe('LoopHeader: the cycle under way', () => {
  afterEach(() => vi.useRealTimers());

  it('shows the wait on the model with its elapsed time, ticking every second, and the bound', async () => {
    // Only intervals are faked: the header's one-second tick (and the stats poll) move when the test says.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let at = new Date('2026-03-10T12:00:00.000Z').getTime();
    setClock(() => at);
    runningDesk({});
    renderAppAt('/signals');
    const progress = await within(await shown()).findByText('Waiting on the model');
    expect(progress.getAttribute('role')).toBe('status');
    // The time since the cycle began (11:59:45), not only the wait on the model.
    expect(progress.parentElement!.textContent).toBe('Waiting on the model · 0:15 · bound 4,096 tokens');
    at += 5_000;
    act(() => vi.advanceTimersByTime(1_000));
    expect(progress.parentElement!.textContent).toBe('Waiting on the model · 0:20 · bound 4,096 tokens');
    expect(within(header()).getByRole('button', { name: 'Cancel the cycle' })).toBeTruthy();
    expect((within(header()).getByRole('button', { name: 'Run now' }) as HTMLButtonElement).disabled).toBe(false);
    expect(within(header()).queryByText(/Next cycle/)).toBeNull();
  });

  it('Run now during a cycle waits for it: it says so, asks the desk to wait (no 409), then shows that cycle\'s result', async () => {
    let finish: (r: Response) => void = () => undefined;
    const finished = new Promise<Response>((resolve) => (finish = resolve));
    const desk = runningDesk({}, undefined, () => finished);
    renderAppAt('/signals');
    fireEvent.click(await within(await shown()).findByRole('button', { name: 'Run now' }));
    expect((await within(header()).findByTestId('run-now-waiting')).textContent).toBe('Run now waits for this cycle and shows its result.');
    expect(within(header()).getByText('Waiting on the model')).toBeTruthy();
    const posts = desk.calls.filter((c) => c.method === 'POST' && c.path === '/api/v1/runs');
    expect(posts.map((c) => c.query.get('whenRunning'))).toEqual(['wait']);
    finish(json(200, aRun('run_live', { counts: { ...aRun('run_live').counts, artifactsCreated: 1 } })));
    expect(await within(header()).findByText(/^Cycle done: /)).toBeTruthy();
    expect(within(header()).queryByTestId('run-now-waiting')).toBeNull();
    expect(within(header()).queryByRole('alert')).toBeNull();
  });

  it('says Gathering… and Applying…, each with the time since the cycle began; no Cancel while applying (too late)', async () => {
    setClock(() => new Date('2026-03-10T12:00:00.000Z').getTime());
    runningDesk({ phase: 'gathering', attempt: null, inputTokens: null, maxOutputTokens: null });
    renderAppAt('/signals');
    expect(await within(await shown()).findByText('Gathering…')).toBeTruthy();
    expect(within(header()).getByText('Gathering…').parentElement!.textContent).toBe('Gathering… · 0:15');
    expect(within(header()).getByRole('button', { name: 'Cancel the cycle' })).toBeTruthy();
    cleanup();
    runningDesk({ phase: 'applying', attempt: null, inputTokens: null, maxOutputTokens: null });
    renderAppAt('/signals');
    expect(await within(await shown()).findByText('Applying…')).toBeTruthy();
    expect(within(header()).queryByRole('button', { name: 'Cancel the cycle' })).toBeNull();
  });

  it('Cancel stops the cycle: "Cancelling…" while it stops, then what it cost; focus goes to Run now', async () => {
    let answer: (r: Response) => void = () => undefined;
    const answered = new Promise<Response>((resolve) => (answer = resolve));
    const desk = runningDesk({}, () => answered as unknown as Response);
    renderAppAt('/signals');
    const cancel = await within(await shown()).findByRole('button', { name: 'Cancel the cycle' });
    cancel.focus();
    fireEvent.click(cancel);
    const busy = await within(header()).findByRole('button', { name: 'Cancelling the cycle' });
    expect(busy.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(busy);
    fireEvent.click(busy); // a second press while it stops sends nothing
    answer(json(200, aRun('run_live', { status: 'failed', cancelledAt: '2026-03-10T12:00:01.000Z', errorMessage: 'Cancelled by the operator', estimatedCostUsd: 0.0012 })));
    expect(await within(header()).findByText(/^Cycle cancelled: nothing was written; the provider billed \$0\.0012\./)).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(within(header()).getByRole('button', { name: 'Run now' })));
    expect(within(header()).queryByText('Waiting on the model')).toBeNull();
    expect(desk.calls.filter((c) => c.method === 'POST' && c.path === '/api/v1/runs/run_live/cancel')).toHaveLength(1);
  });

  it('a cancel that came too late says so', async () => {
    runningDesk({}, () => json(409, { error: 'run_applying', message: 'Cycle run_live is already applying its results: too late to cancel; it completes in a moment' }));
    renderAppAt('/signals');
    fireEvent.click(await within(await shown()).findByRole('button', { name: 'Cancel the cycle' }));
    expect(await within(header()).findByText(/too late to cancel/)).toBeTruthy();
  });

  it('when a cycle pauses the loop, the loop state is read again and the reason shows', async () => {
    let paused = false;
    const reason = 'The provider billed 0.02 USD for cycle run_1, more than the bound allowed.';
    fakeFetch((call) => {
      if (call.method === 'GET' && call.path === '/api/v1/workspace') return json(200, aProfile({ loopState: paused ? 'paused' : 'on' }));
      if (call.method === 'GET' && call.path === '/api/v1/stats') return json(200, paused ? someStats({ phase: 'paused', nextCycleAt: null, loopPauseReason: reason }) : someStats());
      if (call.method === 'POST' && call.path === '/api/v1/runs') {
        paused = true;
        return json(200, aRun('run_1'));
      }
      if (call.method === 'GET' && (call.path === '/api/v1/signals' || call.path === '/api/v1/sources')) return json(200, { signals: [], sources: [], nextCursor: null });
      return noFake(call);
    });
    renderAppAt('/signals');
    expect(await within(await shown()).findByText('Loop on · every 30 min')).toBeTruthy();
    fireEvent.click(within(header()).getByRole('button', { name: 'Run now' }));
    expect(await within(header()).findByText('The desk paused the loop.')).toBeTruthy();
    expect(await within(header()).findByText('Loop paused')).toBeTruthy();
  });

  it('says why the desk paused its own loop', async () => {
    const reason = 'The provider billed 0.02 USD for cycle run_9, more than the 0.01 USD left of today\'s cost cap.';
    fakeFetch((call) => {
      if (call.method === 'GET' && call.path === '/api/v1/workspace') return json(200, aProfile({ loopState: 'paused' }));
      if (call.method === 'GET' && call.path === '/api/v1/stats') return json(200, someStats({ phase: 'paused', nextCycleAt: null, loopPauseReason: reason }));
      if (call.method === 'GET' && (call.path === '/api/v1/signals' || call.path === '/api/v1/sources')) return json(200, { signals: [], sources: [], nextCursor: null });
      return noFake(call);
    });
    renderAppAt('/signals');
    const notice = (await within(await shown()).findByText('The desk paused the loop.')).closest('p')!;
    expect(notice.textContent).toContain(reason);
    expect(within(notice).getByRole('link', { name: 'Loop settings' }).getAttribute('href')).toBe('/settings/loop');
  });
});
