import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Schema } from '../../api/client';
import { useAuth } from '../../lib/auth';
import { fakeFetch, json, noFake, type FakeCall } from '../../testing/fake-api';
import { renderWithApp } from '../../testing/render';
import { fakePrefs } from '../preferences/testing';
import { CommentsSection } from './components/CommentsSection';

const comment = (id: string, text: string, authorId: string, authorName: string): Schema<'TaskComment'> => ({
  id,
  taskId: 'tsk_1',
  parentCommentId: null,
  text,
  authorId,
  authorName,
  authorInitials: authorName[0],
  authorHue: 200,
  mentionedUserIds: [],
  reactions: [],
  createdAt: '2026-03-10T11:30:00.000Z',
});

const comments = [comment('cmt_1', 'First draft is up', 'usr_ada', 'Ada'), comment('cmt_2', 'Second draft from me', 'usr_owner', 'Owner'), comment('cmt_3', 'Looks good', 'usr_ada', 'Ada')];
const authors = [
  { userId: 'usr_ada', name: 'Ada', authorInitials: 'A', authorHue: 10, commentCount: 2 },
  { userId: 'usr_owner', name: 'Owner', authorInitials: 'O', authorHue: 200, commentCount: 1 },
];

/** The comments endpoint with its q and authorId filters, and the member's stored comment filters. */
function fakeDesk(prefs: ReturnType<typeof fakePrefs>) {
  return fakeFetch((call: FakeCall) => {
    const handled = prefs.handle(call);
    if (handled) return handled;
    if (call.method === 'GET' && call.path === '/api/v1/tasks/tsk_1/comments') {
      const q = call.query.get('q');
      const authorId = call.query.get('authorId');
      const matched = comments.filter((c) => (!q || c.text.includes(q)) && (!authorId || c.authorId === authorId));
      const filtered = q || authorId;
      return json(200, { comments: filtered ? matched : comments, total: comments.length, filtered: (filtered ? matched : comments).length, matchedIds: filtered ? matched.map((c) => c.id) : [], query: q, authorId, since: null, authors });
    }
    return noFake(call);
  });
}

beforeEach(() => {
  useAuth.setState({ token: 't', status: 'signed-in', baseUrl: 'http://127.0.0.1:4000' });
});

describe("a task's comment filter", () => {
  it('opens with the filter stored for the task, and each change is saved echoing its version', async () => {
    const prefs = fakePrefs({ taskCommentFilters: [{ taskId: 'tsk_1', q: 'draft', authorId: 'usr_ada', updatedAt: '2026-03-10T09:00:00.000Z' }] });
    const { calls } = fakeDesk(prefs);
    renderWithApp(<CommentsSection taskId="tsk_1" />);

    const list = await screen.findByRole('list', { name: 'Comments' });
    await waitFor(() => expect(within(list).getAllByRole('listitem').map((li) => li.querySelector('.comment__text')?.textContent)).toEqual(['First draft is up']));
    expect((screen.getByRole('searchbox', { name: 'Search comments' }) as HTMLInputElement).value).toBe('draft');
    expect((screen.getByRole('combobox', { name: 'Comments by' }) as HTMLSelectElement).value).toBe('usr_ada');
    expect(screen.getByText('1 match for “draft” by Ada (1 of 3 shown)')).toBeTruthy();
    expect(calls.some((c) => c.path.endsWith('/comments') && c.query.get('q') === 'draft' && c.query.get('authorId') === 'usr_ada')).toBe(true);
    // Reading the stored filter writes nothing.
    expect(prefs.puts).toEqual([]);

    fireEvent.change(screen.getByRole('combobox', { name: 'Comments by' }), { target: { value: '' } });
    await waitFor(() => expect(prefs.puts).toHaveLength(1));
    expect(prefs.puts[0]).toEqual({ taskCommentFilters: [{ taskId: 'tsk_1', q: 'draft', authorId: null, updatedAt: '2026-03-10T09:00:00.000Z' }] });
    await waitFor(() => expect(screen.getByText('2 matches for “draft” (2 of 3 shown)')).toBeTruthy());

    // Clearing the keyword too removes the task's filter, echoing the version the last write made.
    const stamp = prefs.current().taskCommentFilters[0].updatedAt;
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search comments' }), { target: { value: '' } });
    await waitFor(() => expect(prefs.puts).toHaveLength(2));
    expect(prefs.puts[1]).toEqual({ taskCommentFilters: [{ taskId: 'tsk_1', q: null, authorId: null, updatedAt: stamp }] });
    expect(prefs.current().taskCommentFilters).toEqual([]);
    await waitFor(() => expect(screen.getByText('3 comments')).toBeTruthy());
  }, 20_000);
});
