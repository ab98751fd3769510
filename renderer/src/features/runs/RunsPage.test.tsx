import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useAuth } from '../../lib/auth';
import { fixClock, resetClockAfterEach } from '../../testing/clock';
import { fakeFetch, json, noFake } from '../../testing/fake-api';
import { cleanUpAfterEach, renderAppAt } from '../../testing/render';
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
    return noFake(call);
  });
}

beforeEach(() => {
  fixClock('2026-03-10T12:00:00.000Z');
  useAuth.setState({ token: 't', status: 'signed-in', baseUrl: 'http://127.0.0.1:4000' });
  fakeDesk();
});
afterEach(() => window.sessionStorage.clear());
cleanUpAfterEach();
resetClockAfterEach();

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
    expect(within(screen.getByRole('list', { name: 'Signals' })).getByRole('link', { name: 'sig_1' }).getAttribute('href')).toBe('/signals');
    expect(within(screen.getByRole('list', { name: 'Memory' })).getAllByRole('link')).toHaveLength(2);
  });
});
