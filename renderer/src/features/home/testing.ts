import type { Schema } from '../../api/client';

/** Answers of the overview reads for Home's tests (a desk that has run: data in every panel); overrides win. */

export function aSummary(overrides: Partial<Schema<'WorkspaceSummary'>> = {}): Schema<'WorkspaceSummary'> {
  return {
    signals: { total: 120, untriaged: 3 },
    artifacts: { total: 9, ready: 2, approved: 5, archived: 2, superseded: 0 },
    approvedArtifacts: 5,
    memory: { total: 14, active: 12, archived: 2 },
    sources: { total: 2, pending: 0, connected: 2, error: 0, paused: 0 },
    tasks: { total: 7, queued: 2, in_progress: 1, needs_input: 1, done: 3, archived: 0 },
    cycles: { total: 30, running: 0, completed: 28, failed: 1, skipped: 1 },
    anchors: {
      workspaceCreatedAt: '2026-02-01T09:00:00.000Z',
      firstSignalAt: '2026-02-01T10:00:00.000Z',
      lastSignalAt: '2026-03-10T11:00:00.000Z',
      lastCycleAt: '2026-03-10T11:30:00.000Z',
      lastCompletedCycleAt: '2026-03-10T11:30:05.000Z',
      lastOutputAt: '2026-03-10T11:30:04.000Z',
      lastDecisionAt: '2026-03-10T09:00:00.000Z',
      lastTaskAt: '2026-03-09T09:00:00.000Z',
      lastMemoryAt: '2026-03-08T09:00:00.000Z',
      lastActivityAt: '2026-03-10T11:30:05.000Z',
    },
    ...overrides,
  };
}

/** An empty desk: nothing added, nothing run. */
export const anEmptySummary = (): Schema<'WorkspaceSummary'> =>
  aSummary({
    signals: { total: 0, untriaged: 0 },
    artifacts: { total: 0, ready: 0, approved: 0, archived: 0, superseded: 0 },
    approvedArtifacts: 0,
    memory: { total: 0, active: 0, archived: 0 },
    sources: { total: 0, pending: 0, connected: 0, error: 0, paused: 0 },
    tasks: { total: 0, queued: 0, in_progress: 0, needs_input: 0, done: 0, archived: 0 },
    cycles: { total: 0, running: 0, completed: 0, failed: 0, skipped: 0 },
  });

export function aToday(overrides: Partial<Schema<'TodaySnapshot'>> = {}): Schema<'TodaySnapshot'> {
  return {
    day: '2026-03-10',
    timezone: 'UTC',
    from: '2026-03-10T00:00:00.000Z',
    to: '2026-03-11T00:00:00.000Z',
    today: { signals: 12, cycles: 4, failedCycles: 0, outputs: 3, approvals: 2, spendUsd: 0.12 },
    yesterday: { signals: 9, cycles: 4, failedCycles: 0, outputs: 5, approvals: 2, spendUsd: 0.05 },
    deltaVsYesterday: { signals: 3, cycles: 0, failedCycles: 0, outputs: -2, approvals: 0, spendUsd: 0.07 },
    baseline7d: { signals: 10.43, cycles: 4, failedCycles: 0, outputs: 3.14, approvals: 1.71, spendUsd: 0.027143 },
    outputsWaiting: 2,
    cap: { dailyCostCapUsdCents: 50, capPercent: 24 },
    ...overrides,
  };
}

export function aWhatsNew(overrides: Partial<Schema<'WhatsNew'>> = {}): Schema<'WhatsNew'> {
  return {
    since: '2026-03-09T12:00:00.000Z',
    until: '2026-03-10T12:00:00.000Z',
    clamped: false,
    counts: { signals: 5, artifacts: 2, outputs: 1, approvals: 1, activity: 9 },
    samples: {
      signals: [
        { id: 'sig_1', title: 'Competitor cut prices', at: '2026-03-10T11:00:00.000Z' },
        { id: 'sig_2', title: 'New 2-star review', at: '2026-03-10T10:00:00.000Z' },
      ],
      artifacts: [{ id: 'art_1', title: 'Pricing brief', at: '2026-03-10T11:30:00.000Z' }],
      outputs: [{ id: 'art_1', title: 'Pricing brief', at: '2026-03-10T11:30:00.000Z' }],
      approvals: [{ id: 'art_0', title: 'Weekly report', at: '2026-03-10T09:00:00.000Z' }],
      activity: [{ id: 'act_1', kind: 'task.created', title: 'Created task "Reply to review"', at: '2026-03-10T11:30:00.000Z', entityType: 'task', entityId: 'tsk_9' }],
    },
    ...overrides,
  };
}

export function anInbox(overrides: Partial<Schema<'PersonalInbox'>> = {}): Schema<'PersonalInbox'> {
  return {
    userId: 'usr_owner',
    userName: 'Owner',
    mentions: {
      total: 1,
      items: [
        {
          mentionId: 'mnt_1',
          commentId: 'cmt_1',
          taskId: 'tsk_1',
          taskTitle: 'Launch plan',
          authorId: 'usr_alice',
          authorName: 'Alice',
          authorInitials: 'A',
          authorHue: 200,
          excerpt: '@Owner can you check the numbers?',
          createdAt: '2026-03-10T10:00:00.000Z',
        },
      ],
    },
    staleTasks: { total: 1, thresholdDays: 5, items: [{ id: 'tsk_2', title: 'Old follow-up', status: 'queued', dueAt: null, updatedAt: '2026-03-01T12:00:00.000Z', daysStale: 9 }] },
    dueSoon: {
      total: 1,
      windowHours: 48,
      items: [{ id: 'tsk_3', title: 'Send the invoice', status: 'in_progress', dueAt: '2026-03-10T10:00:00.000Z', updatedAt: '2026-03-09T12:00:00.000Z', overdue: true, hoursUntilDue: -2 }],
    },
    ...overrides,
  };
}

export const anEmptyInbox = (userId = 'usr_owner', userName = 'Owner'): Schema<'PersonalInbox'> => ({
  userId,
  userName,
  mentions: { total: 0, items: [] },
  staleTasks: { total: 0, thresholdDays: 5, items: [] },
  dueSoon: { total: 0, windowHours: 48, items: [] },
});

export function someInsights(overrides: Partial<Schema<'Insights'>> = {}): Schema<'Insights'> {
  return {
    fromDay: '2026-02-25',
    toDay: '2026-03-10',
    windowDays: 14,
    tags: [
      { tag: 'pricing', total: 6, tasks: 3, artifacts: 2, memory: 1 },
      { tag: 'reviews', total: 3, tasks: 2, artifacts: 1, memory: 0 },
    ],
    distinctTags: 2,
    taggedItems: { tasks: 4, artifacts: 3, memory: 1 },
    ...overrides,
  };
}

export function someReactions(overrides: Partial<Schema<'ReactionsSummary'>> = {}): Schema<'ReactionsSummary'> {
  return {
    emojis: [
      { emoji: '👍', total: 4, comments: 1, artifacts: 0, memory: 0, signals: 3 },
      { emoji: '👀', total: 0, comments: 0, artifacts: 0, memory: 0, signals: 0 },
      { emoji: '🎯', total: 0, comments: 0, artifacts: 0, memory: 0, signals: 0 },
      { emoji: '❤️', total: 2, comments: 0, artifacts: 2, memory: 0, signals: 0 },
      { emoji: '🚀', total: 0, comments: 0, artifacts: 0, memory: 0, signals: 0 },
    ],
    totals: { total: 6, comments: 1, artifacts: 2, memory: 0, signals: 3 },
    top: [
      { kind: 'signal', id: 'sig_1', title: 'Competitor cut prices', taskId: null, total: 3, reactions: [{ emoji: '👍', count: 3 }] },
      { kind: 'artifact', id: 'art_0', title: 'Weekly report', taskId: null, total: 2, reactions: [{ emoji: '❤️', count: 2 }] },
      { kind: 'comment', id: 'cmt_1', title: 'Great catch', taskId: 'tsk_1', total: 1, reactions: [{ emoji: '👍', count: 1 }] },
    ],
    topLimit: 8,
    ...overrides,
  };
}
