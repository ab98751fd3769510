import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAuth } from '../../lib/auth';
import { fixClock } from '../../testing/clock';
import { json, fakeFetch, noFake, type FakeCall } from '../../testing/fake-api';
import { renderAppAt, renderWithApp } from '../../testing/render';
import { SearchBox } from './SearchBox';

const hit = (over: Record<string, unknown>) => ({
  kind: 'task',
  id: 'tsk_1',
  title: 'Plan the launch',
  titleMarks: [],
  snippet: '',
  snippetMarks: [],
  at: '2026-03-10T12:00:00.000Z',
  route: '/tasks/tsk_1',
  taskId: null,
  ...over,
});

const HITS = [
  hit({ kind: 'memory', id: 'mem_1', title: 'Launch pricing', titleMarks: [{ start: 0, end: 6 }], route: '/memory/mem_1', snippet: 'decided <b>before</b> launch', snippetMarks: [{ start: 22, end: 28 }] }),
  hit({ kind: 'task', id: 'tsk_1', title: 'Plan the launch', titleMarks: [{ start: 9, end: 15 }], route: '/tasks/tsk_1' }),
  hit({ kind: 'task', id: 'tsk_2', title: 'Launch retro', titleMarks: [{ start: 0, end: 6 }], route: '/tasks/tsk_2' }),
];

let calls: FakeCall[];
function fakeApi(extra: (call: FakeCall) => Response | undefined = () => undefined) {
  calls = fakeFetch((call) => {
    if (call.path === '/api/v1/search') return json(200, { query: call.query.get('q'), words: [], hits: call.query.get('q') === 'nothing' ? [] : HITS, capped: false });
    return extra(call) ?? noFake(call);
  }).calls;
}

beforeEach(() => {
  fixClock('2026-03-10T15:00:00.000Z');
  useAuth.setState({ token: 't', status: 'signed-in' });
});

const box = () => screen.getByRole('combobox', { name: 'Search the desk' }) as HTMLInputElement;
const searches = () => calls.filter((c) => c.path === '/api/v1/search').map((c) => c.query.get('q'));

describe('SearchBox', () => {
  it('Ctrl+K and / focus it; results come once typing pauses, in the API rank order with each kind named, matches marked, content as text', async () => {
    fakeApi();
    renderWithApp(<SearchBox />);
    await screen.findByRole('combobox', { name: 'Search the desk' });
    fireEvent.keyDown(document.body, { key: 'k', code: 'KeyK', ctrlKey: true });
    expect(document.activeElement).toBe(box());
    box().blur();
    fireEvent.keyDown(document.body, { key: '/', code: 'Slash' });
    expect(document.activeElement).toBe(box());

    fireEvent.change(box(), { target: { value: 'l' } });
    fireEvent.change(box(), { target: { value: 'la' } });
    fireEvent.change(box(), { target: { value: 'launch' } });
    const options = await screen.findAllByRole('option');
    expect(screen.queryAllByRole('group')).toEqual([]);
    expect(searches()).toEqual(['launch']);
    // The API ranked the memory entry first: it stays first, not after the tasks.
    expect(options.map((o) => o.querySelector('.search-box__title')?.textContent)).toEqual(['Launch pricing', 'Plan the launch', 'Launch retro']);
    expect(options.map((o) => o.querySelector('.search-box__hit-kind')?.textContent)).toEqual(['Memory', 'Task', 'Task']);
    expect([...options[1].querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['launch']);
    // markup inside content is shown as text, never parsed
    expect(options[0].querySelector('.search-box__snippet')?.textContent).toBe('decided <b>before</b> launch');
    expect(options[0].querySelector('b')).toBeNull();
    expect(options[0].getAttribute('aria-selected')).toBe('true');
  });

  it('says when nothing matches, and Escape closes the results', async () => {
    fakeApi();
    renderWithApp(<SearchBox />);
    fireEvent.focus(await screen.findByRole('combobox', { name: 'Search the desk' }));
    fireEvent.change(box(), { target: { value: 'nothing' } });
    expect(await screen.findByText('Nothing matches “nothing”.')).toBeTruthy();
    fireEvent.keyDown(box(), { key: 'Escape' });
    expect(screen.queryByText('Nothing matches “nothing”.')).toBeNull();
  });

  it('arrow keys move through the hits in the order shown and Enter opens the hit', async () => {
    fakeApi();
    const router = renderAppAt('/today');
    fireEvent.focus(await screen.findByRole('combobox', { name: 'Search the desk' }));
    fireEvent.change(box(), { target: { value: 'launch' } });
    await screen.findAllByRole('option');
    fireEvent.keyDown(box(), { key: 'ArrowDown' });
    fireEvent.keyDown(box(), { key: 'ArrowDown' });
    expect(screen.getAllByRole('option')[2].getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(box(), { key: 'ArrowDown' });
    fireEvent.keyDown(box(), { key: 'ArrowUp' });
    fireEvent.keyDown(box(), { key: 'ArrowUp' });
    expect(screen.getAllByRole('option')[1].getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(box(), { key: 'Enter' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/tasks/tsk_1'));
    expect(screen.queryByRole('option')).toBeNull();
  });

  it('tag:<name> lists what carries the tag and renames it', async () => {
    let renamed: unknown;
    fakeApi((call) => {
      if (call.path === '/api/v1/workspace/tag-search') {
        return json(200, { tag: call.query.get('tag'), counts: { tasks: 1, artifacts: 0, memory: 0 }, items: [{ kind: 'task', id: 'tsk_1', title: 'Reprice', status: 'queued', createdAt: '2026-03-10T12:00:00.000Z', route: '/tasks/tsk_1' }], nextCursor: null });
      }
      if (call.path === '/api/v1/workspace/tags/rename') {
        renamed = call.body;
        const count = { renamed: 1, merged: 0 };
        return json(200, { from: 'pricing', to: 'pricing-2026', tasks: count, artifacts: { renamed: 0, merged: 0 }, memory: { renamed: 0, merged: 0 }, focusTags: true, focusTagsNow: ['pricing-2026'], changed: true });
      }
      return undefined;
    });
    renderWithApp(<SearchBox />);
    fireEvent.focus(await screen.findByRole('combobox', { name: 'Search the desk' }));
    fireEvent.change(box(), { target: { value: 'tag:pricing' } });
    expect(await screen.findByText('Reprice')).toBeTruthy();
    expect(screen.getByText('1 task, 0 outputs, 0 memory entries tagged pricing')).toBeTruthy();
    expect(searches()).toEqual([]);
    fireEvent.change(screen.getByLabelText('New name for pricing'), { target: { value: 'pricing-2026' } });
    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    expect(await screen.findByText('Renamed pricing to pricing-2026 on 1 item and in the focus tags.')).toBeTruthy();
    expect(renamed).toEqual({ from: 'pricing', to: 'pricing-2026' });
  });
});
