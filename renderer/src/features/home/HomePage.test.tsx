import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useAuth } from '../../lib/auth';
import { fixClock } from '../../testing/clock';
import { fakeFetch, json, noFake, type FakeCall } from '../../testing/fake-api';
import { renderAppAt } from '../../testing/render';
import { aProfile, someStats } from '../runs/testing';
import { fakePrefs } from '../preferences/testing';
import { aSummary, aToday, anEmptyInbox, anEmptySummary, anInbox, aWhatsNew, someInsights, someReactions } from './testing';
import { HOME_VISIT_STORAGE_KEY, useHomeVisit } from './visit-store';

const NOW = '2026-03-10T12:00:00.000Z';
const members = {
  members: [
    { id: 'usr_owner', name: 'Owner', email: null, role: 'owner', availability: 'available', initials: 'O', hue: 10, createdAt: NOW },
    { id: 'usr_alice', name: 'Alice', email: null, role: 'editor', availability: 'available', initials: 'A', hue: 200, createdAt: NOW },
  ],
  invites: [],
};

/** A fake desk answering the shell's reads and Home's; `over` answers first (per test). */
function fakeDesk(over: (call: FakeCall) => Response | undefined = () => undefined, prefs = fakePrefs()) {
  let acked = false;
  return fakeFetch((call) => {
    const answered = over(call) ?? prefs.handle(call);
    if (answered) return answered;
    const { method, path, query } = call;
    if (method === 'GET' && path === '/api/v1/workspace') return json(200, aProfile());
    if (method === 'GET' && path === '/api/v1/stats') return json(200, someStats());
    if (method === 'GET' && path === '/api/v1/workspace/summary') return json(200, aSummary());
    if (method === 'GET' && path === '/api/v1/workspace/today') return json(200, aToday());
    if (method === 'GET' && path === '/api/v1/workspace/whats-new') return json(200, aWhatsNew(query.get('since') ? { since: query.get('since')! } : {}));
    if (method === 'GET' && path === '/api/v1/workspace/members') return json(200, members);
    if (method === 'GET' && path === '/api/v1/workspace/personal-inbox') {
      if (query.get('userId') === 'usr_alice') return json(200, anEmptyInbox('usr_alice', 'Alice'));
      return json(200, acked ? anInbox({ mentions: { total: 0, items: [] } }) : anInbox());
    }
    if (method === 'POST' && path === '/api/v1/mentions/mnt_1/ack') {
      acked = true;
      return json(200, { id: 'mnt_1' });
    }
    if (method === 'GET' && path === '/api/v1/insights') return json(200, someInsights());
    if (method === 'GET' && path === '/api/v1/workspace/reactions-summary') return json(200, someReactions());
    return noFake(call);
  });
}

beforeEach(() => {
  fixClock(NOW);
  useAuth.setState({ token: 't', status: 'signed-in', baseUrl: 'http://127.0.0.1:4000' });
  window.localStorage.clear();
  delete document.documentElement.dataset.density;
  useHomeVisit.setState({ lastVisitAt: null });
});
afterEach(() => window.sessionStorage.clear());

describe('HomePage', () => {
  it("shows today's figures with yesterday's delta, the 7-day baseline and spend against the cap", async () => {
    fakeDesk();
    renderAppAt('/today');
    expect(await screen.findByRole('heading', { level: 1, name: 'Today' })).toBeTruthy();
    const signals = await screen.findByRole('link', { name: /^Signals 12 / });
    expect(signals.getAttribute('href')).toBe('/signals');
    expect(signals.textContent).toContain('+3 vs yesterday');
    expect(signals.textContent).toContain('7-day avg 10.4');
    const waiting = screen.getByRole('link', { name: /^Outputs waiting 2 / });
    expect(waiting.textContent).toContain('3 made today');
    expect(waiting.textContent).toContain('made: −2 vs yesterday');
    expect(screen.getByRole('link', { name: /^Cycles 4 / }).textContent).toContain('same as yesterday');
    const spend = screen.getByRole('link', { name: /^Spend \$0\.12 / });
    expect(spend.textContent).toContain('of $0.50 cap (24%)');
    expect(spend.textContent).toContain('+$0.07 vs yesterday');
    expect(spend.textContent).toContain('7-day avg $0.03');
    expect(screen.getByRole('meter', { name: 'Share of the daily cap spent today' }).getAttribute('aria-valuenow')).toBe('24');
    expect(screen.queryByRole('heading', { name: 'Get started' })).toBeNull();
  });

  it("says the built-in engine's spend is an estimate at the configured model", async () => {
    fakeDesk((call) =>
      call.path === '/api/v1/workspace/engine'
        ? json(200, { engine: 'local', model: 'gpt-4o', baseUrl: null, apiKeySet: false, apiKeyHint: null, apiKeyFromEnvironment: false, price: { model: 'gpt-4o', inputPerMillionUsd: 2.5, outputPerMillionUsd: 10, source: 'price_table' }, structuredOutput: null })
        : undefined,
    );
    renderAppAt('/today');
    const note = await screen.findByTestId('cost-estimate-note');
    expect(note.textContent).toContain("Estimated: what gpt-4o would charge for the built-in engine's work.");
    expect(note.closest('section')?.getAttribute('aria-labelledby')).toBe('home-today-title');
  });

  it("what's new covers 24 hours on the first visit, then starts from the previous visit", async () => {
    const calls = fakeDesk().calls;
    renderAppAt('/today');
    expect(await screen.findByRole('heading', { name: "What's new in the last 24 hours" })).toBeTruthy();
    const whatsNew = calls.filter((c) => c.path === '/api/v1/workspace/whats-new');
    expect(whatsNew[0].query.get('since')).toBeNull();
    const list = await screen.findByRole('list', { name: 'New signals' });
    const first = within(list).getByRole('link', { name: 'Competitor cut prices' });
    expect(first.getAttribute('href')).toBe('/signals');
    expect(within(list).getByText('and 3 more')).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Outputs waiting for you' })).getByRole('link', { name: 'Pricing brief' }).getAttribute('href')).toBe('/outputs/art_1');
    expect(within(screen.getByRole('list', { name: 'Activity' })).getByRole('link', { name: 'Created task "Reply to review"' }).getAttribute('href')).toBe('/tasks/tsk_9');
    // The visit is recorded for next time, in localStorage.
    expect(useHomeVisit.getState().lastVisitAt).toBe(NOW);
    expect(window.localStorage.getItem(HOME_VISIT_STORAGE_KEY)).toContain(NOW);
  });

  it("a stored last visit is the since of what's new", async () => {
    useHomeVisit.setState({ lastVisitAt: '2026-03-08T09:00:00.000Z' });
    const calls = fakeDesk().calls;
    renderAppAt('/today');
    expect(await screen.findByRole('heading', { name: "What's new since your last visit" })).toBeTruthy();
    await waitFor(() => expect(calls.find((c) => c.path === '/api/v1/workspace/whats-new')?.query.get('since')).toBe('2026-03-08T09:00:00.000Z'));
  });

  it("keeps the visit's since across a reload: what's new does not start again from a moment ago", async () => {
    useHomeVisit.setState({ lastVisitAt: '2026-03-08T09:00:00.000Z' });
    const calls = fakeDesk().calls;
    renderAppAt('/today');
    expect(await screen.findByRole('heading', { name: "What's new since your last visit" })).toBeTruthy();
    await waitFor(() => expect(useHomeVisit.getState().lastVisitAt).toBe(NOW));
    cleanup();

    // The reload: a new page in the same tab reads the store again from localStorage (this visit's time now)...
    await useHomeVisit.persist.rehydrate();
    expect(useHomeVisit.getState().lastVisitAt).toBe(NOW);
    fixClock('2026-03-10T12:00:05.000Z');
    renderAppAt('/today');
    expect(await screen.findByRole('heading', { name: "What's new since your last visit" })).toBeTruthy();
    // ...and still asks from the visit before it.
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/v1/workspace/whats-new').map((c) => c.query.get('since'))).toEqual(['2026-03-08T09:00:00.000Z', '2026-03-08T09:00:00.000Z']));
  });

  it('a new session starts from the last visit recorded', async () => {
    useHomeVisit.setState({ lastVisitAt: '2026-03-09T09:00:00.000Z' });
    window.sessionStorage.clear();
    const calls = fakeDesk().calls;
    renderAppAt('/today');
    await waitFor(() => expect(calls.find((c) => c.path === '/api/v1/workspace/whats-new')?.query.get('since')).toBe('2026-03-09T09:00:00.000Z'));
  });

  it('the inbox lists mentions to acknowledge, due and stale tasks, and switches member', async () => {
    const { calls } = fakeDesk();
    renderAppAt('/today');
    const mentions = await screen.findByRole('list', { name: 'Mentions' });
    expect(within(mentions).getByRole('link', { name: 'Launch plan' }).getAttribute('href')).toBe('/tasks/tsk_1');
    expect(within(mentions).getByText('@Owner can you check the numbers?')).toBeTruthy();
    const due = screen.getByRole('list', { name: 'Due soon' });
    expect(within(due).getByRole('link', { name: 'Send the invoice' }).getAttribute('href')).toBe('/tasks/tsk_3');
    expect(within(due).getByText('overdue')).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Stale assigned tasks' })).getByText('9 days without an update')).toBeTruthy();

    fireEvent.click(within(mentions).getByRole('button', { name: "Acknowledge Alice's mention on Launch plan" }));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Mentions' })).toBeNull());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ asUserId: 'usr_owner' });

    fireEvent.change(await screen.findByRole('combobox', { name: 'Inbox of' }), { target: { value: 'usr_alice' } });
    expect(await screen.findByText('Nothing waits on Alice: no unread mentions, no stale or due tasks.')).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/v1/workspace/personal-inbox' && c.query.get('userId') === 'usr_alice')).toBe(true);
  });

  it('top tags as a bar list and reactions with links to the things', async () => {
    fakeDesk();
    renderAppAt('/today');
    const tags = await screen.findByRole('list', { name: 'Top tags' });
    const rows = within(tags).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual(['pricing6', 'reviews3']);
    expect(rows[0].getAttribute('title')).toBe('3 tasks, 2 outputs, 1 memory entry');
    const emojis = await screen.findByLabelText('Reactions per emoji');
    expect(emojis.textContent).toBe('👍 4❤️ 2');
    const top = screen.getByRole('list', { name: 'Most reacted' });
    expect(within(top).getByRole('link', { name: 'Weekly report' }).getAttribute('href')).toBe('/outputs/art_0');
    expect(within(top).getByRole('link', { name: 'Great catch' }).getAttribute('href')).toBe('/tasks/tsk_1');
  });

  it('a new desk says what to do first, and every panel has an empty state', async () => {
    fakeDesk((call) => {
      if (call.path === '/api/v1/workspace/summary') return json(200, anEmptySummary());
      if (call.path === '/api/v1/workspace/whats-new') return json(200, aWhatsNew({ counts: { signals: 0, artifacts: 0, outputs: 0, approvals: 0, activity: 0 }, samples: { signals: [], artifacts: [], outputs: [], approvals: [], activity: [] } }));
      if (call.path === '/api/v1/workspace/personal-inbox') return json(200, anEmptyInbox());
      if (call.path === '/api/v1/insights') return json(200, someInsights({ tags: [], distinctTags: 0 }));
      if (call.path === '/api/v1/workspace/reactions-summary') return json(200, someReactions({ totals: { total: 0, comments: 0, artifacts: 0, memory: 0, signals: 0 }, top: [] }));
      return undefined;
    });
    renderAppAt('/today');
    const start = await screen.findByRole('heading', { name: 'Get started' });
    const card = start.closest('section')!;
    expect(within(card).getByRole('link', { name: 'Add a source' }).getAttribute('href')).toBe('/sources');
    expect(card.textContent).toContain('Run now');
    expect(await screen.findByText('Nothing new since then. New signals, outputs and decisions show up here.')).toBeTruthy();
    expect(screen.getByText('Nothing waits on Owner: no unread mentions, no stale or due tasks.')).toBeTruthy();
    expect(await screen.findByText(/No tags used in the last 14 days/)).toBeTruthy();
    expect(await screen.findByText(/No reactions yet/)).toBeTruthy();
  });

  it('lays the panels out in the stored order with the stored ones collapsed; moving and collapsing are saved', async () => {
    const prefs = fakePrefs({ panelOrder: ['inbox', 'today'], collapsedPanels: ['reactions'] });
    fakeDesk(undefined, prefs);
    renderAppAt('/today');
    await screen.findByRole('list', { name: 'Mentions' });
    const order = () => [...document.querySelectorAll('.home-grid > [data-panel]')].map((e) => e.getAttribute('data-panel'));
    // Stored first, the rest in their default order.
    expect(order()).toEqual(['inbox', 'today', 'whats-new', 'insights', 'reactions']);
    // Collapsed: its title only, its content not rendered.
    expect(screen.getByRole('region', { name: 'Reactions (collapsed)' })).toBeTruthy();
    expect(screen.queryByLabelText('Reactions per emoji')).toBeNull();
    expect(screen.getByRole('button', { name: 'Move Inbox up' }).hasAttribute('disabled')).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Move Inbox down' }));
    await waitFor(() => expect(order()).toEqual(['today', 'inbox', 'whats-new', 'insights', 'reactions']));
    await waitFor(() => expect(prefs.current().panelOrder).toEqual(['today', 'inbox', 'whats-new', 'insights', 'reactions']));
    expect(prefs.puts.at(-1)).toEqual({ panelOrder: ['today', 'inbox', 'whats-new', 'insights', 'reactions'] });

    // Moved to the top with the keyboard: the focus stays on the panel's controls.
    const up = screen.getByRole('button', { name: 'Move Inbox up' });
    up.focus();
    fireEvent.click(up);
    await waitFor(() => expect(order()[0]).toBe('inbox'));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Inbox down' })));
    fireEvent.click(screen.getByRole('button', { name: 'Move Inbox down' }));
    await waitFor(() => expect(prefs.current().panelOrder[1]).toBe('inbox'));

    const expand = screen.getByRole('button', { name: 'Expand Reactions' });
    expect(expand.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(expand);
    expect(await screen.findByLabelText('Reactions per emoji')).toBeTruthy();
    await waitFor(() => expect(prefs.current().collapsedPanels).toEqual([]));

    fireEvent.click(screen.getByRole('button', { name: "Collapse What's new" }));
    expect(await screen.findByRole('region', { name: "What's new (collapsed)" })).toBeTruthy();
    await waitFor(() => expect(prefs.current().collapsedPanels).toEqual(['whats-new']));
    expect(prefs.puts.at(-1)).toEqual({ collapsedPanels: ['whats-new'] });
  });

  it('applies the stored density to the whole app', async () => {
    fakeDesk(undefined, fakePrefs({ density: 'compact' }));
    renderAppAt('/today');
    await waitFor(() => expect(document.documentElement.dataset.density).toBe('compact'));
  });
});
