/**
 * The review attention watcher on a real desk (manual clock, scheduler driven by hand): the
 * `review.attention` job notices outputs crossing into overdue by time alone, decisions and new
 * outputs reach listeners without waiting for the job, and a restart reports what crossed while
 * the desk was closed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOUR_MS, MINUTE_MS } from '../../core/clock';
import { REVIEW_ATTENTION_JOB } from '../../jobs/review-jobs';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { insertArtifactRow } from '../../testing/fixtures/artifacts';
import { MAX_NEWLY_OVERDUE_LISTED, type ReviewAttentionChange } from './attention-watcher';

const desks: TestDesk[] = [];
afterEach(async () => {
  for (const desk of desks.splice(0)) await desk.stop();
});

async function desk(options: Parameters<typeof startTestDesk>[0] = {}): Promise<TestDesk> {
  const d = await startTestDesk(options);
  desks.push(d);
  return d;
}

const hoursBefore = (d: TestDesk, hours: number) => new Date(d.clock.now().getTime() - hours * HOUR_MS).toISOString();

/** Subscribes and waits for the first message (the current counts). */
async function listen(d: TestDesk): Promise<ReviewAttentionChange[]> {
  const heard: ReviewAttentionChange[] = [];
  d.services.reviewAttention.onChange((change) => heard.push(change));
  await vi.waitFor(() => expect(heard.length).toBeGreaterThan(0));
  return heard;
}

describe('review attention watcher', () => {
  it('an output crossing into overdue by time alone is reported once, by the minute job, with its title', async () => {
    const d = await desk();
    const id = await insertArtifactRow(d, { title: 'Quarterly churn report', readyAt: hoursBefore(d, 71.5) });
    await insertArtifactRow(d, { title: 'Fresh one', readyAt: hoursBefore(d, 1) });
    const heard = await listen(d);
    expect(heard).toEqual([{ ready: 2, watch: 1, overdue: 0, newlyOverdue: [], newlyOverdueTotal: 0 }]);

    // Half an hour later the default policy (overdue from 72 h) makes it overdue; no write happened.
    d.clock.advance(30 * MINUTE_MS);
    expect(await d.services.scheduler.tick()).toContain(REVIEW_ATTENTION_JOB);
    expect(heard.at(-1)).toEqual({ ready: 2, watch: 0, overdue: 1, newlyOverdue: [{ id, title: 'Quarterly churn report' }], newlyOverdueTotal: 1 });

    // A minute on: nothing changed, nobody is told again.
    d.clock.advance(MINUTE_MS);
    expect(await d.services.scheduler.tick()).toContain(REVIEW_ATTENTION_JOB);
    expect(heard).toHaveLength(2);
    expect(d.services.reviewAttention.counts).toEqual({ ready: 2, watch: 0, overdue: 1 });
  });

  it('a decision and a new output reach listeners after the write, without the job; decided outputs leave the counts', async () => {
    const d = await desk();
    const overdue = await insertArtifactRow(d, { readyAt: hoursBefore(d, 80) });
    const heard = await listen(d);
    expect(heard).toEqual([{ ready: 1, watch: 0, overdue: 1, newlyOverdue: [], newlyOverdueTotal: 0 }]);

    expect((await d.api('POST', `/api/v1/artifacts/${overdue}/approve`)).status).toBe(200);
    await vi.waitFor(() => expect(heard.at(-1)).toMatchObject({ ready: 0, overdue: 0 }));

    await insertArtifactRow(d, { readyAt: hoursBefore(d, 2) });
    await vi.waitFor(() => expect(heard.at(-1)).toEqual({ ready: 1, watch: 0, overdue: 0, newlyOverdue: [], newlyOverdueTotal: 0 }));
    expect(heard).toHaveLength(3);
  });

  it('a bulk decision of many outputs is announced once, after it commits', async () => {
    const d = await desk();
    for (let i = 0; i < 5; i++) await insertArtifactRow(d, { readyAt: hoursBefore(d, 80 + i) });
    const heard = await listen(d);
    expect(heard).toEqual([{ ready: 5, watch: 0, overdue: 5, newlyOverdue: [], newlyOverdueTotal: 0 }]);
    expect((await d.api('POST', '/api/v1/artifacts/bulk', { action: 'archive_all' })).status).toBe(200);
    await vi.waitFor(() => expect(heard.at(-1)).toEqual({ ready: 0, watch: 0, overdue: 0, newlyOverdue: [], newlyOverdueTotal: 0 }));
    await d.services.reviewAttention.look();
    expect(heard).toHaveLength(2);
  });

  it('follows the workspace approval policy: Fast (overdue from 12 h) makes a 20-hour wait overdue at the next look', async () => {
    const d = await desk();
    const id = await insertArtifactRow(d, { title: 'Reply to Ann', readyAt: hoursBefore(d, 20) });
    const heard = await listen(d);
    expect(heard.at(-1)).toMatchObject({ watch: 0, overdue: 0 });
    expect((await d.api('PATCH', '/api/v1/workspace/approval-policy', { watchHours: 4, overdueHours: 12 })).status).toBe(200);
    expect(await d.services.reviewAttention.look()).toEqual({ ready: 1, watch: 0, overdue: 1, newlyOverdue: [{ id, title: 'Reply to Ann' }], newlyOverdueTotal: 1 });
  });

  it(`lists at most ${MAX_NEWLY_OVERDUE_LISTED} newly overdue outputs, oldest first, and counts them all`, async () => {
    const d = await desk();
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await insertArtifactRow(d, { readyAt: hoursBefore(d, 71 - i / 60) }));
    await d.services.reviewAttention.look();
    d.clock.advance(2 * HOUR_MS);
    const change = await d.services.reviewAttention.look();
    expect(change?.newlyOverdueTotal).toBe(12);
    expect(change?.newlyOverdue.map((o) => o.id)).toEqual(ids.slice(0, MAX_NEWLY_OVERDUE_LISTED));
  });

  it('after a restart, reports the outputs that crossed while the desk was closed, not those overdue before', async () => {
    const first = await desk();
    const before = await insertArtifactRow(first, { title: 'Overdue yesterday', readyAt: hoursBefore(first, 100) });
    const overnight = await insertArtifactRow(first, { title: 'Crossed overnight', readyAt: hoursBefore(first, 66) });
    await insertArtifactRow(first, { title: 'Still fresh', readyAt: hoursBefore(first, 1) });
    // The minute job looked (its last finished run is the durable last look), then the desk closed.
    expect(await first.services.scheduler.tick()).toContain(REVIEW_ATTENTION_JOB);
    expect(first.services.reviewAttention.counts).toEqual({ ready: 3, watch: 1, overdue: 1 });
    await first.stop({ keepDataDir: true });
    desks.splice(desks.indexOf(first), 1);

    first.clock.advance(10 * HOUR_MS);
    const second = await desk({ dataDir: first.dataDir, ownsDataDir: true, clock: first.clock });
    const heard = await listen(second);
    expect(heard).toEqual([{ ready: 3, watch: 0, overdue: 2, newlyOverdue: [{ id: overnight, title: 'Crossed overnight' }], newlyOverdueTotal: 1 }]);
    expect(heard[0].newlyOverdue.map((o) => o.id)).not.toContain(before);
  });

  it('news found before anyone listened (the job looked first after a restart) reaches the first listener', async () => {
    const first = await desk();
    const overnight = await insertArtifactRow(first, { title: 'Crossed overnight', readyAt: hoursBefore(first, 66) });
    expect(await first.services.scheduler.tick()).toContain(REVIEW_ATTENTION_JOB);
    await first.stop({ keepDataDir: true });
    desks.splice(desks.indexOf(first), 1);

    first.clock.advance(10 * HOUR_MS);
    const second = await desk({ dataDir: first.dataDir, ownsDataDir: true, clock: first.clock });
    expect(await second.services.scheduler.tick()).toContain(REVIEW_ATTENTION_JOB);
    const heard = await listen(second);
    expect(heard).toEqual([{ ready: 1, watch: 0, overdue: 1, newlyOverdue: [{ id: overnight, title: 'Crossed overnight' }], newlyOverdueTotal: 1 }]);
    // Told once: the next look has nothing new.
    second.clock.advance(MINUTE_MS);
    await second.services.scheduler.tick();
    expect(heard).toHaveLength(1);
  });

  it('a fresh desk reports nothing as newly overdue at its first look: the counts show what is overdue', async () => {
    const d = await desk();
    await insertArtifactRow(d, { readyAt: hoursBefore(d, 100) });
    expect(await d.services.reviewAttention.look()).toEqual({ ready: 1, watch: 0, overdue: 1, newlyOverdue: [], newlyOverdueTotal: 0 });
  });

  it('stops looking once stopped (startDesk stops it before closing the database)', async () => {
    const d = await desk();
    await d.services.reviewAttention.stop();
    expect(await d.services.reviewAttention.look()).toBeNull();
    expect(d.services.reviewAttention.counts).toBeNull();
  });
});
