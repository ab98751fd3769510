import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Schema } from '../../api/client';
import { fixClock, resetClockAfterEach } from '../../testing/clock';
import { json, noFake, fakeFetch } from '../../testing/fake-api';
import { cleanUpAfterEach, renderWithApp } from '../../testing/render';
import { SignalsPage } from './SignalsPage';

const signal = (id: string, title: string): Schema<'Signal'> => ({
  id,
  kind: 'note',
  priority: 'normal',
  title,
  detail: '',
  sourceUrl: null,
  sourceId: null,
  sourceLabel: null,
  externalId: null,
  pinned: false,
  reactions: [],
  createdAt: '2026-03-10T11:00:00.000Z',
});

/** Two pages of signals behind a cursor; one source to filter by, whose list is a single page. */
function fakeDesk() {
  return fakeFetch((call) => {
    const { method, path, query, body } = call;
    if (method === 'GET' && path === '/api/v1/sources') return json(200, { sources: [{ id: 'src_1', label: 'Acme blog' }], total: 1, nextCursor: null });
    if (method === 'GET' && path === '/api/v1/signals') {
      if (query.get('sourceId') === 'src_1') return json(200, { signals: [signal('sig_9', 'From Acme')], nextCursor: null });
      if (query.get('cursor') === 'p2') return json(200, { signals: [signal('sig_1', 'Oldest signal')], nextCursor: null });
      return json(200, { signals: [signal('sig_2', 'Newest signal')], nextCursor: 'p2' });
    }
    if (method === 'POST' && path === '/api/v1/signals/bulk') return json(200, { action: 'pin', affected: (body as { signalIds: string[] }).signalIds.length, notFound: [] });
    return noFake(call);
  });
}

let desk: ReturnType<typeof fakeDesk>;

beforeEach(() => {
  fixClock('2026-03-10T12:00:00.000Z');
  desk = fakeDesk();
});

cleanUpAfterEach();
resetClockAfterEach();

describe('SignalsPage', () => {
  it('loads the next page with its cursor and keeps the loaded rows, until the last page', async () => {
    renderWithApp(<SignalsPage />);
    const list = await screen.findByRole('list', { name: 'Signals' });
    expect(within(list).getByText('Newest signal')).toBeTruthy();
    expect(within(list).getByText('1 hour ago')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await within(list).findByText('Oldest signal');
    expect(within(list).getByText('Newest signal')).toBeTruthy();
    expect(desk.calls.filter((c) => c.path === '/api/v1/signals').at(-1)!.query.get('cursor')).toBe('p2');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(screen.getByText('That is all of them.')).toBeTruthy();
  });

  it('a filter starts again from the first page, without a cursor', async () => {
    renderWithApp(<SignalsPage />);
    await screen.findByText('Newest signal');
    fireEvent.change(await screen.findByLabelText('Source'), { target: { value: 'src_1' } });
    await screen.findByText('From Acme');
    const last = desk.calls.filter((c) => c.path === '/api/v1/signals').at(-1)!;
    expect(last.query.get('sourceId')).toBe('src_1');
    expect(last.query.has('cursor')).toBe(false);
    await waitFor(() => expect(screen.getByText('1 signal from Acme blog')).toBeTruthy());
  });
});
