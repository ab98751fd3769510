import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, ManualClock, MINUTE_MS } from '../core/clock';
import { idTime } from '../core/ids';
import { startTestDesk, type TestDesk } from '../testing/desk';
import { chargeCycle, cost } from '../testing/fixtures/cost';
import { fixture, startFeedServer, type FeedServer } from '../testing/fakes/feed-server';
import { startTestReceiver } from '../testing/fakes/webhook-receiver';
import { createSignal } from '../testing/fixtures/signals';
import { createTask } from '../testing/fixtures/tasks';
import { createFeedSource } from '../testing/fixtures/sources';
import { DAILY_BACKUP_JOB } from './backup-jobs';
import { DIGEST_JOB } from './digest-jobs';
import { FEED_POLL_JOB } from './feed-poller';
import { LOOP_CYCLE_JOB } from './loop-jobs';

/**
 * Issue 31, part 5: the system clock moving back an hour, forward a day, or a laptop sleeping
 * through several scheduled cycles. No job runs twice for one slot, none waits for the clock to
 * catch up, ids stay in order, the workspace day and the cap's day follow the clock, the digest
 * goes once a day. The desk's scheduler is driven by hand (tick) on its ManualClock; the workspace
 * is in New York (the clock starts at Tue 10 Mar 2026, 08:00 EDT).
 */

const START = '2026-03-10T12:00:00.000Z';
let desk: TestDesk;
let clock: ManualClock;
let feeds: FeedServer;

beforeAll(async () => {
  feeds = await startFeedServer();
});
afterAll(async () => feeds.close());

beforeEach(async () => {
  clock = new ManualClock(START);
  desk = await startTestDesk({ clock, seed: { timezone: 'America/New_York', plan: 'pro' } });
  expect((await desk.api('PATCH', '/api/v1/workspace/digest-email', { digestEmail: 'ops@example.com' })).status).toBe(200);
});
afterEach(async () => desk.stop());

const runs = async (): Promise<{ id: string; trigger: string; startedAt: string }[]> => (await desk.api('GET', '/api/v1/runs?limit=100')).body.runs;
const scheduledRuns = async () => (await runs()).filter((r) => r.trigger === 'schedule');
const backups = async (): Promise<string[]> => (await desk.api('GET', '/api/v1/backups')).body.backups.map((b: { name: string }) => b.name);
const digestRuns = async () => (await desk.services.db.selectFrom('activity').select('detail').where('kind', '=', 'digest.run').orderBy('id').execute()).map((r) => r.detail);
const interval = async (): Promise<number> => (await desk.api('GET', '/api/v1/workspace')).body.effectiveLoopIntervalMinutes * MINUTE_MS;
/** A scheduler look with something for the loop to do (a scheduled cycle with no new signal writes nothing). */
async function tickWithWork(): Promise<string[]> {
  await createSignal(desk, { title: `news at ${clock.now().toISOString()}` });
  return desk.services.scheduler.tick();
}

describe('clock jumps and sleep', () => {
  it('a clock put back an hour runs no job twice for its slot, and holds none back past one interval', async () => {
    const every = await interval();
    expect(await tickWithWork()).toEqual(expect.arrayContaining([LOOP_CYCLE_JOB, DAILY_BACKUP_JOB, DIGEST_JOB]));
    expect(await scheduledRuns()).toHaveLength(1);
    expect(await backups()).toHaveLength(1);
    expect(await digestRuns()).toHaveLength(1);

    clock.advance(-HOUR_MS);
    const jumpedAt = clock.now().getTime();
    expect(await tickWithWork()).toEqual([]);
    // Jobs look again on their own cadence from the jump, not from where the clock used to be.
    clock.advance(15_000);
    expect(await tickWithWork()).toContain(LOOP_CYCLE_JOB);
    expect(await scheduledRuns()).toHaveLength(1);
    clock.set(new Date(jumpedAt + every - MINUTE_MS));
    await tickWithWork();
    expect(await scheduledRuns()).toHaveLength(1);
    // The loop first saw the last cycle ahead of the clock at its look 15 s after the jump.
    clock.set(new Date(jumpedAt + 15_000 + every));
    await tickWithWork();
    expect((await scheduledRuns()).map((r) => r.startedAt)).toContain(new Date(jumpedAt + 15_000 + every).toISOString());
    expect(await scheduledRuns()).toHaveLength(2);
    // The daily backup and the digest: once for the day they ran, the next a day after the jump.
    clock.set(new Date(jumpedAt + DAY_MS - MINUTE_MS));
    expect(await tickWithWork()).not.toContain(DAILY_BACKUP_JOB);
    expect(await backups()).toHaveLength(1);
    clock.set(new Date(jumpedAt + DAY_MS));
    expect(await tickWithWork()).toContain(DAILY_BACKUP_JOB);
    expect(await backups()).toHaveLength(2);
    expect(await digestRuns()).toHaveLength(1);
    clock.advance(HOUR_MS); // Wednesday 08:00 EDT
    expect(await tickWithWork()).toContain(DIGEST_JOB);
    expect(await digestRuns()).toEqual([expect.stringContaining('2026-03-10'), expect.stringContaining('2026-03-11')]);
  });

  it('a laptop that sleeps through several cycles, or a clock a day ahead, runs each job once', async () => {
    const every = await interval();
    await tickWithWork();
    expect(await scheduledRuns()).toHaveLength(1);
    // Asleep for six intervals: one cycle on waking, not six.
    clock.advance(6 * every + 5 * MINUTE_MS);
    expect(await tickWithWork()).toContain(LOOP_CYCLE_JOB);
    expect(await tickWithWork()).not.toContain(DAILY_BACKUP_JOB);
    expect(await scheduledRuns()).toHaveLength(2);
    // A day ahead (and asleep three days after that): each daily job once per look that finds it due.
    clock.set(new Date(Date.parse(START) + DAY_MS));
    expect(await tickWithWork()).toEqual(expect.arrayContaining([DAILY_BACKUP_JOB, DIGEST_JOB, LOOP_CYCLE_JOB]));
    expect(await tickWithWork()).not.toEqual(expect.arrayContaining([DAILY_BACKUP_JOB]));
    clock.set(new Date(Date.parse(START) + 4 * DAY_MS));
    await tickWithWork();
    await tickWithWork();
    expect(await backups()).toHaveLength(3);
    expect(await scheduledRuns()).toHaveLength(4);
    expect(await digestRuns()).toEqual([expect.stringContaining('2026-03-10'), expect.stringContaining('2026-03-11'), expect.stringContaining('2026-03-14')]);
  });

  it('sends the digest once a day however the clock moves, and again the next day', async () => {
    const digest = () => desk.services.scheduler.runNow(DIGEST_JOB);
    await digest();
    expect(await digestRuns()).toHaveLength(1);
    clock.set('2026-03-10T11:00:00.000Z'); // back an hour: 07:00 EDT
    await digest();
    clock.set('2026-03-10T12:30:00.000Z'); // 08:30 EDT, the same day again
    await digest();
    clock.set('2026-03-09T12:30:00.000Z'); // back a day: Monday 08:30 EDT, after Tuesday's digest
    await digest();
    clock.set('2026-03-10T13:00:00.000Z'); // Tuesday again
    await digest();
    expect(await digestRuns()).toHaveLength(1);
    // Wednesday 08:00 EDT: the gate counts from the jump back (Monday 08:30), long past.
    clock.set('2026-03-11T12:00:00.000Z');
    await digest();
    expect(await digestRuns()).toEqual([expect.stringContaining('2026-03-10'), expect.stringContaining('2026-03-11')]);
    // A clock that ran a week ahead (the digest went out for the 18th) and is put right: the next
    // morning's digest goes, not the one after the clock has caught up with the 18th.
    clock.set('2026-03-18T12:00:00.000Z');
    await digest();
    clock.set('2026-03-12T09:00:00.000Z'); // put right: Thursday 05:00 EDT
    await digest();
    clock.set('2026-03-12T12:00:00.000Z');
    await digest();
    expect(await digestRuns()).toHaveLength(3);
    clock.set('2026-03-13T12:00:00.000Z');
    await digest();
    expect((await digestRuns()).at(-1)).toContain('2026-03-13');
  });

  it('keeps ids in the order things were made when the clock goes back', async () => {
    const first = await createSignal(desk, { title: 'before the jump' });
    clock.advance(-HOUR_MS);
    const second = await createSignal(desk, { title: 'after the jump' });
    clock.advance(-DAY_MS);
    const third = await createSignal(desk, { title: 'a day further back' });
    expect([first.id, second.id, third.id]).toEqual([first.id, second.id, third.id].sort());
    expect(third.createdAt).toBe('2026-03-09T11:00:00.000Z'); // the clock's time, as it read
    // The loop's worker thread makes its ids from the stored ones too.
    const run = (await desk.api('POST', '/api/v1/runs')).body;
    expect(run.status).toBe('completed');
    const made = [run.id, ...run.produced.createdTaskIds, ...run.produced.artifactIds];
    expect(made.length).toBeGreaterThan(1);
    const ulidOf = (id: string) => id.slice(id.indexOf('_') + 1);
    for (const id of made) expect(ulidOf(id) > ulidOf(third.id), `${id} after ${third.id}`).toBe(true);
    for (const id of made) expect(idTime(id)!).toBeGreaterThanOrEqual(idTime(first.id)!);
  });

  it('polls a feed one interval after the clock went back past its last poll, not once the clock catches up', async () => {
    feeds.set('/clock-feed', { body: fixture('rss.xml') });
    const source = await createFeedSource(desk, feeds.url('/clock-feed'), { label: 'Acme news', pollIntervalMinutes: 60 });
    const polls = () => feeds.requests.filter((r) => r.path === '/clock-feed').length;
    await desk.services.scheduler.runNow(FEED_POLL_JOB);
    expect(polls()).toBe(1);
    clock.advance(-3 * HOUR_MS);
    const jumpedAt = clock.now().getTime();
    await desk.services.scheduler.runNow(FEED_POLL_JOB);
    clock.set(new Date(jumpedAt + 59 * MINUTE_MS));
    await desk.services.scheduler.runNow(FEED_POLL_JOB);
    expect(polls()).toBe(1);
    clock.set(new Date(jumpedAt + HOUR_MS));
    await desk.services.scheduler.runNow(FEED_POLL_JOB);
    expect(polls()).toBe(2);
    expect((await desk.api('GET', `/api/v1/sources/${source.id}`)).body.lastPolledAt).toBe(new Date(jumpedAt + HOUR_MS).toISOString());
  });

  it('retries an outbound delivery on its backoff after the clock went back, not once the clock catches up', async () => {
    const receiver = await startTestReceiver();
    try {
      receiver.answer = () => ({ status: 503 });
      expect((await desk.api('POST', '/api/v1/outbound/subscriptions', { url: receiver.url, events: ['task.created'] })).status).toBe(201);
      await createTask(desk);
      const { worker } = desk.services.outbound;
      await worker.settle();
      expect(receiver.received).toHaveLength(1);
      const d = await desk.services.db.selectFrom('outboundDeliveries').selectAll().executeTakeFirstOrThrow();
      const wait = Date.parse(d.nextAttemptAt!) - Date.parse(d.lastAttemptAt!);
      clock.advance(-HOUR_MS);
      await worker.settle();
      expect(receiver.received).toHaveLength(1);
      clock.advance(wait);
      await worker.settle();
      expect(receiver.received).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });

  it('keeps the workspace day and the cap day on the calendar day the clock reads', async () => {
    expect((await desk.api('PATCH', '/api/v1/workspace/cost-cap', { dailyCostCapUsdCents: 1 })).status).toBe(200);
    clock.set('2026-03-11T03:30:00.000Z'); // 23:30 EDT on Tuesday
    await chargeCycle(desk, {}, cost(20_000));
    const stats = async () => (await desk.api('GET', '/api/v1/stats')).body;
    expect((await stats()).phase).toBe('capped');
    clock.advance(HOUR_MS); // 00:30 on Wednesday: a new day under the cap
    expect((await stats()).phase).not.toBe('capped');
    expect((await desk.api('POST', '/api/v1/runs')).status).toBe(200);
    clock.advance(-HOUR_MS); // back to Tuesday, whose spend reached the cap
    expect((await stats()).phase).toBe('capped');
    expect((await desk.api('POST', '/api/v1/runs')).status).toBe(409);
    const day = (await desk.api('GET', '/api/v1/cost/today')).body;
    expect(JSON.stringify(day)).toContain('2026-03-10');
  });
});
