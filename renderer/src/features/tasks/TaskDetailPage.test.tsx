import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Schema } from '../../api/client';
import { useAuth } from '../../lib/auth';
import { fixClock } from '../../testing/clock';
import { fakeFetch, json, noFake } from '../../testing/fake-api';
import { renderAppAt } from '../../testing/render';
import { taskDetail } from './testing';

const comment = (id: string, text: string, parentCommentId: string | null = null): Schema<'TaskComment'> => ({
  id,
  taskId: 'tsk_1',
  parentCommentId,
  text,
  authorId: 'usr_owner',
  authorName: 'Olive Owner',
  authorInitials: 'OO',
  authorHue: 200,
  mentionedUserIds: [],
  reactions: [],
  createdAt: '2026-03-10T11:30:00.000Z',
});

/** One task with a note, a thread (a comment and its reply) and a timeline; changes answer as the API does. */
function fakeDesk() {
  let task = taskDetail('tsk_1', 'Write the launch brief', { blockers: [{ id: 'tsk_0', title: 'Collect quotes', status: 'in_progress' }], blocked: true });
  const notes = [{ id: 'tno_1', taskId: 'tsk_1', text: 'Keep it short', authorUserId: 'usr_owner', authorName: 'Olive Owner', createdAt: '2026-03-10T11:00:00.000Z' }];
  const comments = [comment('cmt_1', 'First draft is up'), comment('cmt_2', 'Looks good', 'cmt_1')];
  return fakeFetch((call) => {
    const { method, path, query, body } = call;
    if (method === 'GET' && path === '/api/v1/tasks/tsk_1') return json(200, task);
    if (method === 'GET' && path === '/api/v1/tasks/tsk_1/notes') return json(200, { notes, nextCursor: null });
    if (method === 'POST' && path === '/api/v1/tasks/tsk_1/notes') {
      const note = { ...notes[0], id: 'tno_2', text: (body as { text: string }).text, createdAt: '2026-03-10T12:00:00.000Z' };
      notes.unshift(note);
      return json(201, { note, task });
    }
    if (method === 'GET' && path === '/api/v1/tasks/tsk_1/timeline')
      return json(200, { taskId: 'tsk_1', entries: [{ id: 'tsk_1', type: 'created', at: '2026-03-10T10:00:00.000Z', text: 'Task created: Write the launch brief', actorLabel: 'Olive Owner', actorUserId: 'usr_owner', activityKind: null }], nextCursor: null });
    if (method === 'GET' && path === '/api/v1/tasks/tsk_1/comments') {
      const q = query.get('q');
      const shown = q ? comments.filter((c) => c.text.includes(q) || comments.some((m) => m.text.includes(q) && m.parentCommentId === c.id)) : comments;
      const matched = q ? comments.filter((c) => c.text.includes(q)).map((c) => c.id) : [];
      return json(200, { comments: shown, total: comments.length, filtered: shown.length, matchedIds: matched, query: q, authorId: null, since: null, authors: [] });
    }
    if (method === 'POST' && path === '/api/v1/tasks/tsk_1/comments') {
      const b = body as { text: string; parentCommentId?: string };
      const c = comment(`cmt_${comments.length + 1}`, b.text, b.parentCommentId ?? null);
      comments.push(c);
      return json(201, c);
    }
    if (method === 'POST' && path === '/api/v1/tasks/tsk_1/comments/cmt_1/reaction')
      return json(200, { commentId: 'cmt_1', emoji: '🚀', reacted: true, reactions: [{ emoji: '🚀', count: 1, userIds: ['usr_owner'], reacted: true }] });
    if (method === 'PATCH' && path === '/api/v1/tasks/tsk_1') {
      task = { ...task, status: (body as { status: Schema<'TaskStatus'> }).status };
      return json(200, task);
    }
    if (method === 'PATCH' && path === '/api/v1/tasks/tsk_1/pin') {
      task = { ...task, pinned: (body as { pinned: boolean }).pinned };
      return json(200, task);
    }
    if (method === 'PUT' && path === '/api/v1/tasks/tsk_1/tags') {
      task = { ...task, tags: (body as { tags: string[] }).tags };
      return json(200, task);
    }
    if (method === 'POST' && path === '/api/v1/tasks/tsk_1/share-timeline') {
      task = { ...task, share: { ...task.share, timelineShared: true, publicTimelineToken: 'tok123' } };
      return json(200, { ok: true, publicTimelineToken: 'tok123', sharePath: '/share/timeline/tok123' });
    }
    if (method === 'POST' && path === '/api/v1/tasks/tsk_1/duplicate') return json(201, taskDetail('tsk_copy', 'Write the launch brief (copy)'));
    if (method === 'GET' && path === '/api/v1/tasks/tsk_copy') return json(200, taskDetail('tsk_copy', 'Write the launch brief (copy)'));
    if (method === 'GET' && path === '/api/v1/tasks/tsk_1/outputs')
      return json(200, {
        taskId: 'tsk_1',
        total: 2,
        outputs: [
          { id: 'art_2', title: 'Launch brief', kind: 'brief', status: 'approved', version: 2, authorKind: 'member', supersededAt: null, createdAt: '2026-03-10T11:00:00.000Z' },
          { id: 'art_1', title: 'Launch brief', kind: 'brief', status: 'ready', version: 1, authorKind: 'engine', supersededAt: '2026-03-10T11:00:00.000Z', createdAt: '2026-03-10T10:00:00.000Z' },
        ],
      });
    if (method === 'GET' && path === '/api/v1/tasks/tsk_1/sources')
      return json(200, {
        taskId: 'tsk_1',
        signals: [{ id: 'sig_7', kind: 'news', priority: 'high', title: 'Competitor cut prices', detail: '', sourceUrl: null, sourceId: 'src_1', sourceLabel: 'Pricing feed', externalId: null, pinned: false, reactions: [], createdAt: '2026-03-10T09:00:00.000Z', publishedAt: null }],
        missingSignalIds: ['sig_gone'],
      });
    if (method === 'GET' && path === '/api/v1/workspace/members') return json(200, { members: [{ id: 'usr_owner', name: 'Olive Owner' }], invites: [] });
    if (method === 'GET' && path.startsWith('/api/v1/tasks/tsk_copy/')) return json(200, { notes: [], entries: [], comments: [], outputs: [], signals: [], missingSignalIds: [], total: 0, filtered: 0, matchedIds: [], query: null, authorId: null, since: null, authors: [], nextCursor: null });
    return noFake(call);
  });
}

let desk: ReturnType<typeof fakeDesk>;

beforeEach(() => {
  fixClock('2026-03-10T12:00:00.000Z');
  useAuth.setState({ token: 't', status: 'signed-in', baseUrl: 'http://127.0.0.1:4000' });
  desk = fakeDesk();
});
afterEach(() => window.sessionStorage.clear());

describe('TaskDetailPage', () => {
  it('opens from its URL with summary, blockers, notes, the thread and the timeline', async () => {
    renderAppAt('/tasks/tsk_1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Write the launch brief' })).toBeTruthy();
    expect(screen.getByText('Summary of Write the launch brief')).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Blockers' })).getByRole('link', { name: 'Collect quotes' }).getAttribute('href')).toBe('/tasks/tsk_0');
    expect(await within(screen.getByRole('list', { name: 'Notes' })).findByText('Keep it short')).toBeTruthy();
    const thread = await screen.findByRole('list', { name: 'Replies to Olive Owner' });
    expect(within(thread).getByText('Looks good')).toBeTruthy();
    expect(await within(screen.getByRole('list', { name: 'Timeline' })).findByText('Task created: Write the launch brief')).toBeTruthy();
  });

  it('links its outputs (each version, the replaced one saying so) and the signals it came from', async () => {
    renderAppAt('/tasks/tsk_1');
    const outputs = await screen.findByRole('list', { name: 'Outputs of this task' });
    const links = within(outputs).getAllByRole('link', { name: 'Launch brief' });
    expect(links.map((l) => l.getAttribute('href'))).toEqual(['/outputs/art_2', '/outputs/art_1']);
    expect(within(outputs).getByText('Approved')).toBeTruthy();
    expect(within(outputs).getByText('Replaced by a newer version')).toBeTruthy();
    const signals = await screen.findByRole('list', { name: 'Signals this task came from' });
    expect(within(signals).getByRole('link', { name: 'Competitor cut prices' }).getAttribute('href')).toBe('/signals?signal=sig_7');
    expect(within(signals).getByText(/Pricing feed/)).toBeTruthy();
    expect(screen.getByText('1 source signal has been deleted since.')).toBeTruthy();
  });

  it("titles the browser tab with the task's title, its area and the app", async () => {
    renderAppAt('/tasks/tsk_1');
    await screen.findByRole('heading', { level: 1, name: 'Write the launch brief' });
    await waitFor(() => expect(document.title).toBe('Write the launch brief · Tasks · Desk'));
  });

  it('opened from a search hit (?comment=<id>), marks that comment and scrolls it into view', async () => {
    const scrolled: string[] = [];
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this.textContent ?? '');
    };
    try {
      renderAppAt('/tasks/tsk_1?comment=cmt_2');
      const reply = await screen.findByText('Looks good');
      const marked = reply.closest('li')!;
      expect(marked.getAttribute('aria-current')).toBe('true');
      expect(marked.className).toContain('is-focused');
      expect(screen.getByText('First draft is up').closest('li')!.getAttribute('aria-current')).toBeNull();
      expect(scrolled.some((text) => text.includes('Looks good'))).toBe(true);
    } finally {
      Element.prototype.scrollIntoView = original;
    }
  });

  it('posts a note, a comment and a reply into the thread', async () => {
    renderAppAt('/tasks/tsk_1');
    fireEvent.change(await screen.findByLabelText('New note'), { target: { value: 'Mention the pricing' } });
    fireEvent.click(screen.getByRole('button', { name: 'Post note' }));
    expect(await within(screen.getByRole('list', { name: 'Notes' })).findByText('Mention the pricing')).toBeTruthy();

    await screen.findByText('First draft is up');
    fireEvent.click(screen.getAllByRole('button', { name: 'Reply' })[0]);
    const reply = screen.getByRole('form', { name: 'Reply form' });
    fireEvent.change(within(reply).getByLabelText('Reply'), { target: { value: 'Added numbers' } });
    fireEvent.click(within(reply).getByRole('button', { name: 'Post reply' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Replies to Olive Owner' })).getByText('Added numbers')).toBeTruthy());
    expect(desk.calls.find((c) => c.method === 'POST' && c.path === '/api/v1/tasks/tsk_1/comments')!.body).toEqual({ text: 'Added numbers', parentCommentId: 'cmt_1' });
  });

  it('reacts, searches comments, changes the status and tags', async () => {
    renderAppAt('/tasks/tsk_1');
    await screen.findByText('First draft is up');
    fireEvent.click(screen.getAllByRole('button', { name: 'rocket 🚀' })[0]);
    expect(await screen.findByRole('button', { name: 'rocket 🚀, 1' })).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Search comments'), { target: { value: 'good' } });
    expect(await screen.findByText('1 match for “good” (2 of 2 shown)')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'done' } });
    await waitFor(() => expect(desk.calls.find((c) => c.method === 'PATCH')?.body).toEqual({ status: 'done' }));

    fireEvent.change(screen.getByLabelText('Tags'), { target: { value: 'launch' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add tag' }));
    expect(await within(screen.getByRole('list', { name: 'Current tags' })).findByText('launch')).toBeTruthy();

    const pin = screen.getByRole('checkbox', { name: /Pinned/ }) as HTMLInputElement;
    expect(pin.checked).toBe(false);
    fireEvent.click(pin);
    await waitFor(() => expect((screen.getByRole('checkbox', { name: /Pinned/ }) as HTMLInputElement).checked).toBe(true));
    expect(desk.calls.find((c) => c.path === '/api/v1/tasks/tsk_1/pin')?.body).toEqual({ pinned: true });
  });

  it('shares the timeline with a copyable URL, and a duplicate opens the new task', async () => {
    const router = renderAppAt('/tasks/tsk_1');
    const group = await screen.findByRole('group', { name: 'Timeline link' });
    fireEvent.click(within(group).getByRole('checkbox'));
    expect(((await within(group).findByRole('textbox', { name: 'Timeline URL' })) as HTMLInputElement).value).toBe('http://127.0.0.1:4000/share/timeline/tok123');

    fireEvent.click(screen.getByRole('button', { name: 'Duplicate' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/tasks/tsk_copy'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Write the launch brief (copy)' })).toBeTruthy();
  });
});
