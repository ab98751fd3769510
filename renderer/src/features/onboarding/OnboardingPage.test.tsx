import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAuth } from '../../lib/auth';
import { fixClock } from '../../testing/clock';
import { fakeFetch, json, noFake, type FakeCall } from '../../testing/fake-api';
import { renderAppAt } from '../../testing/render';
import { aSummary, aToday, anEmptySummary, aWhatsNew, someInsights, someReactions, anInbox } from '../home/testing';
import { aProfile, someStats } from '../runs/testing';
import { useAppliedTemplate } from './applied-store';
import { aCatalog, aDetail, aSearch, TEMPLATES } from './testing';

const NOW = '2026-03-10T12:00:00.000Z';

/** A fake desk answering the shell's reads, Home's and the catalog's; `summary` is what Home sees. */
function fakeDesk(summary = anEmptySummary()) {
  return fakeFetch((call: FakeCall) => {
    const { method, path, query } = call;
    if (method === 'GET' && path === '/api/v1/workspace') return json(200, aProfile());
    if (method === 'GET' && path === '/api/v1/stats') return json(200, someStats());
    if (method === 'GET' && path === '/api/v1/workspace/summary') return json(200, summary);
    if (method === 'GET' && path === '/api/v1/workspace/today') return json(200, aToday());
    if (method === 'GET' && path === '/api/v1/workspace/whats-new') return json(200, aWhatsNew());
    if (method === 'GET' && path === '/api/v1/workspace/members') return json(200, { members: [], invites: [] });
    if (method === 'GET' && path === '/api/v1/workspace/personal-inbox') return json(200, anInbox());
    if (method === 'GET' && path === '/api/v1/insights') return json(200, someInsights());
    if (method === 'GET' && path === '/api/v1/workspace/reactions-summary') return json(200, someReactions());
    if (method === 'GET' && path === '/api/v1/onboarding-templates') return json(200, aCatalog());
    if (method === 'GET' && path === '/api/v1/onboarding-templates/search') return json(200, aSearch(query.get('q') ?? ''));
    if (method === 'GET' && path.startsWith('/api/v1/onboarding-templates/')) {
      const key = decodeURIComponent(path.slice('/api/v1/onboarding-templates/'.length));
      const detail = aDetail(key);
      return detail ? json(200, detail) : json(404, { error: 'template_not_found', message: 'No template', key });
    }
    if (method === 'POST' && path === '/api/v1/workspace/onboarding-template/apply') {
      const body = call.body as { key: string; memoryIndexes: number[]; signalIndexes: number[] };
      const t = TEMPLATES.find((x) => x.key === body.key)!;
      return json(200, {
        key: t.key,
        name: t.name,
        added: {
          memories: body.memoryIndexes.map((i) => ({ id: `mem_${i}`, title: t.memories[i].title })),
          signals: body.signalIndexes.map((i) => ({ id: `sig_${i}`, title: t.signals[i].title })),
        },
        skipped: { memories: [], signals: [] },
      });
    }
    if (method === 'GET' && path === '/api/v1/memory') return json(200, { memory: [], nextCursor: null });
    return noFake(call);
  });
}

beforeEach(() => {
  fixClock(NOW);
  useAuth.setState({ token: 't', status: 'signed-in', baseUrl: 'http://127.0.0.1:4000' });
  useAppliedTemplate.setState({ last: null });
});

describe('Home: the way into the onboarding flow', () => {
  it('offers "Start from a template" on an empty desk', async () => {
    fakeDesk();
    renderAppAt('/today');
    const card = await screen.findByRole('region', { name: 'Start from a template' });
    expect(within(card).getByRole('link', { name: 'Browse templates' }).getAttribute('href')).toBe('/onboarding');
  });

  it('does not offer it once the desk has memory or sources', async () => {
    fakeDesk(aSummary());
    renderAppAt('/today');
    await screen.findByRole('heading', { level: 1, name: 'Today' });
    await waitFor(() => expect(screen.getAllByText(/\$0\.12|Signals/).length).toBeGreaterThan(0));
    expect(screen.queryByRole('region', { name: 'Start from a template' })).toBeNull();
  });
});

describe('OnboardingPage', () => {
  it('browses by category and searches the catalog', async () => {
    const api = fakeDesk();
    renderAppAt('/onboarding');
    const list = await screen.findByRole('list', { name: 'Templates' });
    expect(within(list).getAllByRole('button')).toHaveLength(3);
    fireEvent.click(screen.getByRole('button', { name: 'Hospitality & Food (1)' }));
    expect(within(list).getAllByRole('button').map((b) => b.textContent)).toEqual(['Specialty coffee shop']);
    fireEvent.click(screen.getByRole('button', { name: 'All (3)' }));

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search templates' }), { target: { value: 'Reorder below' } });
    await waitFor(() => expect(api.calls.some((c) => c.path === '/api/v1/onboarding-templates/search' && c.query.get('q') === 'Reorder below')).toBe(true));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Templates' })).getAllByRole('button')).toHaveLength(3));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search templates' }), { target: { value: 'bookshop' } });
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Templates' })).getAllByRole('button').map((b) => b.textContent)).toEqual(['Independent bookshop']));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search templates' }), { target: { value: 'nothing like this' } });
    expect(await screen.findByText('No template matches. Try another word or category.')).toBeTruthy();
  });

  it('previews a template, applies only what stays ticked and lands on Memory saying what was added', async () => {
    const api = fakeDesk();
    const router = renderAppAt('/onboarding');
    fireEvent.click(await screen.findByRole('button', { name: 'Online fashion boutique' }));
    expect(await screen.findByRole('heading', { name: 'Online fashion boutique' })).toBeTruthy();
    expect(router.state.location.search).toEqual({ template: 'online-fashion-boutique' });
    const t = TEMPLATES[0];
    const memoryBoxes = within(screen.getByRole('region', { name: /^Memories/ })).getAllByRole('checkbox');
    const signalBoxes = within(screen.getByRole('region', { name: /^Sample signals/ })).getAllByRole('checkbox');
    expect(memoryBoxes).toHaveLength(3);
    expect(signalBoxes).toHaveLength(2);
    expect(screen.getByText(t.memories[1].content)).toBeTruthy();
    fireEvent.click(memoryBoxes[1]);
    fireEvent.click(signalBoxes[0]);
    expect(screen.getByRole('heading', { name: 'Memories (2 of 3 chosen)' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Add 2 memories and 1 signal' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/memory'));
    const post = api.calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({ key: 'online-fashion-boutique', memoryIndexes: [0, 2], signalIndexes: [1] });
    const notice = await screen.findByRole('status');
    expect(notice.textContent).toContain('Online fashion boutique applied: added 2 memories and 1 signal');
    const added = within(notice).getByRole('list', { name: 'Memories added' });
    expect(within(added).getAllByRole('link').map((a) => a.textContent)).toEqual([t.memories[0].title, t.memories[2].title]);
    expect(within(notice).getByRole('link', { name: 'See the signals' }).getAttribute('href')).toBe('/signals');
  });

  it('disables applying when nothing is ticked', async () => {
    fakeDesk();
    renderAppAt('/onboarding?template=independent-bookshop');
    await screen.findByRole('heading', { name: 'Independent bookshop' });
    for (const box of screen.getAllByRole('checkbox')) fireEvent.click(box);
    expect((screen.getByRole('button', { name: 'Add 0 memories and 0 signals' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('reports an unknown template key', async () => {
    fakeDesk();
    renderAppAt('/onboarding?template=no-such-template');
    expect(await screen.findByText('No template')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '← All templates' }));
    expect(await screen.findByRole('list', { name: 'Templates' })).toBeTruthy();
  });
});

describe('Settings', () => {
  it('has a way into the flow', async () => {
    fakeDesk(aSummary());
    renderAppAt('/settings/onboarding');
    const section = await screen.findByRole('region', { name: 'Start from a template' });
    expect(within(section).getByRole('link', { name: 'Browse templates' }).getAttribute('href')).toBe('/onboarding');
  });
});
