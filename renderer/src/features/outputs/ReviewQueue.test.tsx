import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useAuth } from '../../lib/auth';
import { setClock } from '../../lib/clock';
import { fixClock } from '../../testing/clock';
import { commitDueHolds, HOLD_MS, useDecisionHolds } from './decision-holds';
import { fakeFetch, json, noFake } from '../../testing/fake-api';
import { renderAppAt } from '../../testing/render';
import { aQueuePage, anOutput } from './testing';

const row = (id: string, title: string, hours: number, attention: 'fresh' | 'watch' | 'overdue') => {
  const { content: _content, ...summary } = anOutput(id, title, { approvalAgeHours: hours, approvalAttention: attention, reviewOwner: id === 'art_1' ? { userId: 'usr_ann', name: 'Ann' } : null });
  return { ...summary, reviewOwnerCapacity: null };
};

// A stateful fake desk: a decision takes an output out of the ready list; an edit replaces it with
// its next version (written by the owner); a reopen makes a ready version of a decided one.
function fakeQueue() {
  let ready = [row('art_1', 'Oldest draft', 80, 'overdue'), row('art_2', 'Middle draft', 30, 'watch'), row('art_3', 'Newest draft', 1, 'fresh')];
  let decided: typeof ready = [];
  const contents = new Map<string, string>();
  const full = (r: (typeof ready)[number]) => ({ ...r, content: contents.get(r.id) ?? `# ${r.title}\n\nWhat happened.` });
  const find = (id: string) => [...ready, ...decided].find((r) => r.id === id);
  return fakeFetch((call) => {
    const { method, path } = call;
    if (method === 'GET' && path === '/api/v1/artifacts') return json(200, aQueuePage(call.query.get('status') === 'approved' ? decided : ready, { median7d: 20.4, p90Hours30d: 96 }));
    const one = /^\/api\/v1\/artifacts\/(art_\w+)(?:\/(\w+))?$/.exec(path);
    const found = one ? find(one[1]) : undefined;
    if (method === 'GET' && one && found) {
      if (one[2] === undefined) return json(200, full(found));
      if (one[2] === 'sources') return json(200, { artifactId: found.id, signals: [], memory: [], missingSignalIds: [], missingMemoryIds: [] });
      if (one[2] === 'versions') {
        const chain = [found, ...(found.parentArtifactId ? [find(found.parentArtifactId) ?? found] : [])];
        return json(200, { artifactId: found.id, truncated: false, versions: chain.map((v) => ({ ...v, current: v.id === found.id })) });
      }
    }
    if (method === 'POST' && one && found && (one[2] === 'approve' || one[2] === 'archive')) {
      ready = ready.filter((r) => r.id !== found.id);
      const done = { ...found, status: one[2] === 'approve' ? ('approved' as const) : ('archived' as const), decidedAt: '2026-03-11T16:00:05.000Z' };
      decided = [done, ...decided];
      return json(200, full(done));
    }
    if (method === 'POST' && one && found && one[2] === 'versions') {
      const next = { ...found, id: `${found.id}v${found.version + 1}`, version: found.version + 1, parentArtifactId: found.id, authorKind: 'member' as const, authorUserId: 'usr_owner', authorName: 'Olive Owner' };
      contents.set(next.id, (call.body as { content: string }).content);
      ready = ready.map((r) => (r.id === found.id ? next : r));
      decided = [...decided, { ...found, supersededAt: '2026-03-11T16:00:00.000Z', supersededById: next.id }];
      return json(201, full(next));
    }
    if (method === 'POST' && one && found && one[2] === 'reopen') {
      const next = { ...found, id: `${found.id}r`, version: found.version + 1, status: 'ready' as const, decidedAt: null, parentArtifactId: found.id, authorKind: 'member' as const, authorUserId: 'usr_owner', authorName: 'Olive Owner' };
      ready = [...ready, next];
      return json(201, full(next));
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
/** The review notice's text (held decision with its Undo, or the last word). */
const notice = () => document.querySelector('.hold-notice-slot')?.textContent ?? null;
/** The preview beside the queue, once it shows this output. */
const previewOf = (title: string) => screen.findByRole('region', { name: title });

describe('review queue', () => {
  it('shows attention, owner and wait, and moves the selection with j and k', async () => {
    renderAppAt('/outputs');
    const list = await screen.findByRole('list', { name: 'Outputs' });
    expect(within(list).getByText('overdue · waiting 3 d')).toBeTruthy();
    expect(within(list).getByText('watch · waiting 30 h')).toBeTruthy();
    expect(within(list).getByText('fresh · waiting 1 h')).toBeTruthy();
    expect(within(list).getByText('owner Ann')).toBeTruthy();
    expect(selectedTitle()).toBe('Oldest draft');
    press('j', 'KeyJ');
    expect(selectedTitle()).toBe('Middle draft');
    press('j', 'KeyJ');
    press('j', 'KeyJ');
    expect(selectedTitle()).toBe('Newest draft');
    press('k', 'KeyK');
    expect(selectedTitle()).toBe('Middle draft');
    // The preview follows (and its reads end inside the test).
    await previewOf('Middle draft');
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
    fireEvent.focus(within(list).getAllByRole('link', { name: 'Answer the pricing thread' })[2]);
    expect(selectedTitle()).toBe('Newest draft');
    await previewOf('Newest draft');
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

  it('a holds the approval with an Undo, selects the next one, and sends it only when the hold runs out', async () => {
    const start = fixClock('2026-03-11T16:00:00.000Z');
    renderAppAt('/outputs');
    await screen.findByRole('list', { name: 'Outputs' });
    press('j', 'KeyJ');
    press('a', 'KeyA');
    expect(notice()).toBe('Approved “Middle draft” · Undo (u)');
    expect(within(screen.getByRole('list', { name: 'Outputs' })).queryByText('Middle draft')).toBeNull();
    expect(selectedTitle()).toBe('Newest draft');
    await previewOf('Newest draft');
    // Nothing sent while held, even just before the end of the hold.
    setClock(() => start + HOLD_MS - 1);
    await commitDueHolds();
    expect(posts()).toEqual([]);
    setClock(() => start + HOLD_MS);
    await commitDueHolds();
    expect(posts().map((c) => c.path)).toEqual(['/api/v1/artifacts/art_2/approve']);
    await waitFor(() => expect(notice()).toBe('Approved “Middle draft”.'));
    expect(selectedTitle()).toBe('Newest draft');
  });

  it('u, z and Ctrl+Z undo the newest held decision: the output is back, selected, and nothing is ever sent', async () => {
    const start = fixClock('2026-03-11T16:00:00.000Z');
    renderAppAt('/outputs');
    await screen.findByRole('list', { name: 'Outputs' });
    press('e', 'KeyE');
    expect(notice()).toBe('Archived “Oldest draft” · Undo (u)');
    await waitFor(() => expect(selectedTitle()).toBe('Middle draft'));
    press('u', 'KeyU');
    expect(notice()).toBe('Undone: archived “Oldest draft”.');
    expect(selectedTitle()).toBe('Oldest draft');
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Oldest draft'));
    press('a', 'KeyA');
    press('z', 'KeyZ');
    expect(selectedTitle()).toBe('Oldest draft');
    press('a', 'KeyA');
    fireEvent.keyDown(document.body, { key: 'z', code: 'KeyZ', ctrlKey: true });
    expect(within(screen.getByRole('list', { name: 'Outputs' })).getAllByRole('link', { name: /draft$/ }).map((l) => l.textContent)).toEqual(['Oldest draft', 'Middle draft', 'Newest draft']);
    // The Undo button does the same.
    fireEvent.click(within(await previewOf('Oldest draft')).getByRole('button', { name: 'Approve' }));
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    setClock(() => start + HOLD_MS * 3);
    await commitDueHolds();
    expect(posts()).toEqual([]);
    expect(selectedTitle()).toBe('Oldest draft');
  });

  it('several held decisions are sent in the order they were made; Undo takes back the newest', async () => {
    const start = fixClock('2026-03-11T16:00:00.000Z');
    renderAppAt('/outputs');
    await screen.findByRole('list', { name: 'Outputs' });
    press('a', 'KeyA');
    await waitFor(() => expect(selectedTitle()).toBe('Middle draft'));
    press('e', 'KeyE');
    await waitFor(() => expect(selectedTitle()).toBe('Newest draft'));
    press('a', 'KeyA');
    expect(notice()).toBe('Approved “Newest draft” (and 2 more waiting to be sent) · Undo (u)');
    press('u', 'KeyU');
    setClock(() => start + HOLD_MS);
    await commitDueHolds();
    expect(posts().map((c) => c.path)).toEqual(['/api/v1/artifacts/art_1/approve', '/api/v1/artifacts/art_2/archive']);
  });

  it('leaving the Outputs pages sends the held decisions at once; going to an output\'s page does not', async () => {
    fixClock('2026-03-11T16:00:00.000Z');
    const router = renderAppAt('/outputs');
    await screen.findByRole('list', { name: 'Outputs' });
    press('a', 'KeyA');
    press('o', 'KeyO');
    await waitFor(() => expect(router.state.location.pathname).toBe('/outputs/art_2'));
    expect(posts()).toEqual([]);
    expect(notice()).toBe('Approved “Oldest draft” · Undo (u)');
    await router.navigate({ to: '/memory' });
    await waitFor(() => expect(posts().map((c) => c.path)).toEqual(['/api/v1/artifacts/art_1/approve']));
    // In, and the lists refreshed after it.
    await waitFor(() => expect(useDecisionHolds.getState().holds).toEqual([]));
  });

  it('closing the window sends the held decisions at once, with keepalive', async () => {
    fixClock('2026-03-11T16:00:00.000Z');
    renderAppAt('/outputs');
    await screen.findByRole('list', { name: 'Outputs' });
    press('a', 'KeyA');
    window.dispatchEvent(new Event('pagehide'));
    await waitFor(() => expect(posts().map((c) => c.path)).toEqual(['/api/v1/artifacts/art_1/approve']));
    const sent = desk.fetch.mock.calls.map(([req]) => req as Request).find((r) => r.method === 'POST')!;
    expect(sent.keepalive).toBe(true);
    await waitFor(() => expect(useDecisionHolds.getState().holds).toEqual([]));
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
    await previewOf('Oldest draft');
    press('Enter', 'Enter', screen.getByRole('button', { name: 'Archive' }));
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

  it('Approve all asks first, then holds every output with an Undo; only after the hold is the bulk decision sent', async () => {
    const start = fixClock('2026-03-11T16:00:00.000Z');
    renderAppAt('/outputs');
    await screen.findByRole('list', { name: 'Outputs' });
    const approveAll = () => {
      fireEvent.click(screen.getByRole('button', { name: 'Approve all' }));
      const question = screen.getByRole('group', { name: 'Approve all 3 ready outputs?' });
      fireEvent.click(within(question).getByRole('button', { name: 'Approve all' }));
    };
    approveAll();
    expect(notice()).toBe('Approved 3 outputs · Undo (u)');
    expect(screen.getByText('Nothing waits for review.')).toBeTruthy();
    press('u', 'KeyU');
    expect(notice()).toBe('Undone: approved 3 outputs.');
    expect(await screen.findByRole('list', { name: 'Outputs' })).toBeTruthy();
    approveAll();
    expect(posts()).toEqual([]);
    setClock(() => start + HOLD_MS);
    await commitDueHolds();
    expect(posts().map((c) => [c.path, c.body])).toEqual([['/api/v1/artifacts/bulk', { action: 'approve_all' }]]);
    await waitFor(() => expect(notice()).toBe('Approved 3 outputs.'));
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
    expect(router.state.location.search).toEqual({ attention: 'overdue', reviewer: 'usr_ann', sort: 'recent', selected: 'art_1' });
  });

  it('opens filtered from a link (the desktop notification opens /outputs?attention=overdue); unknown values are ignored', async () => {
    renderAppAt('/outputs?attention=overdue&reviewer=nobody&sort=sideways');
    await screen.findByRole('list', { name: 'Outputs' });
    expect((screen.getByRole('radio', { name: 'Overdue' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('radio', { name: 'Oldest first' }) as HTMLInputElement).checked).toBe(true);
    const first = desk.calls.find((c) => c.path === '/api/v1/artifacts')!;
    expect([first.query.get('attention'), first.query.get('reviewer'), first.query.get('sort')]).toEqual(['overdue', null, null]);
  });

  it('shows the selected output beside the queue: j and k move the preview too', async () => {
    renderAppAt('/outputs');
    const first = await previewOf('Oldest draft');
    expect(within(first).getByRole('article', { name: 'Content' }).textContent).toContain('What happened.');
    expect(within(first).getByText('v1 · drafted by the engine')).toBeTruthy();
    press('j', 'KeyJ');
    expect(await previewOf('Middle draft')).toBeTruthy();
  });

  it('i edits the draft in place: Preview renders it, Save makes a new version written by the member, which is then selected', async () => {
    renderAppAt('/outputs');
    await previewOf('Oldest draft');
    press('i', 'KeyI');
    const box = await screen.findByRole('textbox', { name: 'Draft, in Markdown' });
    await waitFor(() => expect(document.activeElement).toBe(box));
    // The deciding keys are off while the box is open.
    press('a', 'KeyA', screen.getByRole('tab', { name: 'Write' }));
    fireEvent.change(box, { target: { value: '# Oldest draft\n\nWhat happened, **in my words**.' } });
    fireEvent.click(screen.getByRole('tab', { name: 'Preview' }));
    expect(within(screen.getByRole('tabpanel', { name: 'Preview' })).getByText('in my words').tagName).toBe('STRONG');
    fireEvent.click(screen.getByRole('button', { name: 'Save as a new version' }));
    await waitFor(() => expect(posts().map((c) => [c.path, c.body])).toEqual([['/api/v1/artifacts/art_1/versions', { content: '# Oldest draft\n\nWhat happened, **in my words**.' }]]));
    const preview = await previewOf('Oldest draft');
    await waitFor(() => expect(within(preview).getByText('v2 · written by Olive Owner')).toBeTruthy());
    expect(notice()).toBe('Saved v2 of “Oldest draft”, written by you. It waits for your decision.');
    expect(selectedTitle()).toBe('Oldest draft');
    // The changes since v1, word by word, and the chain says who wrote each version.
    const changes = await within(preview).findByLabelText('Changes, inline');
    expect(changes.querySelector('ins')?.textContent).toContain('in my words');
    const chain = within(preview).getByRole('list', { name: 'Versions' });
    expect(chain.textContent).toContain('written by Olive Owner');
    expect(chain.textContent).toContain('drafted by the engine');
  });

  it('Esc leaves an unchanged box at once; with changes it asks, and Keep editing keeps them', async () => {
    renderAppAt('/outputs');
    await previewOf('Oldest draft');
    press('i', 'KeyI');
    let box = await screen.findByRole('textbox', { name: 'Draft, in Markdown' });
    fireEvent.keyDown(box, { key: 'Escape', code: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Draft, in Markdown' })).toBeNull());
    press('i', 'KeyI');
    box = await screen.findByRole('textbox', { name: 'Draft, in Markdown' });
    fireEvent.change(box, { target: { value: 'Changed.' } });
    fireEvent.keyDown(box, { key: 'Escape', code: 'Escape' });
    const ask = screen.getByRole('group', { name: 'Discard your edits?' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    expect((screen.getByRole('textbox', { name: 'Draft, in Markdown' }) as HTMLTextAreaElement).value).toBe('Changed.');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(screen.getByRole('group', { name: 'Discard your edits?' })).getByRole('button', { name: 'Discard edits' }));
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Draft, in Markdown' })).toBeNull());
    expect(posts()).toEqual([]);
  });

  it('r reopens a decided output from the Approved tab: a new ready version, the decided one as it was', async () => {
    const start = fixClock('2026-03-11T16:00:00.000Z');
    const router = renderAppAt('/outputs');
    await screen.findByRole('list', { name: 'Outputs' });
    press('a', 'KeyA');
    setClock(() => start + HOLD_MS);
    await commitDueHolds();
    await router.navigate({ to: '/outputs', search: { status: 'approved' } });
    const preview = await previewOf('Oldest draft');
    expect(within(preview).getByRole('button', { name: 'Reopen' })).toBeTruthy();
    press('r', 'KeyR');
    await waitFor(() => expect(posts().map((c) => c.path)).toEqual(['/api/v1/artifacts/art_1/approve', '/api/v1/artifacts/art_1/reopen']));
    await waitFor(() => expect(notice()).toBe('Reopened “Oldest draft”: v2 waits for review.'));
  });

  it('opens at the selection in the URL (going back from an output\'s page returns to it)', async () => {
    renderAppAt('/outputs?selected=art_2');
    await screen.findByRole('list', { name: 'Outputs' });
    expect(selectedTitle()).toBe('Middle draft');
    await previewOf('Middle draft');
  });
});
