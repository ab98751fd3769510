import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useAuth } from '../../lib/auth';
import { fixClock } from '../../testing/clock';
import { fakeFetch, json, noFake } from '../../testing/fake-api';
import { renderAppAt } from '../../testing/render';
import { aQueuePage, anOutput } from './testing';

const v1 = anOutput('art_1', 'Pricing reply', { status: 'archived', approvalAgeHours: null, approvalAttention: null, decidedAt: '2026-03-10T11:00:00.000Z' });
const v2 = anOutput('art_2', 'Pricing reply, revised', {
  version: 2,
  parentArtifactId: 'art_1',
  approvalAgeHours: 30,
  approvalAttention: 'watch',
  tags: ['pricing'],
  content: '# Pricing reply\n\n## What happened\n\nA customer asked about **annual** plans.\n\n- offer a discount\n- see [the thread](https://example.com/t)\n\n<script>alert(1)</script>',
});
const v3 = anOutput('art_3', 'Pricing reply', { version: 3, parentArtifactId: 'art_1', authorKind: 'member', authorUserId: 'usr_owner', authorName: 'Olive Owner' });
const version = (a: typeof v1, current: boolean) => ({ id: a.id, version: a.version, kind: a.kind, title: a.title, status: a.status, parentArtifactId: a.parentArtifactId, runId: a.runId, readyAt: a.readyAt, decidedAt: a.decidedAt, createdAt: a.createdAt, authorKind: a.authorKind, authorUserId: a.authorUserId, authorName: a.authorName, supersededAt: a.supersededAt, supersededById: a.supersededById, current });

function fakeDesk() {
  let reactions = v2.reactions;
  return fakeFetch((call) => {
    const { method, path } = call;
    if (method === 'GET' && path === '/api/v1/artifacts/art_2') return json(200, { ...v2, reactions });
    if (method === 'GET' && path === '/api/v1/artifacts/art_1') return json(200, v1);
    if (method === 'GET' && path === '/api/v1/runs/run_1') return json(200, { id: 'run_1', trigger: 'schedule', status: 'completed', engine: 'local', model: 'gpt-4o-mini' });
    if (method === 'GET' && /^\/api\/v1\/artifacts\/art_[12]\/sources$/.test(path))
      return json(200, {
        artifactId: 'art_2',
        signals: [{ id: 'sig_1', kind: 'review', priority: 'high', title: 'Asked about annual plans', sourceUrl: 'https://example.com/t', sourceId: 'src_1', sourceLabel: 'Reviews feed', createdAt: '2026-03-10T09:00:00.000Z' }],
        memory: [{ id: 'mem_1', kind: 'preference', title: 'Offer annual discounts', content: 'Up to 15% for annual plans.', pinned: false, archivedAt: null, createdAt: '2026-03-01T09:00:00.000Z' }],
        missingSignalIds: ['sig_gone'],
        missingMemoryIds: [],
      });
    if (method === 'GET' && path === '/api/v1/artifacts/art_2/versions') return json(200, { artifactId: 'art_2', versions: [version(v2, true), version(v1, false)], truncated: false });
    if (method === 'GET' && path === '/api/v1/artifacts/art_3/versions') return json(200, { artifactId: 'art_3', versions: [version(v3, true), version(v1, false)], truncated: false });
    if (method === 'GET' && path === '/api/v1/artifacts/art_3/sources') return json(200, { artifactId: 'art_3', signals: [], memory: [], missingSignalIds: [], missingMemoryIds: [] });
    if (method === 'GET' && path === '/api/v1/artifacts/art_1/versions') return json(200, { artifactId: 'art_1', versions: [version(v2, false), version(v1, true)], truncated: false });
    if (method === 'POST' && path === '/api/v1/artifacts/art_2/reaction') {
      reactions = [{ emoji: '👍', count: 1, userIds: ['usr_owner'], reacted: true }];
      return json(200, { artifactId: 'art_2', emoji: '👍', reacted: true, reactions });
    }
    if (method === 'POST' && path === '/api/v1/artifacts/art_1/reopen') return json(201, v3);
    if (method === 'GET' && path === '/api/v1/artifacts/art_3') return json(200, v3);
    if (method === 'GET' && path === '/api/v1/artifacts')
      return json(200, aQueuePage([v2, v1].map(({ content: _content, ...row }) => ({ ...row, reviewOwnerCapacity: null }))));
    return noFake(call);
  });
}

let desk: ReturnType<typeof fakeDesk>;

beforeEach(() => {
  fixClock('2026-03-11T16:00:00.000Z');
  useAuth.setState({ token: 't', status: 'signed-in', baseUrl: 'http://127.0.0.1:4000' });
  desk = fakeDesk();
});
afterEach(() => window.sessionStorage.clear());

describe('OutputPage', () => {
  it('shows the content as markdown (no HTML injected), status, waiting time, task link, sources and versions', async () => {
    renderAppAt('/outputs/art_2');
    expect(await screen.findByRole('heading', { level: 1, name: 'Pricing reply, revised' })).toBeTruthy();
    const content = screen.getByRole('article', { name: 'Content' });
    expect(within(content).getByRole('heading', { level: 3, name: 'What happened' })).toBeTruthy();
    expect(within(content).getByText('annual').tagName).toBe('STRONG');
    expect(within(content).getByRole('link', { name: 'the thread' }).getAttribute('href')).toBe('https://example.com/t');
    expect(content.querySelector('script')).toBeNull();
    expect(within(content).getByText('<script>alert(1)</script>')).toBeTruthy();

    expect(screen.getByText('ready for review')).toBeTruthy();
    expect(screen.getByText('watch · waiting 30 h')).toBeTruthy();
    // The built-in engine drafted it: said plainly, with what a model would add.
    const note = await screen.findByTestId('built-in-engine-note');
    expect(note.textContent).toMatch(/^Drafted by the built-in engine, offline and without a model: .* A model \(Settings → AI engine\) writes it in full sentences in your voice/);
    expect(within(note).getByRole('link', { name: 'Settings → AI engine' }).getAttribute('href')).toBe('/settings/engine');
    expect(screen.getByText('v2')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open task' }).getAttribute('href')).toBe('/tasks/tsk_1');

    const signals = await screen.findByRole('list', { name: 'Source signals' });
    expect(within(signals).getByRole('link', { name: 'Asked about annual plans' }).getAttribute('href')).toBe('https://example.com/t');
    expect(within(signals).getByRole('link', { name: 'Reviews feed' }).getAttribute('href')).toBe('/sources/src_1');
    expect(screen.getByText('1 signal deleted since.')).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Source memory' })).getByText('Offer annual discounts')).toBeTruthy();

    const versions = await screen.findByRole('list', { name: 'Versions' });
    expect(within(versions).getByText('v2 · this version')).toBeTruthy();
  });

  it('moves to an earlier version by clicking it in the chain', async () => {
    const router = renderAppAt('/outputs/art_2');
    const versions = await screen.findByRole('list', { name: 'Versions' });
    fireEvent.click(within(versions).getByRole('link', { name: 'v1 · Pricing reply' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Pricing reply' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/outputs/art_1');
    expect(await within(await screen.findByRole('list', { name: 'Versions' })).findByText('v1 · this version')).toBeTruthy();
    expect(screen.queryByText(/waiting/)).toBeNull();
  });

  it('toggles a reaction', async () => {
    renderAppAt('/outputs/art_2');
    fireEvent.click(await screen.findByRole('button', { name: 'thumbs up 👍' }));
    expect(await screen.findByRole('button', { name: 'thumbs up 👍, 1' })).toBeTruthy();
    await waitFor(() => expect(desk.calls.find((c) => c.method === 'POST')?.body).toEqual({ emoji: '👍' }));
  });
});

describe('OutputPage actions and keys', () => {
  const press = (key: string, code: string, shiftKey = false) => {
    fireEvent.keyDown(document.body, { key, code, shiftKey });
    fireEvent.keyUp(document.body, { key, code, shiftKey });
  };

  it('shows the changes since the previous version, word by word', async () => {
    renderAppAt('/outputs/art_2');
    const changes = await screen.findByRole('region', { name: 'Changes since the previous version' });
    const inline = await within(changes).findByLabelText('Changes, inline');
    expect([...inline.querySelectorAll('ins')].map((i) => i.textContent).join(' ')).toContain('annual');
    expect(within(changes).getByText(/^Against v1 \(drafted by the engine\): \d+ words added, \d+ removed\.$/)).toBeTruthy();
  });

  it('a holds the approval and goes back to the queue, where the Undo still shows; ? lists the keys', async () => {
    const router = renderAppAt('/outputs/art_2');
    await screen.findByRole('heading', { level: 1, name: 'Pricing reply, revised' });
    press('?', 'Slash', true);
    const help = screen.getByRole('region', { name: 'Keyboard shortcuts' });
    for (const what of ['approve this output', 'archive this output', 'edit this draft (Esc cancels, Ctrl+Enter saves)', 'reopen this approved or archived output', 'undo the last decision while its notice shows'])
      expect(within(help).getByText(what)).toBeTruthy();
    press('a', 'KeyA');
    await waitFor(() => expect(router.state.location.pathname).toBe('/outputs'));
    expect(router.state.location.search).toMatchObject({ selected: expect.stringMatching(/^art_/) });
    await waitFor(() => expect(document.querySelector('.hold-notice-slot')?.textContent).toBe('Approved “Pricing reply, revised” · Undo (u)'));
    expect(desk.calls.filter((c) => c.method === 'POST')).toEqual([]);
    // The held output is out of the queue; the other one is selected.
    const list = await screen.findByRole('list', { name: 'Outputs' });
    expect(within(list).queryByRole('link', { name: 'Pricing reply, revised' })).toBeNull();
  });

  it('r reopens a decided output and opens the new version', async () => {
    const router = renderAppAt('/outputs/art_1');
    await screen.findByRole('heading', { level: 1, name: 'Pricing reply' });
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    press('r', 'KeyR');
    await waitFor(() => expect(router.state.location.pathname).toBe('/outputs/art_3'));
    expect(desk.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api/v1/artifacts/art_1/reopen']);
    expect(await screen.findByText('v3 · written by Olive Owner')).toBeTruthy();
    expect(document.querySelector('.hold-notice-slot')?.textContent).toBe('Reopened “Pricing reply”: v3 waits for review.');
  });
});

describe('OutputsPage', () => {
  it('lists outputs with their status and filters by status', async () => {
    renderAppAt('/outputs');
    const list = await screen.findByRole('list', { name: 'Outputs' });
    expect(within(list).getByRole('link', { name: 'Pricing reply, revised' }).getAttribute('href')).toBe('/outputs/art_2');
    expect(within(list).getAllByRole('link', { name: 'Answer the pricing thread' })).toHaveLength(2);
    fireEvent.click(screen.getByRole('radio', { name: 'Ready' }));
    await waitFor(() => expect(desk.calls.some((c) => c.path === '/api/v1/artifacts' && c.query.get('status') === 'ready')).toBe(true));
  });
});
