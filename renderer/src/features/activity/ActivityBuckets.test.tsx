import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAuth } from '../../lib/auth';
import { fixClock } from '../../testing/clock';
import { fakeFetch, json, noFake } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';
import { fakePrefs } from '../preferences/testing';
import { aProfile } from '../runs/testing';
import { ActivityPage } from './ActivityPage';

const row = (id: string, detail: string, createdAt: string) => ({ id, kind: 'task.created', detail, actorUserId: 'usr_1', actorLabel: 'Owner', entityType: 'task', entityId: 'tsk_1', createdAt });

beforeEach(() => {
  // 01:00 on 10 March in Berlin (00:00 UTC): the rows are bucketed by Berlin days.
  fixClock('2026-03-10T00:00:00.000Z');
  useAuth.setState({ token: 't', status: 'signed-in', baseUrl: 'http://127.0.0.1:4000' });
});

describe('Activity day buckets', () => {
  it('groups the log by workspace day, hides the collapsed days, and saves a collapse', async () => {
    const prefs = fakePrefs({ collapsedActivityBuckets: ['yesterday'] });
    fakeFetch((call) => {
      const handled = prefs.handle(call);
      if (handled) return handled;
      if (call.path === '/api/v1/workspace') return json(200, aProfile({ timezone: 'Europe/Berlin' }));
      if (call.path === '/api/v1/activity')
        return json(200, {
          activities: [
            // 23:30 UTC on the 9th is 00:30 on the 10th in Berlin: today there.
            row('act_3', 'Created the launch plan', '2026-03-09T23:30:00.000Z'),
            row('act_2', 'Created the pricing page', '2026-03-09T10:00:00.000Z'),
            row('act_1', 'Created the first task', '2026-02-20T10:00:00.000Z'),
          ],
          nextCursor: null,
        });
      return noFake(call);
    });
    renderWithApp(<ActivityPage />);
    const today = await screen.findByRole('button', { name: 'Today (1)' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Yesterday (1)' }).getAttribute('aria-expanded')).toBe('false'));
    expect(today.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('button', { name: 'Older (1)' })).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Activity log' });
    expect(within(table).getByText('Created the launch plan')).toBeTruthy();
    expect(within(table).queryByText('Created the pricing page')).toBeNull();
    expect(within(table).getByText('Created the first task')).toBeTruthy();

    fireEvent.click(today);
    await waitFor(() => expect(within(table).queryByText('Created the launch plan')).toBeNull());
    await waitFor(() => expect(prefs.current().collapsedActivityBuckets).toEqual(['yesterday', 'today']));
    fireEvent.click(screen.getByRole('button', { name: 'Yesterday (1)' }));
    expect(await within(table).findByText('Created the pricing page')).toBeTruthy();
    await waitFor(() => expect(prefs.current().collapsedActivityBuckets).toEqual(['today']));
  });
});
