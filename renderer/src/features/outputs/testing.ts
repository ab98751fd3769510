import type { Schema } from '../../api/client';

/** An output as GET /artifacts/{id} answers it (ready, version 1, for task tsk_1); overrides win. */
export function anOutput(id: string, title: string, overrides: Partial<Schema<'Artifact'>> = {}): Schema<'Artifact'> {
  return {
    id,
    taskId: 'tsk_1',
    taskTitle: 'Answer the pricing thread',
    runId: 'run_1',
    kind: 'report',
    title,
    status: 'ready',
    version: 1,
    parentArtifactId: null,
    pinned: false,
    tags: [],
    reactions: [],
    readyAt: '2026-03-10T10:00:00.000Z',
    decidedAt: null,
    approvalAgeHours: 2,
    approvalAttention: 'fresh',
    authorKind: 'engine',
    authorUserId: null,
    authorName: null,
    supersededAt: null,
    supersededById: null,
    reviewOwner: null,
    createdAt: '2026-03-10T10:00:00.000Z',
    updatedAt: '2026-03-10T10:00:00.000Z',
    content: `# ${title}\n\nWhat happened.`,
    ...overrides,
  };
}

type QueueRow = Schema<'ReviewQueueRow'>;
type Window = Schema<'ThroughputWindow'>;

/** A throughput window of `days` with no decisions; overrides win. */
export const aWindow = (days: number, overrides: Partial<Window> = {}): Window => ({
  days,
  decisions: 0,
  approved: 0,
  archived: 0,
  approvedShare: null,
  medianHours: null,
  past72hShare: null,
  within24hShare: null,
  withinWatchShare: null,
  pastPolicyShare: null,
  exactSamples: 0,
  inferredSamples: 0,
  sampleQuality: 'none',
  ...overrides,
});

/**
 * A GET /artifacts answer for these ready rows (policy 24 h watch, 72 h overdue): aging and ownership
 * counted from the rows as the server counts them, their owners as available reviewers, and
 * `throughput` for the decisions.
 */
export function aQueuePage(rows: QueueRow[], throughput: { median7d?: number; p90Hours30d?: number } = {}): Schema<'ArtifactList'> {
  const ages = rows.map((r) => r.approvalAgeHours ?? 0);
  const oldest = rows.reduce<QueueRow | null>((o, r) => (o === null || (r.approvalAgeHours ?? 0) > (o.approvalAgeHours ?? 0) ? r : o), null);
  const assigned = rows.filter((r) => r.reviewOwner).length;
  // Every owner is an available reviewer carrying the rows they own.
  const owners = [...new Map(rows.flatMap((r) => (r.reviewOwner ? [[r.reviewOwner.userId, r.reviewOwner.name] as const] : []))).entries()];
  const reviewers = owners.map(([userId, name]) => {
    const mine = rows.filter((r) => r.reviewOwner?.userId === userId);
    return { userId, name, available: true, load: mine.length, overdue: mine.filter((r) => r.approvalAttention === 'overdue').length, oldestWaitHours: Math.max(...mine.map((r) => r.approvalAgeHours ?? 0)) };
  });
  return {
    artifacts: rows,
    nextCursor: null,
    approvalPolicy: { watchHours: 24, overdueHours: 72 },
    approvalAging: {
      waiting: rows.length,
      fresh: ages.filter((h) => h < 24).length,
      pastWatch: ages.filter((h) => h >= 24).length,
      pastOverdue: ages.filter((h) => h >= 72).length,
      oldestWaitHours: oldest ? oldest.approvalAgeHours : null,
      oldestArtifactId: oldest ? oldest.id : null,
    },
    approvalOwnership: { assigned, unassigned: rows.length - assigned, mine: 0, mineOverdue: 0 },
    approvalCapacity: {
      coverage: { complete: true, bound: 200, waiting: rows.length, considered: rows.length },
      state: rows.length === 0 ? 'empty' : reviewers.length > 0 ? 'balanced' : 'no_reviewer_available',
      reviewers,
      availableReviewers: reviewers.length,
      unavailableReviewers: 0,
      availableOwned: assigned,
      awayOwned: 0,
      unassigned: rows.length - assigned,
      otherOwned: 0,
      targetLoad: reviewers.length > 0 ? Math.round((assigned / reviewers.length) * 10) / 10 : null,
      queueSpread: null,
      mostLoaded: null,
      lightest: null,
      suggestion: null,
    },
    approvalThroughput: {
      last7Days: throughput.median7d === undefined ? aWindow(7) : aWindow(7, { decisions: 4, approved: 4, approvedShare: 1, medianHours: throughput.median7d, exactSamples: 4, sampleQuality: 'exact' }),
      last30Days: aWindow(30),
      p90Hours30d: throughput.p90Hours30d ?? null,
      trend: { changeShare: null, lastWeekMedianHours: null, thisWeekMedianHours: null, direction: 'insufficient' },
      daily: [],
    },
  };
}
