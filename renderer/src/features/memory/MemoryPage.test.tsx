import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Schema } from '../../api/client';
import { useAuth } from '../../lib/auth';
import { fixClock } from '../../testing/clock';
import { fakeFetch, json, noFake } from '../../testing/fake-api';
import { renderAppAt, renderWithApp } from '../../testing/render';
import { MemoryPage } from './MemoryPage';

type Entry = Schema<'MemoryEntry'>;

function entry(id: string, title: string, over: Partial<Entry> = {}): Entry {
  return {
    id,
    kind: 'fact',
    title,
    content: `Content of ${title}`,
    importance: null,
    pinned: false,
    tags: [],
    reactions: [],
    retrievals7d: 0,
    retrievalCount: 0,
    lastRetrievedAt: null,
    totalAttributedInputTokens: 0,
    totalAttributedOutputTokens: 0,
    estimatedCostUsd: 0,
    costSpikeAckedAt: null,
    chronicAckedAt: null,
    consecutiveSpikeDays: 0,
    createdByRunId: null,
    archivedAt: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-01T10:00:00.000Z',
    ...over,
  };
}

/** Seven days ending 2026-03-10, oldest first. */
const week = (counts: number[]) => counts.map((count, i) => ({ date: `2026-03-${String(4 + i).padStart(2, '0')}`, count }));

function fakeDesk() {
  const pricing = entry('mem_1', 'Pricing needs approval', { tags: ['pricing'], retrievals7d: 3, retrievalCount: 9, lastRetrievedAt: '2026-03-10T09:00:00.000Z', estimatedCostUsd: 0.42 });
  const tone = entry('mem_2', 'Plain words', { kind: 'preference', pinned: true });
  return fakeFetch((call) => {
    const { method, path, query, body } = call;
    if (method === 'GET' && path === '/api/v1/memory') {
      if (query.get('tag') === 'pricing') return json(200, { memory: [pricing], nextCursor: null });
      if (query.get('q') === 'words') return json(200, { memory: [tone], nextCursor: null });
      return json(200, { memory: [pricing, tone], nextCursor: null });
    }
    if (method === 'GET' && path === '/api/v1/memory/stale') {
      const threshold = Number(query.get('thresholdDays'));
      const never = query.get('includeNeverRetrieved') === 'true';
      const rows = [
        ...(threshold <= 60 ? [{ ...entry('mem_old', 'Old office hours'), daysSinceRetrieved: 61, daysSinceCreated: 90, lastRetrievedAt: '2026-01-08T10:00:00.000Z' }] : []),
        ...(never ? [{ ...entry('mem_new', 'Never used note'), daysSinceRetrieved: null, daysSinceCreated: 40 }] : []),
      ];
      return json(200, { memory: rows, thresholdDays: threshold, includeNeverRetrieved: never, nextCursor: null });
    }
    if (method === 'GET' && path === '/api/v1/memory/top-retrieved') {
      return json(200, { days: Number(query.get('days')), memory: [{ ...pricing, retrievalsInWindow: 3, trajectory7d: week([0, 0, 1, 0, 0, 0, 2]) }] });
    }
    if (method === 'GET' && path === '/api/v1/memory/top-cost') return json(200, { memory: [pricing] });
    if (method === 'GET' && path === '/api/v1/memory/mem_1') return json(200, pricing);
    if (method === 'GET' && path === '/api/v1/memory/mem_1/retrieval-trajectory') {
      const days = Number(query.get('days'));
      return json(200, { memoryId: 'mem_1', days, points: Array.from({ length: days }, (_, i) => ({ date: `2026-02-${String(i + 1).padStart(2, '0')}`, count: i === days - 1 ? 4 : i === 0 ? 1 : 0 })) });
    }
    if (method === 'GET' && path === '/api/v1/memory/mem_1/cost-trajectory') {
      const days = Number(query.get('days'));
      return json(200, {
        memoryId: 'mem_1',
        days,
        points: Array.from({ length: days }, (_, i) => ({ date: `2026-02-${String(i + 1).padStart(2, '0')}`, inputTokens: 100, outputTokens: 10, estimatedCostUsd: i === days - 1 ? 0.25 : 0 })),
      });
    }
    if (method === 'POST' && path === '/api/v1/memory') {
      const b = body as Schema<'CreateMemoryBody'>;
      if (b.title === '') return json(422, { error: 'validation_failed', message: 'title must not be empty', details: [{ field: 'title', message: 'must not be empty' }] });
      return json(201, entry('mem_new', b.title, { kind: b.kind, tags: b.tags ?? [] }));
    }
    if (method === 'POST' && path === '/api/v1/memory/bulk-update') {
      const b = body as Schema<'MemoryBulkBody'>;
      return json(200, { action: b.action, affected: b.memoryIds.length, changed: b.memoryIds, unchanged: [], skipped: [], notFound: [] });
    }
    if (method === 'DELETE' && path === '/api/v1/memory/mem_1') return json(200, { memoryId: 'mem_1', title: pricing.title, deleted: true });
    if (method === 'POST' && path === '/api/v1/memory/mem_1/reaction') {
      return json(200, { memoryId: 'mem_1', emoji: '🎯', reacted: true, reactions: [{ emoji: '🎯', count: 1, userIds: ['usr_owner'], reacted: true }] });
    }
    return noFake(call);
  });
}

let desk: ReturnType<typeof fakeDesk>;
const calls = (method: string, path: string) => desk.calls.filter((c) => c.method === method && c.path === path);

beforeEach(() => {
  fixClock('2026-03-10T12:00:00.000Z');
  desk = fakeDesk();
});

afterEach(() => useAuth.setState({ token: null, status: 'no-token' }));

describe('MemoryPage', () => {
  it('lists entries with their usage, tags and pins, and filters by tag and keywords', async () => {
    renderWithApp(<MemoryPage />);
    const list = await screen.findByRole('list', { name: 'Memory entries' });
    const pricing = within(list).getByRole('listitem', { name: 'Pricing needs approval' });
    expect(within(pricing).getByText('3 retrievals in 7 days')).toBeTruthy();
    expect(within(pricing).getByText('9 retrievals in all')).toBeTruthy();
    expect(within(pricing).getByText('$0.42 attributed')).toBeTruthy();
    expect(within(pricing).getByText('pricing')).toBeTruthy();
    expect(within(pricing).getByRole('link', { name: 'Pricing needs approval' }).getAttribute('href')).toBe('/memory/mem_1');
    expect(within(within(list).getByRole('listitem', { name: 'Plain words' })).getByText('pinned')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Tag'), { target: { value: 'pricing' } });
    await waitFor(() => expect(within(list).queryByText('Plain words')).toBeNull());
    expect(calls('GET', '/api/v1/memory').at(-1)!.query.get('tag')).toBe('pricing');
    fireEvent.change(screen.getByLabelText('Tag'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'words' } });
    await waitFor(() => expect(within(list).queryByText('Pricing needs approval')).toBeNull());
    expect(calls('GET', '/api/v1/memory').at(-1)!.query.get('q')).toBe('words');
  });

  it('adds an entry with kind, importance, pin and tags; an API field error shows at its field', async () => {
    renderWithApp(<MemoryPage />);
    await screen.findByRole('list', { name: 'Memory entries' });
    fireEvent.click(screen.getByRole('button', { name: 'New entry' }));
    const form = screen.getByRole('form', { name: 'Add a memory entry' });
    fireEvent.click(within(form).getByRole('button', { name: 'Add entry' }));
    expect(await within(form).findByText('must not be empty')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Kind'), { target: { value: 'lesson' } });
    fireEvent.change(within(form).getByLabelText('Title'), { target: { value: 'Short posts win' } });
    fireEvent.change(within(form).getByLabelText('Content'), { target: { value: 'Launch posts under 80 words get more replies.' } });
    fireEvent.change(within(form).getByLabelText('Importance'), { target: { value: '7.5' } });
    fireEvent.change(within(form).getByLabelText('Tags'), { target: { value: 'Marketing, launch marketing' } });
    fireEvent.click(within(form).getByRole('checkbox', { name: /Pinned/ }));
    fireEvent.click(within(form).getByRole('button', { name: 'Add entry' }));
    expect(await screen.findByText('Added “Short posts win”.')).toBeTruthy();
    expect(calls('POST', '/api/v1/memory').at(-1)!.body).toEqual({
      kind: 'lesson',
      title: 'Short posts win',
      content: 'Launch posts under 80 words get more replies.',
      importance: 7.5,
      pinned: true,
      tags: ['marketing', 'launch'],
    });
  });

  it('pins, tags and deletes (after confirming) selected entries; pins one entry; reacts', async () => {
    renderWithApp(<MemoryPage />);
    const list = await screen.findByRole('list', { name: 'Memory entries' });
    const pricing = within(list).getByRole('listitem', { name: 'Pricing needs approval' });
    fireEvent.click(within(pricing).getByRole('button', { name: 'Pin' }));
    await waitFor(() => expect(calls('POST', '/api/v1/memory/bulk-update')).toHaveLength(1));
    expect(calls('POST', '/api/v1/memory/bulk-update')[0].body).toEqual({ action: 'pin', memoryIds: ['mem_1'], pinned: true });

    fireEvent.click(within(pricing).getByRole('button', { name: /on target/ }));
    await waitFor(() => expect(within(pricing).getByRole('button', { name: /on target 🎯, 1/ }).getAttribute('aria-pressed')).toBe('true'));

    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Pricing needs approval' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Plain words' }));
    const bar = screen.getByRole('toolbar', { name: 'Bulk actions' });
    fireEvent.change(within(bar).getByLabelText('Tag for the selected entries'), { target: { value: 'Launch' } });
    fireEvent.click(within(bar).getByRole('button', { name: 'Tag' }));
    expect(await within(bar).findByText('Tagged 2 entries.')).toBeTruthy();
    expect(calls('POST', '/api/v1/memory/bulk-update').at(-1)!.body).toEqual({ action: 'tag', tag: 'launch', memoryIds: ['mem_1', 'mem_2'] });

    fireEvent.click(within(bar).getByRole('button', { name: 'Delete selected' }));
    expect(calls('POST', '/api/v1/memory/bulk-update')).toHaveLength(2);
    fireEvent.click(within(bar).getByRole('button', { name: 'Delete' }));
    expect(await within(bar).findByText('Deleted 2 entries.')).toBeTruthy();

    fireEvent.click(within(pricing).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(pricing).getByRole('button', { name: 'Delete entry' }));
    await waitFor(() => expect(calls('DELETE', '/api/v1/memory/mem_1')).toHaveLength(1));
  });

  it('shows stale, most used and most cost panels; the stale threshold and never-used switch ask the API again', async () => {
    renderWithApp(<MemoryPage />);
    const stale = await screen.findByRole('list', { name: 'Stale entries' });
    expect(within(stale).getByText('last used 61 days ago')).toBeTruthy();
    expect(within(stale).getByText('never used · added 40 days ago')).toBeTruthy();
    expect(calls('GET', '/api/v1/memory/stale')[0].query.get('thresholdDays')).toBe('30');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Include never used' }));
    await waitFor(() => expect(within(stale).queryByText('Never used note')).toBeNull());
    fireEvent.change(screen.getByLabelText('Stale threshold in days'), { target: { value: '90' } });
    expect(await screen.findByText('Nothing stale at 90 days.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Stale threshold in days'), { target: { value: '400' } });
    expect(await screen.findByText('Between 7 and 365 days.')).toBeTruthy();

    const used = screen.getByRole('list', { name: 'Most used entries' });
    expect(within(used).getByText('3 retrievals')).toBeTruthy();
    expect(within(used).getByRole('img', { name: 'Daily retrievals of Pricing needs approval over 7 days' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Most used window'), { target: { value: '30' } });
    await waitFor(() => expect(calls('GET', '/api/v1/memory/top-retrieved').at(-1)!.query.get('days')).toBe('30'));
    expect(within(screen.getByRole('list', { name: 'Costliest entries' })).getByText('$0.42 · 9 uses')).toBeTruthy();
  });

  it('/memory/<id> opens the entry with its retrieval and cost charts, 7 or 30 days', async () => {
    useAuth.setState({ token: 't', status: 'signed-in' });
    renderAppAt('/memory/mem_1');
    const opened = await screen.findByRole('region', { name: 'Opened entry' });
    expect(await within(opened).findByText('3 retrievals in 7 days')).toBeTruthy();
    expect(await within(opened).findByText('5 retrievals in 7 days')).toBeTruthy();
    expect(await within(opened).findByText('$0.25 attributed in 7 days')).toBeTruthy();
    expect(calls('GET', '/api/v1/memory/mem_1/retrieval-trajectory')[0].query.get('days')).toBe('7');
    expect(opened.querySelectorAll('.memory-chart svg').length).toBe(2);
    fireEvent.click(within(opened).getByRole('button', { name: '30 days' }));
    expect(await within(opened).findByText('5 retrievals in 30 days')).toBeTruthy();
    expect(calls('GET', '/api/v1/memory/mem_1/cost-trajectory').at(-1)!.query.get('days')).toBe('30');
    expect(within(opened).getByRole('link', { name: 'Close' }).getAttribute('href')).toBe('/memory');
    expect(within(opened).queryByRole('checkbox')).toBeNull();
  });
});
