import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fixClock } from '../../testing/clock';
import { json, fakeFetch } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';
import { ActivityPage } from './ActivityPage';

const row = {
  id: 'act_1',
  kind: 'workspace.plan',
  detail: 'Plan set to pro',
  actorUserId: 'usr_1',
  actorLabel: 'Owner',
  entityType: 'workspace',
  entityId: 'wsp_1',
  createdAt: '2026-03-10T12:00:00.000Z',
};

let queries: URLSearchParams[];

beforeEach(() => {
  // Three hours after the row was written.
  fixClock('2026-03-10T15:00:00.000Z');
  queries = [];
  fakeFetch(({ query }) => {
    queries.push(query);
    if (query.get('since') === '1999-01-01') {
      return json(422, { error: 'validation_failed', message: 'since must be an ISO 8601 timestamp', details: [{ field: 'since', message: 'must be an ISO 8601 timestamp' }] });
    }
    if (query.has('since')) return json(200, { activities: [{ ...row, id: 'act_2', detail: 'Loop set to off' }], nextCursor: null });
    // Two pages: the newest row, then (after its cursor) the first row the desk ever wrote.
    if (query.get('cursor') === 'c2') return json(200, { activities: [{ ...row, id: 'act_0', detail: 'Workspace created' }], nextCursor: null });
    return json(200, { activities: [row], nextCursor: 'c2' });
  });
});


const renderPage = () => renderWithApp(<ActivityPage />);

describe('ActivityPage', () => {
  it('filters by day: the date goes to the API as since, and Clear filters drops it', async () => {
    renderPage();
    const detail = await screen.findByText('Plan set to pro');
    expect(detail.closest('tr')!.querySelector('time')!.textContent).toBe('3 hours ago');
    expect(queries.at(-1)?.has('since')).toBe(false);
    const since = screen.getByLabelText('Since');
    fireEvent.change(since, { target: { value: '2026-03-10' } });
    await screen.findByText('Loop set to off');
    expect(queries.at(-1)?.get('since')).toBe('2026-03-10');
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await screen.findByText('Plan set to pro');
    expect(since).toHaveProperty('value', '');
  });

  it('reads the log to its first row: Load more sends the cursor and appends the next page', async () => {
    renderPage();
    await screen.findByText('Plan set to pro');
    expect(queries.at(-1)?.has('cursor')).toBe(false);
    expect(screen.getByText('Showing the 1 most recent entries')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByText('Workspace created');
    expect(queries.at(-1)?.get('cursor')).toBe('c2');
    expect(screen.getByText('Plan set to pro')).toBeTruthy();
    expect(screen.getByText('2 entries, back to the first')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('shows the API error for since next to the field', async () => {
    renderPage();
    await screen.findByText('Plan set to pro');
    const since = screen.getByLabelText('Since');
    fireEvent.change(since, { target: { value: '1999-01-01' } });
    await waitFor(() => expect(since.getAttribute('aria-invalid')).toBe('true'));
    const errorId = since.getAttribute('aria-describedby')!.split(' ')[0];
    expect(document.getElementById(errorId)?.textContent).toBe('must be an ISO 8601 timestamp');
  });
});
