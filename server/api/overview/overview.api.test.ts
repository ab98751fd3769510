import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../core/clock';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { insertArtifactRow } from '../../testing/fixtures/artifacts';
import { insertSignalRow } from '../../testing/fixtures/loop';
import { insertMemoryRow } from '../../testing/fixtures/memory';
import { insertRunRow, setWorkspaceSpend } from '../../testing/fixtures/overview';
import { insertSourceRow } from '../../testing/fixtures/sources';
import { createTask, insertTaskRow } from '../../testing/fixtures/tasks';

/**
 * A New York workspace read at 23:30 local on 2026-03-10 (EDT, UTC-4; DST began 2026-03-08, so the
 * baseline spans a 23-hour day). Today is [2026-03-10T04:00Z, 2026-03-11T04:00Z); yesterday starts at
 * 2026-03-09T04:00Z; the 7-day baseline (03-03..03-09) starts at 2026-03-03T05:00Z (EST).
 */
const NOW = '2026-03-11T03:30:00.000Z';

describe('overview reads (America/New_York, 23:30 local)', () => {
  let desk: TestDesk;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    desk = await startTestDesk({ clock: new ManualClock(NOW), seed: { timezone: 'America/New_York' } });
    const ctx = { db: desk.services.db, clock: desk.clock };
    // Signals around the day boundaries (local times in comments).
    ids.s1 = await insertSignalRow(ctx, { id: 'sig_1', title: 'Today 23:00', createdAt: '2026-03-11T03:00:00.000Z' });
    ids.s2 = await insertSignalRow(ctx, { id: 'sig_2', title: 'Today 00:30', createdAt: '2026-03-10T04:30:00.000Z', triagedAt: '2026-03-10T05:00:00.000Z' });
    ids.s3 = await insertSignalRow(ctx, { id: 'sig_3', title: 'Yesterday 23:30', createdAt: '2026-03-10T03:30:00.000Z', triagedAt: '2026-03-10T05:00:00.000Z' });
    await insertSignalRow(ctx, { id: 'sig_4', title: 'Yesterday 00:30', createdAt: '2026-03-09T04:30:00.000Z', triagedAt: '2026-03-10T05:00:00.000Z' });
    await insertSignalRow(ctx, { id: 'sig_5', title: 'Mar 8 23:30 (baseline)', createdAt: '2026-03-09T03:30:00.000Z', triagedAt: '2026-03-10T05:00:00.000Z' });
    await insertSignalRow(ctx, { id: 'sig_6', title: 'Mar 3 00:30 EST (baseline)', createdAt: '2026-03-03T05:30:00.000Z', triagedAt: '2026-03-10T05:00:00.000Z' });
    await insertSignalRow(ctx, { id: 'sig_7', title: 'Mar 2 23:30 EST (before)', createdAt: '2026-03-03T04:30:00.000Z', triagedAt: '2026-03-10T05:00:00.000Z' });
    // Cycles: skipped ones are not "run".
    await insertRunRow(desk, '2026-03-10T15:00:00.000Z', 'completed');
    await insertRunRow(desk, '2026-03-10T16:00:00.000Z', 'skipped');
    await insertRunRow(desk, '2026-03-09T15:00:00.000Z', 'failed');
    await insertRunRow(desk, '2026-03-05T15:00:00.000Z', 'completed');
    // Outputs.
    ids.a1 = await insertArtifactRow(desk, { id: 'art_1', title: 'Made today', createdAt: '2026-03-10T16:00:00.000Z', readyAt: '2026-03-10T16:00:00.000Z' });
    ids.a2 = await insertArtifactRow(desk, { id: 'art_2', title: 'Approved today', createdAt: '2026-03-09T16:00:00.000Z', status: 'approved', decidedAt: '2026-03-10T20:00:00.000Z' });
    await insertArtifactRow(desk, { id: 'art_3', title: 'Baseline approval', createdAt: '2026-03-04T12:00:00.000Z', status: 'approved', decidedAt: '2026-03-05T12:00:00.000Z' });
    await insertArtifactRow(desk, { id: 'art_4', title: 'Archived yesterday', createdAt: '2026-03-09T12:00:00.000Z', status: 'archived', decidedAt: '2026-03-09T13:00:00.000Z' });
    // Spend (workspace-day buckets of the cost ledger).
    await setWorkspaceSpend(desk, '2026-03-10', 120_000);
    await setWorkspaceSpend(desk, '2026-03-09', 50_000);
    await setWorkspaceSpend(desk, '2026-03-08', 70_000);
    await setWorkspaceSpend(desk, '2026-03-04', 70_000);
    await setWorkspaceSpend(desk, '2026-03-02', 999_999);
    // Tasks, memory, sources for the summary.
    await insertTaskRow(desk, { status: 'queued', createdAt: '2026-03-01T00:00:00.000Z' });
    await insertTaskRow(desk, { status: 'queued' });
    await insertTaskRow(desk, { status: 'done' });
    await insertMemoryRow(desk, { createdAt: '2026-03-02T00:00:00.000Z' });
    await insertMemoryRow(desk, { archivedAt: '2026-03-09T00:00:00.000Z' });
    await insertSourceRow(desk, { id: 'src_a', status: 'connected' });
    await insertSourceRow(desk, { id: 'src_b', status: 'error', url: 'https://example.com/b' });
    await insertSourceRow(desk, { id: 'src_c', status: 'connected', url: 'https://example.com/c', pausedAt: '2026-03-09T00:00:00.000Z' });
  });
  afterAll(() => desk.stop());

  it('GET /workspace/today: today, yesterday, delta and 7-day baseline on workspace days', async () => {
    const res = await desk.api('GET', '/api/v1/workspace/today');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      day: '2026-03-10',
      timezone: 'America/New_York',
      from: '2026-03-10T04:00:00.000Z',
      to: '2026-03-11T04:00:00.000Z',
      today: { signals: 2, cycles: 1, failedCycles: 0, outputs: 1, approvals: 1, spendUsd: 0.12 },
      yesterday: { signals: 2, cycles: 0, failedCycles: 1, outputs: 2, approvals: 0, spendUsd: 0.05 },
      deltaVsYesterday: { signals: 0, cycles: 1, failedCycles: -1, outputs: -1, approvals: 1, spendUsd: 0.07 },
      // 03-03..03-09 (yesterday included): 4 signals (sig_3..sig_6), 2 cycles, 3 outputs (art_2..4),
      // 1 approval (art_3; art_2 was approved today), 0.19 USD; each divided by 7.
      baseline7d: { signals: 0.57, cycles: 0.14, failedCycles: 0.14, outputs: 0.43, approvals: 0.14, spendUsd: 0.027143 },
      outputsWaiting: 1,
      // free plan: 50 cents; 0.12 USD is 24%.
      cap: { dailyCostCapUsdCents: 50, capPercent: 24 },
    });
  });

  it('GET /workspace/today: the day turns at local midnight, not UTC midnight', async () => {
    const before = desk.clock.now().toISOString();
    desk.clock.set('2026-03-11T04:30:00.000Z'); // 00:30 on 03-11 in New York
    try {
      const res = await desk.api('GET', '/api/v1/workspace/today');
      expect(res.body.day).toBe('2026-03-11');
      expect(res.body.today).toEqual({ signals: 0, cycles: 0, failedCycles: 0, outputs: 0, approvals: 0, spendUsd: 0 });
      expect(res.body.yesterday).toEqual({ signals: 2, cycles: 1, failedCycles: 0, outputs: 1, approvals: 1, spendUsd: 0.12 });
    } finally {
      desk.clock.set(before);
    }
  });

  it('GET /workspace/summary: all-time counts and anchors', async () => {
    const res = await desk.api('GET', '/api/v1/workspace/summary');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      signals: { total: 7, untriaged: 1 },
      artifacts: { total: 4, ready: 1, approved: 2, archived: 1 },
      approvedArtifacts: 2,
      memory: { total: 2, active: 1, archived: 1 },
      sources: { total: 3, pending: 0, connected: 2, error: 1, paused: 1 },
      tasks: { total: 3, queued: 2, in_progress: 0, needs_input: 0, done: 1, archived: 0 },
      cycles: { total: 4, running: 0, completed: 2, failed: 1, skipped: 1 },
    });
    expect(res.body.anchors).toEqual({
      workspaceCreatedAt: NOW,
      firstSignalAt: '2026-03-03T04:30:00.000Z',
      lastSignalAt: '2026-03-11T03:00:00.000Z',
      lastCycleAt: '2026-03-10T16:00:00.000Z',
      lastCompletedCycleAt: '2026-03-10T15:01:00.000Z',
      lastOutputAt: '2026-03-10T16:00:00.000Z',
      lastDecisionAt: '2026-03-10T20:00:00.000Z',
      lastTaskAt: NOW,
      lastMemoryAt: NOW,
      lastActivityAt: NOW, // the workspace's creation
    });
  });

  it('GET /workspace/whats-new: the last 24 hours by default, per-kind counts and newest samples', async () => {
    const res = await desk.api('GET', '/api/v1/workspace/whats-new');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ since: '2026-03-10T03:30:00.000Z', until: NOW, clamped: false });
    // sig_3 sits exactly on the window's start (included); the one activity row is the workspace's creation.
    expect(res.body.counts).toEqual({ signals: 3, artifacts: 1, outputs: 1, approvals: 1, activity: 1 });
    expect(res.body.samples.signals.map((s: { id: string }) => s.id)).toEqual(['sig_1', 'sig_2', 'sig_3']);
    expect(res.body.samples.signals[0]).toEqual({ id: 'sig_1', title: 'Today 23:00', at: '2026-03-11T03:00:00.000Z' });
    expect(res.body.samples.outputs).toEqual([{ id: 'art_1', title: 'Made today', at: '2026-03-10T16:00:00.000Z' }]);
    expect(res.body.samples.approvals).toEqual([{ id: 'art_2', title: 'Approved today', at: '2026-03-10T20:00:00.000Z' }]);
  });

  it('GET /workspace/whats-new: since, a date as the start of that workspace day, activity rows', async () => {
    const task = await createTask(desk, { title: 'Fresh task' });
    const byDate = await desk.api('GET', '/api/v1/workspace/whats-new?since=2026-03-09');
    expect(byDate.body.since).toBe('2026-03-09T04:00:00.000Z');
    expect(byDate.body.counts).toEqual({ signals: 4, artifacts: 3, outputs: 1, approvals: 1, activity: 2 });
    expect(byDate.body.samples.activity[0]).toEqual(expect.objectContaining({ kind: 'task.created', entityType: 'task', entityId: task.id, at: NOW }));
    const narrow = await desk.api('GET', `/api/v1/workspace/whats-new?since=${encodeURIComponent('2026-03-10T16:00:00Z')}`);
    expect(narrow.body.counts).toEqual({ signals: 1, artifacts: 1, outputs: 1, approvals: 1, activity: 2 });
  });

  it('GET /workspace/whats-new: a since older than 30 days is clamped (30 workspace days, across DST), not refused', async () => {
    const res = await desk.api('GET', '/api/v1/workspace/whats-new?since=2025-12-01T00:00:00Z');
    expect(res.status).toBe(200);
    // 23:30 EDT on 03-10 minus 30 calendar days is 23:30 EST on 02-08.
    expect(res.body).toMatchObject({ since: '2026-02-09T04:30:00.000Z', clamped: true });
    expect(res.body.counts.signals).toBe(7);
    const edge = await desk.api('GET', '/api/v1/workspace/whats-new?since=2026-02-09T04:30:00Z');
    expect(edge.body).toMatchObject({ since: '2026-02-09T04:30:00.000Z', clamped: false });
  });

  it('GET /workspace/whats-new: a future or malformed since is a 422 naming since', async () => {
    for (const since of ['2026-03-11T03:31:00Z', 'yesterday', '2026-02-30', '']) {
      await expectRejectedUnchanged(desk, { method: 'GET', path: `/api/v1/workspace/whats-new?since=${encodeURIComponent(since)}` }, { status: 422, field: 'since' });
    }
    const now = await desk.api('GET', `/api/v1/workspace/whats-new?since=${encodeURIComponent(NOW)}`);
    expect(now.status).toBe(200);
  });
});

describe('GET /workspace/today in Asia/Tokyo', () => {
  it('counts by the Tokyo day at 23:30 local (UTC+9)', async () => {
    const desk = await startTestDesk({ clock: new ManualClock('2026-03-10T14:30:00.000Z'), seed: { timezone: 'Asia/Tokyo' } });
    try {
      const ctx = { db: desk.services.db, clock: desk.clock };
      await insertSignalRow(ctx, { createdAt: '2026-03-09T15:30:00.000Z' }); // 03-10 00:30 JST
      await insertSignalRow(ctx, { createdAt: '2026-03-10T14:00:00.000Z' }); // 03-10 23:00 JST
      await insertSignalRow(ctx, { createdAt: '2026-03-09T14:30:00.000Z' }); // 03-09 23:30 JST
      await insertSignalRow(ctx, { createdAt: '2026-03-02T15:00:00.000Z' }); // 03-03 00:00 JST: first baseline instant
      await insertSignalRow(ctx, { createdAt: '2026-03-02T14:59:59.000Z' }); // 03-02 23:59:59 JST: before it
      const res = await desk.api('GET', '/api/v1/workspace/today');
      expect(res.body).toMatchObject({ day: '2026-03-10', from: '2026-03-09T15:00:00.000Z', to: '2026-03-10T15:00:00.000Z' });
      expect(res.body.today.signals).toBe(2);
      expect(res.body.yesterday.signals).toBe(1);
      // 03-09 and 03-03 in the baseline: 2 / 7.
      expect(res.body.baseline7d.signals).toBe(0.29);
    } finally {
      await desk.stop();
    }
  });
});
