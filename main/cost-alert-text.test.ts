import { describe, expect, it } from 'vitest';
import { costAlertNotice } from './cost-alert-text';
import type { CostAlertsMessage } from './desk-protocol';

type Alert = CostAlertsMessage['alerts'][number];

const spike = (over: Partial<Alert> = {}): Alert =>
  ({
    kind: 'cost_spike',
    dimension: 'task',
    key: 'tsk_1',
    label: 'Answer the pricing thread',
    day: '2026-03-10',
    todayUsd: 1.2,
    todayCents: 120,
    baselineUsd: 0.3,
    baselineCents: 30,
    spikeRatio: 4,
    consecutiveSpikeDays: 1,
    paused: false,
    ...over,
  }) as Alert;

describe('cost alert notification', () => {
  it('says nothing for no alert', () => {
    expect(costAlertNotice([])).toBeNull();
  });

  it('names one spike with its spend and ratio, and says when it paused the spender', () => {
    expect(costAlertNotice([spike()])).toEqual({ title: 'Cost spike', body: 'Task “Answer the pricing thread” spent $1.20 today, 4× its 7-day average.', path: '/cost' });
    expect(costAlertNotice([spike({ dimension: 'source', label: 'Changelog feed', spikeRatio: null, paused: true })])?.body).toBe(
      'Source “Changelog feed” spent $1.20 today, with no spend the week before. Paused until you acknowledge it on the Cost page.',
    );
  });

  it('names a chronic warning by its streak', () => {
    const chronic = { ...spike({ dimension: 'tag', label: 'launch', consecutiveSpikeDays: 3 }), kind: 'chronic_warning', thresholdDays: 3 } as Alert;
    expect(costAlertNotice([chronic])).toEqual({ title: 'Chronic cost warning', body: 'Tag “launch” has spiked 3 days in a row ($1.20 today).', path: '/cost' });
  });

  it('sums several alerts up in one notification, clipping long labels', () => {
    const long = 'x'.repeat(80);
    const n = costAlertNotice([spike({ dimension: 'memory', label: long }), spike(), spike({ dimension: 'assignee', label: 'Ada' })]);
    expect(n?.title).toBe('3 cost alerts');
    expect(n?.body).toBe(`Memory entry “${'x'.repeat(59)}…” spent $1.20 today, 4× its 7-day average. And 2 more.`);
  });
});
