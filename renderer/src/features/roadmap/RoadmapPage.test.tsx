import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Schema } from '../../api/client';
import { fakeFetch, json, noFake } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';
import { RoadmapPage } from './RoadmapPage';

type Items = Schema<'RoadmapItems'>;
type Votes = Schema<'RoadmapVotes'>;

const ITEMS: Items = {
  generatedAt: '2026-03-11T09:00:00.000Z',
  total: 3,
  phases: [
    {
      key: 'now',
      name: 'Now',
      description: 'Being built.',
      count: 2,
      items: [
        { key: 'mailbox-source', title: 'Mailbox as a source', description: 'Poll an IMAP folder.', status: 'in_progress', phase: 'now' },
        { key: 'chat-notifications', title: 'Digest in chat', description: 'Send the digest to a chat.', status: 'in_progress', phase: 'now' },
      ],
    },
    { key: 'later', name: 'Later', description: 'Ideas.', count: 1, items: [{ key: 'voice-notes', title: 'Voice notes', description: 'Transcribed locally.', status: 'exploring', phase: 'later' }] },
  ],
};

const trend = (last: number) => Array.from({ length: 14 }, (_, i) => ({ date: `2026-02-${String(26 + i).padStart(2, '0')}`, votes: i === 13 ? last : 0 }));

/** A stateful votes API for the owner: one vote per item, counts follow. */
function fakeRoadmap(initial: Record<string, number>, mine: string[]) {
  const counts = { ...initial };
  let myKeys = [...mine];
  const votes = (): Votes => {
    const items = ITEMS.phases.flatMap((p) => p.items).map((i) => ({ key: i.key, title: i.title, phase: i.phase, status: i.status, votes: counts[i.key] ?? 0, trend: trend(counts[i.key] ?? 0), momentum7d: counts[i.key] ?? 0 }));
    const requested = items.filter((i) => i.votes > 0).sort((a, b) => b.votes - a.votes);
    return { generatedAt: ITEMS.generatedAt, today: '2026-03-11', trendDays: 14, totalVotes: items.reduce((s, i) => s + i.votes, 0), items, mostRequested: requested.map(({ key, title, votes: v, momentum7d }) => ({ key, title, votes: v, momentum7d })), mostTrending: [] };
  };
  return fakeFetch((call) => {
    const { method, path } = call;
    if (method === 'GET' && path === '/api/v1/roadmap-items') return json(200, ITEMS);
    if (method === 'GET' && path === '/api/v1/roadmap-votes') return json(200, votes());
    if (method === 'GET' && path === '/api/v1/roadmap-items/my-votes') return json(200, { userId: 'usr_owner', itemKeys: myKeys });
    const one = path.match(/^\/api\/v1\/roadmap-items\/([^/]+)\/vote$/);
    if (one && (method === 'POST' || method === 'DELETE')) {
      const key = one[1];
      if (!ITEMS.phases.some((p) => p.items.some((i) => i.key === key))) return json(404, { error: 'not_found', message: `No roadmap item with key ${key}` });
      const had = myKeys.includes(key);
      const want = method === 'POST';
      if (had !== want) {
        counts[key] = (counts[key] ?? 0) + (want ? 1 : -1);
        myKeys = want ? [...myKeys, key] : myKeys.filter((k) => k !== key);
      }
      return json(200, { itemKey: key, userId: 'usr_owner', voted: want, changed: had !== want, votes: counts[key] ?? 0 });
    }
    if (method === 'GET' && path === '/api/v1/activity') return json(200, { activities: [], nextCursor: null });
    return noFake(call);
  });
}


describe('Roadmap page', () => {
  it('lists the phases with their items, status, vote counts, trend and the most requested', async () => {
    fakeRoadmap({ 'mailbox-source': 3, 'voice-notes': 1 }, ['voice-notes']);
    renderWithApp(<RoadmapPage />);
    const now = await screen.findByRole('list', { name: 'Now items' });
    const mailbox = within(now).getByRole('listitem', { name: 'Mailbox as a source' });
    expect(within(mailbox).getByText('In progress')).toBeTruthy();
    expect(within(mailbox).getByText('Poll an IMAP folder.')).toBeTruthy();
    expect(within(mailbox).getByRole('img', { name: 'Votes per day for Mailbox as a source over 14 days' })).toBeTruthy();
    await waitFor(() => expect(within(mailbox).getByText('3 votes')).toBeTruthy());
    expect(within(mailbox).getByRole('button', { name: 'Vote for Mailbox as a source' }).getAttribute('aria-pressed')).toBe('false');
    const later = screen.getByRole('list', { name: 'Later items' });
    const voice = within(later).getByRole('listitem', { name: 'Voice notes' });
    expect(within(voice).getByRole('button', { name: 'Vote for Voice notes' }).getAttribute('aria-pressed')).toBe('true');
    expect(within(voice).getByText('1 vote')).toBeTruthy();
    expect(screen.getByText(/Mailbox as a source \(3\) · Voice notes \(1\)/)).toBeTruthy();
  });

  it('votes and takes the vote back with the same button', async () => {
    const desk = fakeRoadmap({}, []);
    renderWithApp(<RoadmapPage />);
    const button = await screen.findByRole('button', { name: 'Vote for Digest in chat' });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(button);
    const pressed = await screen.findByRole('button', { name: 'Vote for Digest in chat', pressed: true });
    await waitFor(() => expect(pressed.parentElement!.textContent).toBe('1 vote▲ Vote for Digest in chat'));
    expect(desk.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api/v1/roadmap-items/chat-notifications/vote']);
    await waitFor(() => expect((pressed as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(pressed);
    const again = await screen.findByRole('button', { name: 'Vote for Digest in chat', pressed: false });
    await waitFor(() => expect(again.parentElement!.textContent).toBe('0 votes▲ Vote for Digest in chat'));
    expect(desk.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/v1/roadmap-items/chat-notifications/vote']);
  });
});
