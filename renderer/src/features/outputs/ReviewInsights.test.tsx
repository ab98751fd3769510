import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAuth } from '../../lib/auth';
import { fixClock } from '../../testing/clock';
import { fakeFetch, json, noFake } from '../../testing/fake-api';
import { renderAppAt } from '../../testing/render';
import { aQueuePage, anOutput, aWindow as window } from './testing';

const row = (id: string, title: string, hours: number, owner: { userId: string; name: string } | null) => {
  const { content: _content, ...summary } = anOutput(id, title, { approvalAgeHours: hours, approvalAttention: hours >= 72 ? 'overdue' : hours >= 24 ? 'watch' : 'fresh', reviewOwner: owner });
  return { ...summary, reviewOwnerCapacity: null };
};

const ann = { userId: 'usr_ann', name: 'Ann' };
const rows = [row('art_1', 'Churn brief', 90, ann), row('art_2', 'Pricing reply', 30, ann), row('art_3', 'Launch notes', 2, null)];

// Ann (available) carries both assigned reviews; Bo is away and owns none; the move suggestion names one output.
function page() {
  const base = aQueuePage(rows);
  return {
    ...base,
    approvalCapacity: {
      ...base.approvalCapacity,
      state: 'unbalanced' as const,
      reviewers: [
        { userId: 'usr_ann', name: 'Ann', available: true, load: 2, overdue: 1, oldestWaitHours: 90 },
        { userId: 'usr_cy', name: 'Cy', available: true, load: 0, overdue: 0, oldestWaitHours: null },
        { userId: 'usr_bo', name: 'Bo', available: false, load: 0, overdue: 0, oldestWaitHours: null },
      ],
      availableReviewers: 2,
      unavailableReviewers: 1,
      targetLoad: 1,
      queueSpread: 2,
      mostLoaded: { userId: 'usr_ann', name: 'Ann', load: 2 },
      lightest: { userId: 'usr_cy', name: 'Cy', load: 0 },
      suggestion: { reason: 'rebalance' as const, fromUserId: 'usr_ann', toUserId: 'usr_cy', artifactIds: ['art_1'] },
    },
    approvalThroughput: {
      last7Days: window(7, { decisions: 4, approved: 3, archived: 1, approvedShare: 0.75, medianHours: 10, within24hShare: 0.75, past72hShare: 0.25, withinWatchShare: 0.75, pastPolicyShare: 0.25, exactSamples: 4, sampleQuality: 'exact' }),
      last30Days: window(30, { decisions: 10, approved: 6, archived: 4, approvedShare: 0.6, medianHours: 20, within24hShare: 0.5, past72hShare: 0.1, withinWatchShare: 0.5, pastPolicyShare: 0.1, exactSamples: 8, inferredSamples: 2, sampleQuality: 'mixed' }),
      p90Hours30d: 80,
      trend: { direction: 'faster' as const, thisWeekMedianHours: 10, lastWeekMedianHours: 20, changeShare: -0.5 },
      daily: Array.from({ length: 14 }, (_, i) => ({ date: `2026-03-${String(i + 1).padStart(2, '0')}`, decisions: i === 13 ? 3 : i === 12 ? 1 : 0, medianHours: i === 13 ? 8 : i === 12 ? 30 : null })),
    },
  };
}

beforeEach(() => {
  fixClock('2026-03-14T16:00:00.000Z');
  useAuth.setState({ token: 't', status: 'signed-in', baseUrl: 'http://127.0.0.1:4000' });
  fakeFetch((call) => (call.method === 'GET' && call.path === '/api/v1/artifacts' ? json(200, page()) : noFake(call)));
});

describe('review insights beside the queue', () => {
  it('shows each reviewer’s load against the target, who is away, and the suggested move by title', async () => {
    renderAppAt('/outputs');
    const panel = await screen.findByRole('region', { name: 'Reviewer capacity' });
    expect(within(panel).getByText('Some reviewers carry more than their share.')).toBeTruthy();
    const loads = within(panel).getByRole('list', { name: 'Load per reviewer' });
    expect(within(loads).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Ann2 (1 overdue)', 'Cy0', 'Bo · away0']);
    expect(panel.textContent).toContain('Target 1 per available reviewer, spread 2. 2 reviewers available, 1 away.');
    const move = within(panel).getByRole('note', { name: 'Suggested move' });
    expect(move.textContent).toContain('move 1 review from Ann to Cy');
    expect(within(move).getByRole('link', { name: 'Churn brief' }).getAttribute('href')).toBe('/outputs/art_1');
  });

  it('shows decision speed: p90, trend, both windows and the 14-day chart', async () => {
    renderAppAt('/outputs');
    const panel = await screen.findByRole('region', { name: 'Decision speed' });
    expect(panel.textContent).toContain('30-day p90 wait 3 d; this week faster than the week before (median wait -50%).');
    const table = within(panel).getByRole('table');
    expect(within(table).getAllByRole('row').map((tr) => Array.from(tr.children, (c) => c.textContent))).toEqual([
      ['', '7 days', '30 days'],
      ['Decisions', '4', '10'],
      ['Approved / archived', '3 / 1', '6 / 4'],
      ['Median wait', '10 h', '20 h'],
      ['Within 24 h', '75%', '50%'],
      ['Past 72 h', '25%', '10%'],
      ['Before watch', '75%', '50%'],
      ['Past policy', '25%', '10%'],
    ]);
    expect(panel.textContent).toContain('4 decisions in the last 14 days');
    expect(panel.textContent).toContain('Some waits are estimated');
  });

  it('lists reviewers in the owner filter, away ones marked', async () => {
    renderAppAt('/outputs');
    await screen.findByRole('region', { name: 'Reviewer capacity' });
    const owner = screen.getByRole('combobox', { name: 'Review owner' });
    expect(within(owner).getAllByRole('option').map((o) => o.textContent)).toEqual(['Anyone', 'Assigned', 'Unassigned', 'Ann', 'Cy', 'Bo (away)']);
  });
});
