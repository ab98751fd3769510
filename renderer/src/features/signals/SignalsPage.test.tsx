import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Schema } from '../../api/client';
import { fixClock } from '../../testing/clock';
import { json, noFake, fakeFetch } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';
import { SignalsPage } from './SignalsPage';
import { aSignal } from './testing';

const signal = (id: string, title: string): Schema<'Signal'> => aSignal({ id, title });

/** Two pages of signals behind a cursor; one source to filter by, whose list is a single page. */
function fakeDesk() {
  return fakeFetch((call) => {
    const { method, path, query, body } = call;
    if (method === 'GET' && path === '/api/v1/sources') return json(200, { sources: [{ id: 'src_1', label: 'Acme blog' }], total: 1, nextCursor: null });
    if (method === 'GET' && path === '/api/v1/signals') {
      if (query.get('sourceId') === 'src_1') return json(200, { signals: [{ ...signal('sig_9', 'From Acme'), sourceId: 'src_1', sourceLabel: 'Acme blog', publishedAt: '2026-03-03T09:00:00.000Z' }], nextCursor: null });
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

describe('SignalsPage opened from a search hit (?signal=<id>)', () => {
  it('shows the signal first, even when it is not on a loaded page, and marks it in the list when it is', async () => {
    desk = fakeFetch((call) => {
      if (call.method === 'GET' && call.path === '/api/v1/signals/sig_1') return json(200, signal('sig_1', 'Oldest signal'));
      if (call.method === 'GET' && call.path === '/api/v1/signals/sig_2') return json(200, signal('sig_2', 'Newest signal'));
      if (call.method === 'GET' && call.path === '/api/v1/signals/sig_gone') return json(404, { error: 'signal_not_found', message: 'No signal sig_gone' });
      if (call.method === 'GET' && call.path === '/api/v1/signals') return json(200, { signals: [signal('sig_2', 'Newest signal')], nextCursor: 'p2' });
      if (call.method === 'GET' && call.path === '/api/v1/sources') return json(200, { sources: [], total: 0, nextCursor: null });
      return noFake(call);
    });
    renderWithApp(<SignalsPage />, { path: '/signals?signal=sig_1' });
    const focus = await screen.findByRole('region', { name: 'Signal from search' });
    expect(await within(focus).findByText('Oldest signal')).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Signals' });
    expect(within(list).queryByText('Oldest signal')).toBeNull();
    expect(list.querySelector('[aria-current="true"]')).toBeNull();
    cleanup();

    renderWithApp(<SignalsPage />, { path: '/signals?signal=sig_2' });
    const list2 = await screen.findByRole('list', { name: 'Signals' });
    await waitFor(() => expect(list2.querySelector('[aria-current="true"]')?.textContent).toContain('Newest signal'));
    cleanup();

    renderWithApp(<SignalsPage />, { path: '/signals?signal=sig_gone' });
    const gone = await screen.findByRole('region', { name: 'Signal from search' });
    expect(await within(gone).findByText('This signal is no longer here: it has been deleted.')).toBeTruthy();
  });

  it("shows a feed item's published day first, and when Desk received it second", async () => {
    renderWithApp(<SignalsPage />);
    await screen.findByRole('list', { name: 'Signals' });
    fireEvent.change(screen.getByLabelText('Source'), { target: { value: 'src_1' } });
    const item = (await screen.findByText('From Acme')).closest('li')!;
    const published = within(item).getByText('published 3 Mar');
    expect(published.tagName).toBe('TIME');
    expect(published.getAttribute('dateTime')).toBe('2026-03-03T09:00:00.000Z');
    expect(within(item).getByText(/^received/).textContent).toBe('received 1 hour ago');
  });
});
