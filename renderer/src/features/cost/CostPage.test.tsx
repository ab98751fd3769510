import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Schema } from '../../api/client';
import { useAuth } from '../../lib/auth';
import { fixClock } from '../../testing/clock';
import { fakeFetch, json, noFake, type FakeCall } from '../../testing/fake-api';
import { renderAppAt } from '../../testing/render';
import { fakePrefs } from '../preferences/testing';
import { taskRow } from '../tasks/testing';

const days = ['2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10', '2026-03-11'];

function today(over: Partial<Schema<'CostToday'>> = {}): Schema<'CostToday'> {
  return {
    date: '2026-03-11',
    timezone: 'Europe/Paris',
    todayCents: 45,
    todayEstimatedCostUsd: 0.4512,
    yesterdayCents: 30,
    baselineCents: 20,
    sparkline: days.map((date, i) => ({ date, cents: i * 5 })),
    dailyCostCap: 50,
    capPercent: 90.24,
    capReached: false,
    byAssignee: [],
    ...over,
  };
}

const figures = { taskCount: 2, totalInputTokens: 1000, totalOutputTokens: 200, estimatedCostUsd: 0.3 };

const spike = (key: string, label: string, over: Partial<Schema<'CostSpikeRow'>> = {}): Schema<'CostSpikeRow'> => ({
  key,
  label,
  todayUsd: 1.2,
  todayCents: 120,
  baselineUsd: 0.3,
  baselineCents: 30,
  spikeRatio: 4,
  consecutiveSpikeDays: 1,
  ackedAt: null,
  ackExpiresAt: null,
  paused: false,
  ...over,
});

/** The guard lists by path (empty unless given); acks answered as the API does. */
type Guard = Record<string, unknown[]>;

function fakeDesk(todayAnswer: Schema<'CostToday'>, guard: Guard = {}, first: (call: FakeCall) => Response | undefined = () => undefined) {
  return fakeFetch((call) => {
    const answered = first(call);
    if (answered) return answered;
    const { path, method } = call;
    if (method === 'POST' && path.endsWith('/bulk')) return json(200, { acked: [], affected: 0, notFound: [], ackedAt: '2026-03-11T16:00:00.000Z', expiresAt: '2026-03-11T23:00:00.000Z' });
    if (method === 'POST' && /-ack$/.test(path)) return json(200, { key: 'k', ackedAt: '2026-03-11T16:00:00.000Z', expiresAt: '2026-03-11T23:00:00.000Z' });
    if (/cost-spikes$|\/spikes$/.test(path)) return json(200, { spikes: guard[path] ?? [], nextCursor: null });
    if (/chronic-spikes$|chronic-warnings$/.test(path)) return json(200, { chronic: guard[path] ?? [], nextCursor: null });
    if (path === '/api/v1/cost/today') return json(200, todayAnswer);
    if (path === '/api/v1/tasks/top-cost')
      return json(200, {
        includeDone: call.query.get('includeDone') === 'true',
        tasks: [{ ...taskRow('tsk_1', 'Answer the pricing thread', { cost: { totalInputTokens: 900, totalOutputTokens: 100, estimatedCostUsd: 0.25, sessionCount: 5, costPerSessionUsd: 0.05 } }), trajectory7d: [0, 1, 2, 3, 4, 5, 10] }],
      });
    if (path === '/api/v1/cost/by-assignee')
      return json(200, {
        includeDone: false,
        trajectoryDays: Number(call.query.get('trajectoryDays')),
        totalEstimatedCostUsd: 0.3,
        assignees: [{ ...figures, assigneeId: 'usr_ann', displayName: 'Ann', unassigned: false, removed: true, sessionCount: 6, trajectory7d: [1, 2] }],
      });
    if (path === '/api/v1/cost/by-tag') return json(200, { includeDone: false, trajectoryDays: 7, tags: [{ ...figures, tag: 'untagged', untagged: true, sessionCount: 3, trajectory7d: [0, 1] }] });
    if (path === '/api/v1/cost/by-source') return json(200, { includeDone: false, totalEstimatedCostUsd: 0, withoutSourceEstimatedCostUsd: 0.3, sources: [] });
    if (path === '/api/v1/memory/top-cost') return json(200, { memory: [] });
    return noFake(call);
  });
}

let desk: ReturnType<typeof fakeDesk>;
beforeEach(() => {
  fixClock('2026-03-11T16:00:00.000Z');
  useAuth.setState({ token: 't', status: 'signed-in', baseUrl: 'http://127.0.0.1:4000' });
});

describe('Cost page', () => {
  it('shows today against the cap with yesterday, the baseline and the change', async () => {
    desk = fakeDesk(today());
    renderAppAt('/cost');
    const card = await screen.findByRole('region', { name: 'Spend today' });
    expect(card.textContent).toContain('$0.45 of $0.50 cap');
    expect(card.textContent).toContain('Yesterday $0.30 · 7-day average $0.20 · +125% vs 7-day average');
    const meter = within(card).getByRole('meter', { name: 'Spend against the daily cap' });
    expect(meter.getAttribute('aria-valuenow')).toBe('90.24');
    expect(meter.className).toContain('cost-bar--warning');
    expect(within(card).queryByRole('alert')).toBeNull();
  });

  it("says the built-in engine's figures are what the configured model would charge; an OpenAI-compatible engine's are not estimates", async () => {
    const engine = (kind: 'local' | 'openai'): Schema<'EngineSettingsResult'> => ({
      engine: kind, model: kind === 'local' ? null : 'gpt-4o-mini', baseUrl: kind === 'local' ? null : 'https://api.openai.com/v1', apiKeySet: kind === 'openai', apiKeyHint: null, apiKeyFromEnvironment: false,
      price: { model: 'gpt-4o-mini', inputPerMillionUsd: 0.15, outputPerMillionUsd: 0.6, source: 'price_table' }, structuredOutput: null,
    });
    desk = fakeDesk(today(), {}, (call) => (call.path === '/api/v1/workspace/engine' ? json(200, engine('local')) : undefined));
    renderAppAt('/cost');
    const note = await screen.findByTestId('cost-estimate-note');
    expect(note.textContent).toBe("Estimated: what gpt-4o-mini would charge for the built-in engine's work. The built-in engine itself costs nothing. Change the model");
    expect(within(note).getByRole('link', { name: 'Change the model' }).getAttribute('href')).toBe('/settings/engine');
    expect(within(screen.getByRole('region', { name: 'Spend today' })).getByTestId('cost-estimate-note')).toBe(note);
    cleanup();

    desk = fakeDesk(today(), {}, (call) => (call.path === '/api/v1/workspace/engine' ? json(200, engine('openai')) : undefined));
    renderAppAt('/cost');
    await screen.findByRole('region', { name: 'Spend today' });
    await waitFor(() => expect(desk.calls.some((c) => c.path === '/api/v1/workspace/engine')).toBe(true));
    expect(screen.queryByTestId('cost-estimate-note')).toBeNull();
  });

  it('says plainly when the cap has stopped the loop, and links to the cap setting', async () => {
    desk = fakeDesk(today({ capReached: true, capPercent: 104, todayCents: 52, todayEstimatedCostUsd: 0.52 }));
    renderAppAt('/cost');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The daily cap stopped the loop: no cycle runs until tomorrow (Europe/Paris)');
    expect(within(alert).getByRole('link', { name: 'raise or remove the cap' }).getAttribute('href')).toBe('/settings/cost');
  });

  it('lists what drives spend, each with its cost and detail; empty kinds say so', async () => {
    desk = fakeDesk(today());
    renderAppAt('/cost');
    const tasks = await screen.findByRole('region', { name: 'Tasks' });
    await within(tasks).findByRole('link', { name: 'Answer the pricing thread' });
    expect(tasks.textContent).toContain('$0.25');
    expect(tasks.textContent).toContain('5 sessions · $0.05 each');
    const assignees = screen.getByRole('region', { name: 'Assignees' });
    await waitFor(() => expect(assignees.textContent).toContain('Ann (removed)'));
    expect(screen.getByRole('region', { name: 'Tags' }).textContent).toContain('untagged');
    await waitFor(() => expect(screen.getByRole('region', { name: 'Sources' }).textContent).toContain('No work from a source has cost anything yet.'));
    await waitFor(() => expect(screen.getByRole('region', { name: 'Memory' }).textContent).toContain('No memory entry has been used by a cycle yet.'));
  });

  it('asks for the chosen window and for done tasks when told to', async () => {
    desk = fakeDesk(today());
    renderAppAt('/cost');
    await screen.findByRole('region', { name: 'Tasks' });
    fireEvent.click(screen.getByRole('radio', { name: '30 days' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Include done tasks' }));
    await waitFor(() => {
      const last = desk.calls.filter((c) => c.path === '/api/v1/cost/by-assignee').at(-1)!;
      expect([last.query.get('trajectoryDays'), last.query.get('includeDone')]).toEqual(['30', 'true']);
    });
    expect(desk.calls.some((c) => c.path === '/api/v1/tasks/top-cost' && c.query.get('includeDone') === 'true')).toBe(true);
  });

  it('lists today’s spikes by kind with their state, and acknowledges one or all of a kind', async () => {
    desk = fakeDesk(today(), {
      '/api/v1/tasks/cost-spikes': [spike('tsk_1', 'Answer the pricing thread', { paused: true, consecutiveSpikeDays: 2 }), spike('tsk_2', 'Old one', { ackedAt: '2026-03-11T10:00:00.000Z' })],
      '/api/v1/cost/by-tag/spikes': [spike('launch', 'launch', { spikeRatio: null, baselineUsd: 0 }), spike('pricing', 'pricing')],
    });
    renderAppAt('/cost');
    const panel = await screen.findByRole('region', { name: 'Spikes today' });
    const tasks = await within(panel).findByRole('list', { name: 'Spikes today: Tasks' });
    const [first, second] = within(tasks).getAllByRole('listitem');
    expect(first.textContent).toContain('$1.20 today vs $0.30 a day (4× its 7-day average) · 2 days in a row');
    expect(within(first).getByText('paused')).toBeTruthy();
    expect(second.textContent).toContain('acknowledged');
    expect(within(second).queryByRole('button')).toBeNull();
    // one open task: no "all" button for tasks; two open tags: one bulk call with both
    expect(within(panel).queryByRole('button', { name: /Acknowledge all \d/ })?.textContent).toBe('Acknowledge all 2');
    expect(within(panel).getByRole('list', { name: 'Spikes today: Tags' }).textContent).toContain('new spend');
    const statsReads = () => desk.calls.filter((c) => c.method === 'GET' && c.path === '/api/v1/stats').length;
    await waitFor(() => expect(statsReads()).toBeGreaterThan(0));
    const before = statsReads();
    fireEvent.click(within(first).getByRole('button', { name: 'Acknowledge Answer the pricing thread' }));
    await waitFor(() => expect(desk.calls.some((c) => c.method === 'POST' && c.path === '/api/v1/tasks/tsk_1/cost-spike-ack')).toBe(true));
    // The ack lifted a pause and wrote activity: the header's stats (and task, source, activity views) are read again.
    await waitFor(() => expect(statsReads()).toBeGreaterThan(before));
    fireEvent.click(within(panel).getByRole('button', { name: 'Acknowledge all 2' }));
    await waitFor(() => expect(desk.calls.find((c) => c.method === 'POST' && c.path === '/api/v1/cost/by-tag/cost-spike-ack/bulk')?.body).toEqual({ tags: ['launch', 'pricing'] }));
  });

  it('says when nothing spikes, and mutes a chronic warning for 7 days', async () => {
    desk = fakeDesk(today(), {
      '/api/v1/cost/by-source/chronic-spikes': [
        { key: 'src_1', label: 'Changelog feed', consecutiveSpikeDays: 4, thresholdDays: 3, todayUsd: null, todayCents: null, baselineUsd: null, baselineCents: null, spikeRatio: null, chronicAckedAt: null, chronicAckExpiresAt: null, paused: true },
      ],
    });
    renderAppAt('/cost');
    const spikes = await screen.findByRole('region', { name: 'Spikes today' });
    await waitFor(() => expect(spikes.textContent).toContain('Nothing is spiking today.'));
    const chronic = screen.getByRole('region', { name: 'Chronic warnings' });
    const row = await within(chronic).findByRole('listitem');
    expect(row.textContent).toContain('not spiking today · 4 days in a row');
    fireEvent.click(within(row).getByRole('button', { name: 'Acknowledge Changelog feed' }));
    await waitFor(() => expect(desk.calls.some((c) => c.method === 'POST' && c.path === '/api/v1/sources/src_1/chronic-ack')).toBe(true));
  });

  it('shows the columns and the order per kind the member keeps, and saves a change to either', async () => {
    const prefs = fakePrefs({ costPanelColumns: ['cost', 'detail'], costPanelOrder: { task: 'cost-desc', assignee: 'cost-desc', tag: 'name-asc', source: 'cost-desc', memory: 'cost-desc' } });
    const tag = (name: string, usd: number) => ({ ...figures, tag: name, untagged: false, estimatedCostUsd: usd, sessionCount: 1, trajectory7d: [1, 2] });
    desk = fakeDesk(today(), {}, (call) => prefs.handle(call) ?? (call.path === '/api/v1/cost/by-tag' ? json(200, { includeDone: false, trajectoryDays: 7, tags: [tag('support', 0.4), tag('launch', 0.1)] }) : undefined));
    renderAppAt('/cost');
    const tags = await screen.findByRole('list', { name: 'Tags' });
    const names = () => within(screen.getByRole('list', { name: 'Tags' })).getAllByRole('listitem').map((li) => li.querySelector('.cost-row__name')!.textContent);
    await waitFor(() => expect(names()).toEqual(['launch', 'support']));
    // Trend hidden: no sparkline in the rows; cost and details shown.
    expect(tags.querySelector('.cost-row__trend')).toBeNull();
    expect(tags.querySelector('.cost-row__usd')).not.toBeNull();
    expect((screen.getByRole('checkbox', { name: 'Trend' }) as HTMLInputElement).checked).toBe(false);

    fireEvent.change(screen.getByRole('combobox', { name: 'Order of tags' }), { target: { value: 'cost-desc' } });
    await waitFor(() => expect(names()).toEqual(['support', 'launch']));
    await waitFor(() => expect(prefs.puts).toHaveLength(1));
    expect(prefs.puts[0]).toEqual({ costPanelOrder: { tag: 'cost-desc' }, costPanelOrderUpdatedAt: { tag: null } });

    fireEvent.click(screen.getByRole('checkbox', { name: 'Trend' }));
    await waitFor(() => expect(prefs.current().costPanelColumns).toEqual(['cost', 'trend', 'detail']));
    expect(screen.getByRole('list', { name: 'Tags' }).querySelector('.cost-row__trend')).not.toBeNull();
  });
});
