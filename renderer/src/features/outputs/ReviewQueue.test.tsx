import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useAuth } from '../../lib/auth';
import { fixClock } from '../../testing/clock';
import { fakeFetch, json, noFake } from '../../testing/fake-api';
import { renderAppAt } from '../../testing/render';
import { aQueuePage, anOutput } from './testing';

const row = (id: string, title: string, hours: number, attention: 'fresh' | 'watch' | 'overdue') => {
  const { content: _content, ...summary } = anOutput(id, title, { approvalAgeHours: hours, approvalAttention: attention, reviewOwner: id === 'art_1' ? { userId: 'usr_ann', name: 'Ann' } : null });
  return { ...summary, reviewOwnerCapacity: null };
};

// A stateful fake queue: deciding an output takes it out of the ready list.
function fakeQueue() {
  let ready = [row('art_1', 'Oldest draft', 80, 'overdue'), row('art_2', 'Middle draft', 30, 'watch'), row('art_3', 'Newest draft', 1, 'fresh')];
  return fakeFetch((call) => {
    const { method, path } = call;
    if (method === 'GET' && path === '/api/v1/artifacts') return json(200, aQueuePage(ready, { median7d: 20.4, p90Hours30d: 96 }));
    const decided = /^\/api\/v1\/artifacts\/(art_\d)\/(approve|archive)$/.exec(path);
    if (method === 'POST' && decided) {
      const found = ready.find((r) => r.id === decided[1]);
      ready = ready.filter((r) => r.id !== decided[1]);
      return json(200, { ...found, content: '', status: decided[2] === 'approve' ? 'approved' : 'archived' });
    }
    if (method === 'POST' && path === '/api/v1/artifacts/bulk') {
      const ids = ready.map((r) => r.id);
      ready = [];
      return json(200, { action: 'approve_all', status: 'approved', decided: ids.length, artifactIds: ids, decidedAt: '2026-03-11T16:00:00.000Z' });
    }
    return noFake(call);
  });
}

let desk: ReturnType<typeof fakeQueue>;

beforeEach(() => {
  fixClock('2026-03-11T16:00:00.000Z');
  useAuth.setState({ token: 't', status: 'signed-in', baseUrl: 'http://127.0.0.1:4000' });
  desk = fakeQueue();
});
afterEach(() => window.sessionStorage.clear());

const press = (key: string, code: string, target: Element = document.body, shiftKey = false) => {
  fireEvent.keyDown(target, { key, code, shiftKey });
  fireEvent.keyUp(target, { key, code, shiftKey });
};
const selectedTitle = () => {
  const list = screen.getByRole('list', { name: 'Outputs' });
  const current = list.querySelector('[aria-current="true"]');
  return current ? within(current as HTMLElement).getAllByRole('link')[0].textContent : null;
};
const posts = () => desk.calls.filter((c) => c.method === 'POST');

describe('review queue', () => {
  it('shows attention, owner and wait, and moves the selection with j and k', async () => {
    renderAppAt('/outputs');
    await screen.findByRole('list', { name: 'Outputs' });
    expect(screen.getByText('overdue · waiting 3 d')).toBeTruthy();
    expect(screen.getByText('watch · waiting 30 h')).toBeTruthy();
    expect(screen.getByText('fresh · waiting 1 h')).toBeTruthy();
    expect(screen.getByText('owner Ann')).toBeTruthy();
    expect(selectedTitle()).toBe('Oldest draft');
    press('j', 'KeyJ');
    expect(selectedTitle()).toBe('Middle draft');
    press('j', 'KeyJ');
    press('j', 'KeyJ');
    expect(selectedTitle()).toBe('Newest draft');
    press('k', 'KeyK');
    expect(selectedTitle()).toBe('Middle draft');
  });

  it('moves real focus with the selection: one title in the tab order, focused by j and k', async () => {
    renderAppAt('/outputs');
    const list = await screen.findByRole('list', { name: 'Outputs' });
    const titles = within(list).getAllByRole('link', { name: /draft$/ });
    expect(titles.map((t) => t.getAttribute('tabindex'))).toEqual(['0', '-1', '-1']);
    press('j', 'KeyJ');
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Middle draft'));
    expect(titles.map((t) => t.getAttribute('tabindex'))).toEqual(['-1', '0', '-1']);
    press('k', 'KeyK');
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Oldest draft'));
    // Focus that arrives on a row by Tab selects it.
    fireEvent.focus(within(list).getAllByRole('button', { name: /^Approve / })[2]);
    expect(selectedTitle()).toBe('Newest draft');
  });

  it('shows the queue aggregates above the list', async () => {
    renderAppAt('/outputs');
    const strip = await screen.findByLabelText('Queue at a glance');
    const value = (label: string) => within(strip).getByText(label).nextElementSibling?.textContent;
    expect(value('Waiting')).toBe('3');
    expect(value('Past watch')).toBe('2');
    expect(value('Overdue')).toBe('1');
    expect(value('Oldest wait')).toBe('3 d');
    expect(value('Mine')).toBe('0');
    expect(value('Unassigned')).toBe('2');
    expect(value('7-day median')).toBe('20 h');
    expect(value('30-day p90')).toBe('4 d');
  });

  it('a approves the selected output, confirms it and selects the next one', async () => {
    renderAppAt('/outputs');
    await screen.findByRole('list', { name: 'Outputs' });
    press('j', 'KeyJ');
    press('a', 'KeyA');
    expect((await screen.findByRole('status')).textContent).toBe('Approved “Middle draft”.');
    expect(posts().map((c) => c.path)).toEqual(['/api/v1/artifacts/art_2/approve']);
    await waitFor(() => expect(screen.queryByText('Middle draft')).toBeNull());
    expect(selectedTitle()).toBe('Newest draft');
  });

  it('e archives the selected output', async () => {
    renderAppAt('/outputs');
    await screen.findByRole('list', { name: 'Outputs' });
    press('e', 'KeyE');
    expect((await screen.findByRole('status')).textContent).toBe('Archived “Oldest draft”.');
    expect(posts().map((c) => c.path)).toEqual(['/api/v1/artifacts/art_1/archive']);
    await waitFor(() => expect(selectedTitle()).toBe('Middle draft'));
  });

  it('the row buttons decide that row', async () => {
    renderAppAt('/outputs');
    await screen.findByRole('list', { name: 'Outputs' });
    fireEvent.click(screen.getByRole('button', { name: 'Approve Newest draft' }));
    await waitFor(() => expect(posts().map((c) => c.path)).toEqual(['/api/v1/artifacts/art_3/approve']));
  });

  it('o opens the selected output', async () => {
    const router = renderAppAt('/outputs');
    await screen.findByRole('list', { name: 'Outputs' });
    press('j', 'KeyJ');
    press('o', 'KeyO');
    await waitFor(() => expect(router.state.location.pathname).toBe('/outputs/art_2'));
  });

  it('Enter opens the selected output, but not from a focused button', async () => {
    const router = renderAppAt('/outputs');
    await screen.findByRole('list', { name: 'Outputs' });
    press('Enter', 'Enter', screen.getByRole('button', { name: 'Archive Oldest draft' }));
    expect(router.state.location.pathname).toBe('/outputs');
    press('Enter', 'Enter');
    await waitFor(() => expect(router.state.location.pathname).toBe('/outputs/art_1'));
  });

  it('? toggles the help panel', async () => {
    renderAppAt('/outputs');
    await screen.findByRole('list', { name: 'Outputs' });
    expect(screen.queryByRole('region', { name: 'Keyboard shortcuts' })).toBeNull();
    press('?', 'Slash', document.body, true);
    expect(within(screen.getByRole('region', { name: 'Keyboard shortcuts' })).getByText('approve the selected output')).toBeTruthy();
    press('?', 'Slash', document.body, true);
    expect(screen.queryByRole('region', { name: 'Keyboard shortcuts' })).toBeNull();
  });

  it('ignores the keys while typing in an input', async () => {
    renderAppAt('/outputs');
    await screen.findByRole('list', { name: 'Outputs' });
    const input = document.createElement('input');
    document.body.appendChild(input);
    try {
      input.focus();
      press('j', 'KeyJ', input);
      press('a', 'KeyA', input);
      press('?', 'Slash', input, true);
      expect(selectedTitle()).toBe('Oldest draft');
      expect(screen.queryByRole('region', { name: 'Keyboard shortcuts' })).toBeNull();
      expect(posts()).toEqual([]);
    } finally {
      input.remove();
    }
  });

  it('Approve all asks for confirmation before calling the bulk endpoint', async () => {
    renderAppAt('/outputs');
    await screen.findByRole('list', { name: 'Outputs' });
    fireEvent.click(screen.getByRole('button', { name: 'Approve all' }));
    expect(posts()).toEqual([]);
    const question = screen.getByRole('group', { name: 'Approve all 3 ready outputs?' });
    fireEvent.click(within(question).getByRole('button', { name: 'Approve all' }));
    expect((await screen.findByRole('status')).textContent).toBe('Approved 3 outputs.');
    expect(posts().map((c) => [c.path, c.body])).toEqual([['/api/v1/artifacts/bulk', { action: 'approve_all' }]]);
    expect(await screen.findByText('Nothing waits for review.')).toBeTruthy();
  });

  it('passes the attention, reviewer and order filters to the API and keeps them in the URL', async () => {
    const router = renderAppAt('/outputs');
    await screen.findByRole('list', { name: 'Outputs' });
    fireEvent.click(screen.getByRole('radio', { name: 'Overdue' }));
    const owner = screen.getByRole('combobox', { name: 'Review owner' });
    fireEvent.change(owner, { target: { value: 'unassigned' } });
    await waitFor(() =>
      expect(desk.calls.some((c) => c.path === '/api/v1/artifacts' && c.query.get('attention') === 'overdue' && c.query.get('reviewer') === 'unassigned' && c.query.get('status') === 'ready')).toBe(true),
    );
    // One member: reviewerId instead of reviewer; newest first sends sort=recent (oldest is the default and is not sent).
    fireEvent.change(owner, { target: { value: 'usr_ann' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Newest first' }));
    await waitFor(() => {
      const last = desk.calls.filter((c) => c.path === '/api/v1/artifacts').at(-1)!;
      expect([last.query.get('reviewerId'), last.query.get('reviewer'), last.query.get('sort')]).toEqual(['usr_ann', null, 'recent']);
    });
    expect(router.state.location.search).toEqual({ attention: 'overdue', reviewer: 'usr_ann', sort: 'recent' });
  });

  it('opens filtered from a link (the desktop notification opens /outputs?attention=overdue); unknown values are ignored', async () => {
    renderAppAt('/outputs?attention=overdue&reviewer=nobody&sort=sideways');
    await screen.findByRole('list', { name: 'Outputs' });
    expect((screen.getByRole('radio', { name: 'Overdue' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('radio', { name: 'Oldest first' }) as HTMLInputElement).checked).toBe(true);
    const first = desk.calls.find((c) => c.path === '/api/v1/artifacts')!;
    expect([first.query.get('attention'), first.query.get('reviewer'), first.query.get('sort')]).toEqual(['overdue', null, null]);
  });
});
