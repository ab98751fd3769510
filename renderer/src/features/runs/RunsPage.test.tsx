import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuth } from '../../lib/auth';
import { fixClock } from '../../testing/clock';
import { fakeFetch, json, noFake } from '../../testing/fake-api';
import { renderAppAt } from '../../testing/render';
import { anOutput } from '../outputs/testing';
import { aProfile, aRun, someStats } from './testing';

function fakeDesk() {
  return fakeFetch((call) => {
    const { method, path, query } = call;
    if (method === 'GET' && path === '/api/v1/workspace') return json(200, aProfile());
    if (method === 'GET' && path === '/api/v1/stats') return json(200, someStats());
    if (method === 'GET' && path === '/api/v1/runs') {
      if (query.get('cursor') === 'c2') return json(200, { runs: [aRun('run_old', { trigger: 'schedule', startedAt: '2026-03-09T08:00:00.000Z' })], nextCursor: null });
      return json(200, {
        runs: [
          aRun('run_3'),
          aRun('run_2', { status: 'failed', errorMessage: 'provider timed out after 60 s', produced: { createdTaskIds: [], updatedTaskIds: [], artifactIds: [], memoryIds: [] }, counts: { ...aRun('x').counts, tasksCreated: 0, artifactsCreated: 0 } }),
          aRun('run_1', { status: 'skipped', skipReason: 'cost_cap_reached', trigger: 'schedule' }),
        ],
        nextCursor: 'c2',
      });
    }
    if (method === 'GET' && path === '/api/v1/tasks/tsk_1') return json(200, { id: 'tsk_1', title: 'Reply about annual billing' });
    if (method === 'GET' && path === '/api/v1/artifacts/art_1') return json(200, anOutput('art_1', 'Annual billing reply'));
    if (method === 'GET' && path === '/api/v1/signals/sig_1') return json(200, { id: 'sig_1', title: 'Customer asks about annual billing' });
    if (method === 'GET' && path === '/api/v1/memory/mem_1') return json(200, { id: 'mem_1', title: 'Billing tone: plain words' });
    if (method === 'GET' && path === '/api/v1/memory/mem_2') return json(404, { error: 'memory_not_found', message: 'No memory entry with id mem_2.' });
    return noFake(call);
  });
}

beforeEach(() => {
  fixClock('2026-03-10T12:00:00.000Z');
  useAuth.setState({ token: 't', status: 'signed-in', baseUrl: 'http://127.0.0.1:4000' });
  fakeDesk();
});
afterEach(() => window.sessionStorage.clear());

describe('RunsPage', () => {
  it('lists cycles with status, trigger, duration, tokens, cost, errors and skips, and loads more', async () => {
    renderAppAt('/runs');
    const list = await screen.findByRole('list', { name: 'Runs' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(within(items[0]).getByText('completed')).toBeTruthy();
    expect(within(items[0]).getByText('run now')).toBeTruthy();
    expect(within(items[0]).getByText('1.2 s')).toBeTruthy();
    expect(within(items[0]).getByText('2,460 tokens')).toBeTruthy();
    expect(within(items[0]).getByText('$0.00065')).toBeTruthy();
    // The built-in engine's figure is what the configured model would charge, and says so.
    expect(within(items[0]).getByText('if on gpt-4o-mini')).toBeTruthy();
    expect(items[0].textContent).toContain('Read 1 signal, 2 memory entries → produced 1 new task, 1 output');
    expect(within(items[1]).getByText('provider timed out after 60 s')).toBeTruthy();
    expect(within(items[2]).getByText("Today's spend reached the daily cost cap, so this cycle did not run.")).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(4));
    expect(within(within(list).getAllByRole('listitem')[3]).getByText('scheduled')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('opens a cycle: the ids it read and the tasks and outputs it produced, linked', async () => {
    renderAppAt('/runs');
    const list = await screen.findByRole('list', { name: 'Runs' });
    fireEvent.click(within(list).getAllByRole('button', { name: 'Show what it read and produced' })[0]);
    const outputs = await screen.findByRole('list', { name: 'Outputs' });
    expect((await within(outputs).findByRole('link', { name: 'Annual billing reply (v1)' })).getAttribute('href')).toBe('/outputs/art_1');
    const created = screen.getByRole('list', { name: 'New tasks' });
    expect((await within(created).findByRole('link', { name: 'Reply about annual billing' })).getAttribute('href')).toBe('/tasks/tsk_1');
    // Signals and memory by their titles, linked, never by their ids.
    const signals = screen.getByRole('list', { name: 'Signals' });
    expect((await within(signals).findByRole('link', { name: 'Customer asks about annual billing' })).getAttribute('href')).toBe('/signals?signal=sig_1');
    const memory = screen.getByRole('list', { name: 'Memory' });
    expect((await within(memory).findByRole('link', { name: 'Billing tone: plain words' })).getAttribute('href')).toBe('/memory/mem_1');
    expect(await within(memory).findByText('A deleted memory entry')).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Signals' }).textContent).not.toMatch(/sig_/);
    expect(screen.getByRole('list', { name: 'Memory' }).textContent).not.toMatch(/mem_/);
    expect(screen.getByText('Budget').nextElementSibling!.textContent).toBe('$0.50 left of the cap');
    expect(screen.getByText('Bound').nextElementSibling!.textContent).toBe('4,096 output tokens');
  });
});

describe('RunsPage: cancelled, running and budget', () => {
  /** run_live under way (waiting on the model), a cancelled cycle, a cycle skipped because the cap left too little. */
  function deskWithLiveCycle() {
    let live = true;
    let finished = false;
    const cancelled = aRun('run_live', { status: 'failed', cancelledAt: '2026-03-10T12:00:01.000Z', finishedAt: '2026-03-10T12:00:01.000Z', errorMessage: 'Cancelled by the operator; nothing this cycle would have written was kept.', estimatedCostUsd: 0, inputTokens: 0, outputTokens: 0 });
    const running = aRun('run_live', { status: 'running', finishedAt: null, durationMs: null, engineMs: null, inputTokens: 0, outputTokens: 0, estimatedCostUsd: 0, maxOutputTokens: null });
    const insufficient = aRun('run_skip', { status: 'skipped', trigger: 'schedule', skipReason: 'cost_cap_insufficient', errorMessage: 'The smallest cycle needs $0.0021; $0.0008 is left of today\'s cap.' });
    const earlier = aRun('run_cx', { status: 'failed', cancelledAt: '2026-03-10T11:30:00.000Z', errorMessage: 'Cancelled by the operator; nothing this cycle would have written was kept.', budgetUsd: null, maxOutputTokens: 2048 });
    const fake = fakeFetch((call) => {
      if (call.method === 'GET' && call.path === '/api/v1/runs' && finished) return json(200, { runs: [aRun('run_live'), insufficient, earlier], nextCursor: null });
      const { method, path } = call;
      if (method === 'GET' && path === '/api/v1/workspace') return json(200, aProfile());
      if (method === 'GET' && path === '/api/v1/stats')
        return json(200, live ? someStats({ phase: 'running', runningRunId: 'run_live', nextCycleAt: null, cycle: { runId: 'run_live', phase: 'model', since: '2026-03-10T11:59:55.000Z', startedAt: '2026-03-10T11:59:50.000Z', attempt: 1, inputTokens: 900, maxOutputTokens: 4096, cancelling: false } }) : someStats());
      if (method === 'GET' && path === '/api/v1/runs') return json(200, { runs: [live ? running : cancelled, insufficient, earlier], nextCursor: null });
      if (method === 'POST' && path === '/api/v1/runs/run_live/cancel') {
        live = false;
        return json(200, cancelled);
      }
      return noFake(call);
    });
    return { ...fake, finish: () => ((live = false), (finished = true)) };
  }

  it('when the cycle ends by itself the list fetches its record (the stats poll sees it end)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const desk = deskWithLiveCycle();
      renderAppAt('/runs');
      const list = await screen.findByRole('list', { name: 'Runs' });
      expect(await within(list).findByText('Waiting on the model')).toBeTruthy();
      desk.finish();
      await act(async () => void vi.advanceTimersByTime(1_000));
      await waitFor(() => expect(within(within(list).getAllByRole('listitem')[0]).getByText('completed')).toBeTruthy());
      expect(within(list).queryByText('Waiting on the model')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('the running cycle shows its phase and Cancel; a cancel turns it into a cancelled run with the feedback on its row', async () => {
    const desk = deskWithLiveCycle();
    renderAppAt('/runs');
    const list = await screen.findByRole('list', { name: 'Runs' });
    const row = () => within(list).getAllByRole('listitem')[0];
    expect(await within(row()).findByText('Waiting on the model')).toBeTruthy();
    expect(row().textContent).toContain('Waiting on the model · 0:10 · bound 4,096 tokens');
    fireEvent.click(within(row()).getByRole('button', { name: 'Cancel the cycle' }));
    expect(await within(row()).findByText('Cycle cancelled: nothing was written and nothing was billed.')).toBeTruthy();
    await waitFor(() => expect(within(row()).getByText('cancelled')).toBeTruthy());
    expect(within(row()).queryByRole('button', { name: 'Cancel the cycle' })).toBeNull();
    expect(desk.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('shows cancelled runs as cancelled (not failed), the cost_cap_insufficient skip with its figures, and each run\'s budget and bound', async () => {
    deskWithLiveCycle();
    renderAppAt('/runs');
    const list = await screen.findByRole('list', { name: 'Runs' });
    const [, skipped, cancelled] = within(list).getAllByRole('listitem');
    expect(within(cancelled).getByText('cancelled')).toBeTruthy();
    expect(within(cancelled).queryByText('failed')).toBeNull();
    expect(within(cancelled).getByText(/^Cancelled by the operator/).className).not.toContain('notice--danger');
    expect(skipped.textContent).toContain("Not even the smallest cycle fits in what is left of today's cost cap, so this cycle did not run.");
    expect(skipped.textContent).toContain("The smallest cycle needs $0.0021; $0.0008 is left of today's cap.");
    expect(within(skipped).queryByText('skipped')).toBeTruthy();
    fireEvent.click(within(cancelled).getByRole('button', { name: 'Show what it read and produced' }));
    expect(within(cancelled).getByText('Budget').nextElementSibling!.textContent).toBe('no cap');
    expect(within(cancelled).getByText('Bound').nextElementSibling!.textContent).toBe('2,048 output tokens');
  });
});
