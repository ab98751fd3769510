import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../db/connection';
import { HOUR_MS, ManualClock, MINUTE_MS } from '../core/clock';
import { Scheduler, type Job } from './scheduler';
import { startTestDesk, type TestDesk } from '../testing/desk';

const SECOND_MS = 1000;

let dir: string;
let database: OpenedDatabase;
let clock: ManualClock;
let log: { error: Mock<(message: string) => void> };

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-scheduler-'));
  database = await openDatabase(path.join(dir, 'desk.sqlite'), { synchronous: 'OFF' });
  clock = new ManualClock('2026-03-10T12:00:00.000Z');
  log = { error: vi.fn<(message: string) => void>() };
});
afterEach(async () => {
  await database.close().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A job that counts its runs; `block()` makes the next runs wait until `release()`. */
function countingJob(name = 'count', everyMs = 10 * MINUTE_MS) {
  let runs = 0;
  let gate: Promise<void> | null = null;
  let open: () => void = () => {};
  let notifyStarted: () => void = () => {};
  let started = new Promise<void>((resolve) => (notifyStarted = resolve));
  const job: Job = {
    name,
    everyMs,
    run: async () => {
      runs++;
      notifyStarted();
      if (gate) await gate;
    },
  };
  return {
    job,
    runs: () => runs,
    block() {
      gate = new Promise<void>((resolve) => (open = resolve));
      started = new Promise<void>((resolve) => (notifyStarted = resolve));
    },
    started: () => started,
    release() {
      gate = null;
      open();
    },
  };
}

const stateOf = async (s: Scheduler, name: string) => (await s.states()).find((j) => j.name === name);

describe('Scheduler', () => {
  it('runs a job that never ran on the first tick, then once per interval', async () => {
    const s = new Scheduler(database.db, clock, log);
    const c = countingJob();
    s.register(c.job);

    expect(await s.tick()).toEqual(['count']);
    expect(await s.tick()).toEqual([]);
    clock.advance(10 * MINUTE_MS - SECOND_MS);
    expect(await s.tick()).toEqual([]);
    clock.advance(SECOND_MS);
    expect(await s.tick()).toEqual(['count']);
    // a long gap still means one run, not one per missed interval
    clock.advance(5 * HOUR_MS);
    expect(await s.tick()).toEqual(['count']);
    expect(await s.tick()).toEqual([]);
    expect(c.runs()).toBe(3);
    expect(await stateOf(s, 'count')).toMatchObject({ runCount: 3, lastRunAt: clock.now().toISOString(), lastError: null });
  });

  it('tells when a job last finished, as a later process on the same database reads it', async () => {
    const s = new Scheduler(database.db, clock, log);
    const c = countingJob();
    s.register(c.job);
    expect(await s.lastFinishedAt('count')).toBeNull();
    const finishedAt = clock.now().toISOString();
    expect(await s.runNow('count')).toBe(true);
    clock.advance(HOUR_MS);
    const later = new Scheduler(database.db, clock, log);
    expect((await later.lastFinishedAt('count'))?.toISOString()).toBe(finishedAt);
    expect(await later.lastFinishedAt('never-registered')).toBeNull();
  });

  it('runs each due job of a tick, and only the due ones', async () => {
    const s = new Scheduler(database.db, clock, log);
    const fast = countingJob('fast', MINUTE_MS);
    const slow = countingJob('slow', HOUR_MS);
    s.register(fast.job);
    s.register(slow.job);
    expect((await s.tick()).sort()).toEqual(['fast', 'slow']);
    clock.advance(MINUTE_MS);
    expect(await s.tick()).toEqual(['fast']);
  });

  it('stores the start of a run before the job runs, so a crash mid-run does not run it again early', async () => {
    const s = new Scheduler(database.db, clock, log);
    const c = countingJob();
    s.register(c.job);
    c.block();
    const tick = s.tick();
    await c.started();
    expect(await stateOf(s, 'count')).toMatchObject({ lastRunAt: '2026-03-10T12:00:00.000Z', lastFinishedAt: null, runCount: 1 });
    clock.advance(MINUTE_MS);
    c.release();
    expect(await tick).toEqual(['count']);
    expect(await stateOf(s, 'count')).toMatchObject({ lastRunAt: '2026-03-10T12:00:00.000Z', lastFinishedAt: '2026-03-10T12:01:00.000Z' });
  });

  it('never starts a job that is still running, by tick or by runNow', async () => {
    const s = new Scheduler(database.db, clock, log);
    const c = countingJob();
    s.register(c.job);
    c.block();
    const first = s.tick();
    await c.started();

    clock.advance(HOUR_MS); // due again by the clock, but still running
    expect(await s.tick()).toEqual([]);
    expect(await s.runNow('count')).toBe(false);
    expect(c.runs()).toBe(1);

    c.release();
    expect(await first).toEqual(['count']);
    expect(await s.tick()).toEqual(['count']);
    expect(c.runs()).toBe(2);
  });

  it('runs due jobs independently: a long run never delays another job', async () => {
    const s = new Scheduler(database.db, clock, log);
    const slow = countingJob('slow', MINUTE_MS);
    const fast = countingJob('fast', MINUTE_MS);
    s.registerAll([slow.job, fast.job]); // slow first: a sequential tick would hold fast behind it
    slow.block();
    const first = s.tick();
    await slow.started();
    await vi.waitFor(async () => expect(await stateOf(s, 'fast')).toMatchObject({ lastFinishedAt: '2026-03-10T12:00:00.000Z' }));

    clock.advance(MINUTE_MS);
    expect(await s.tick()).toEqual(['fast']); // slow is still running and is not started again
    expect(fast.runs()).toBe(2);
    expect(slow.runs()).toBe(1);

    slow.release();
    expect((await first).sort()).toEqual(['fast', 'slow']);
  });

  it('two ticks at the same moment run a due job once', async () => {
    const s = new Scheduler(database.db, clock, log);
    const c = countingJob();
    s.register(c.job);
    const [a, b] = await Promise.all([s.tick(), s.tick()]);
    expect([...a, ...b]).toEqual(['count']);
    expect(c.runs()).toBe(1);
    const [x, y] = await Promise.all([s.runNow('count'), s.runNow('count')]);
    expect([x, y].sort()).toEqual([false, true]);
    expect(c.runs()).toBe(2);
  });

  it('records an error, keeps running the other jobs, and clears the error on the next good run', async () => {
    const s = new Scheduler(database.db, clock, log);
    let fail = true;
    s.register({
      name: 'flaky',
      everyMs: MINUTE_MS,
      run: async () => {
        if (fail) throw new Error('feed unreachable');
      },
    });
    const other = countingJob('other', MINUTE_MS);
    s.register(other.job);

    expect((await s.tick()).sort()).toEqual(['flaky', 'other']);
    expect(await stateOf(s, 'flaky')).toMatchObject({ lastError: 'feed unreachable', runCount: 1, lastFinishedAt: '2026-03-10T12:00:00.000Z' });
    expect(log.error).toHaveBeenCalledWith(expect.stringContaining('feed unreachable'));
    expect(other.runs()).toBe(1);

    // a failed run still counts as a run: not retried before its interval
    expect(await s.tick()).toEqual([]);
    fail = false;
    clock.advance(MINUTE_MS);
    await s.tick();
    expect(await stateOf(s, 'flaky')).toMatchObject({ lastError: null, runCount: 2 });
  });

  it('runNow runs a job that is not due; unknown names and double registration are refused', async () => {
    const s = new Scheduler(database.db, clock, log);
    const c = countingJob();
    s.register(c.job);
    await s.tick();
    expect(await s.runNow('count')).toBe(true);
    expect(c.runs()).toBe(2);
    await expect(s.runNow('nope')).rejects.toThrow(/nope/);
    expect(() => s.register(countingJob().job)).toThrow(/twice/);
  });

  it('keeps the last run across a restart: a new scheduler on the same database does not run early', async () => {
    const first = new Scheduler(database.db, clock, log);
    const c1 = countingJob();
    first.register(c1.job);
    expect(await first.tick()).toEqual(['count']);
    await database.close();

    database = await openDatabase(path.join(dir, 'desk.sqlite'), { synchronous: 'OFF' });
    const second = new Scheduler(database.db, clock, log);
    const c2 = countingJob();
    second.register(c2.job);
    clock.advance(5 * MINUTE_MS);
    expect(await second.tick()).toEqual([]);
    clock.advance(5 * MINUTE_MS);
    expect(await second.tick()).toEqual(['count']);
    expect(c2.runs()).toBe(1);
    expect(await stateOf(second, 'count')).toMatchObject({ runCount: 2 });
  });

  it('start() runs due jobs on its own; stop() waits for the running one and then stays quiet', async () => {
    const s = new Scheduler(database.db, clock, log);
    const c = countingJob();
    s.register(c.job);
    c.block();
    s.start(60_000);
    await c.started();

    let stopped = false;
    const stopping = s.stop().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    c.release();
    await stopping;
    expect(stopped).toBe(true);
    expect(await stateOf(s, 'count')).toMatchObject({ runCount: 1, lastFinishedAt: '2026-03-10T12:00:00.000Z' });

    clock.advance(HOUR_MS);
    expect(await s.tick()).toEqual([]);
    expect(c.runs()).toBe(1);
  });
  it('stop() also waits for a run started by nudge(), so the database is not closed under it', async () => {
    const s = new Scheduler(database.db, clock, log);
    const c = countingJob('nudged', HOUR_MS);
    s.register(c.job);
    s.start(60_000);
    await vi.waitFor(async () => expect(await stateOf(s, 'nudged')).toMatchObject({ runCount: 1, lastFinishedAt: expect.any(String) }));

    c.block();
    s.nudge('nudged');
    await c.started();
    let stopped = false;
    const stopping = s.stop().then(() => (stopped = true));
    // Give stop() every chance to resolve early: it must not while the nudged run is blocked.
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    c.release();
    await stopping;
    expect(await stateOf(s, 'nudged')).toMatchObject({ runCount: 2, lastError: null });
    expect(log.error).not.toHaveBeenCalled();
  });

  it('a tick that fails outside a job (the database) is logged, not thrown into the timer', async () => {
    const s = new Scheduler(database.db, clock, log);
    let notify: () => void = () => {};
    const started = new Promise<void>((resolve) => (notify = resolve));
    s.register({
      name: 'closes-db',
      everyMs: MINUTE_MS,
      run: async () => {
        await database.close(); // recording the end of the run now fails
        notify();
      },
    });
    s.start(60_000);
    await started;
    await expect(s.stop()).resolves.toBeUndefined();
    expect(log.error).toHaveBeenCalledWith(expect.stringMatching(/scheduler/i));
  });
});

describe('the desk scheduler', () => {
  let desk: TestDesk | null = null;
  afterEach(async () => {
    await desk?.stop();
    desk = null;
  });

  it('keeps the last run of its jobs across a restart with the same data folder', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-restart-'));
    desk = await startTestDesk({ dataDir, clock: new ManualClock('2026-03-10T12:00:00.000Z') });
    expect(await desk.services.scheduler.tick()).toContain('workspace.pause-resume');
    const before = await stateOf(desk.services.scheduler, 'workspace.pause-resume');
    await desk.stop();

    desk = await startTestDesk({ dataDir, ownsDataDir: true, clock: new ManualClock('2026-03-10T12:00:05.000Z') });
    expect(await desk.services.scheduler.tick()).not.toContain('workspace.pause-resume');
    expect(await stateOf(desk.services.scheduler, 'workspace.pause-resume')).toEqual(before);
    desk.clock.advance(10 * SECOND_MS);
    expect(await desk.services.scheduler.tick()).toContain('workspace.pause-resume');
    expect(await stateOf(desk.services.scheduler, 'workspace.pause-resume')).toMatchObject({ runCount: 2, lastError: null });
  });

  it('resumes a scheduled pause that ran out while the desk was stopped, on the first tick after the restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-restart-'));
    const clock1 = new ManualClock('2026-03-10T12:00:00.000Z');
    desk = await startTestDesk({ dataDir, clock: clock1 });
    await desk.api('PATCH', '/api/v1/workspace/pause-until', { pauseUntilAt: '2026-03-11T12:00:00.000Z' });
    await desk.stop();

    desk = await startTestDesk({ dataDir, ownsDataDir: true, clock: new ManualClock('2026-03-12T08:00:00.000Z') });
    expect((await desk.api('GET', '/api/v1/workspace')).body.loopState).toBe('paused');
    await desk.services.scheduler.tick();
    expect((await desk.api('GET', '/api/v1/workspace')).body).toMatchObject({ loopState: 'on', pauseUntilAt: null });
    const rows = (await desk.api('GET', '/api/v1/activity?kind=workspace.pause_expired')).body.activities;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorLabel: 'system', createdAt: '2026-03-12T08:00:00.000Z' });
  });
});

describe('nudge', () => {
  it('does nothing while the scheduler timer is off (tests, before start)', async () => {
    const s = new Scheduler(database.db, clock, log);
    const c = countingJob();
    s.register(c.job);
    s.nudge('count');
    await s.stop();
    expect(c.runs()).toBe(0);
  });

  it('runs the job at once, outside its cadence, once the scheduler runs', async () => {
    const s = new Scheduler(database.db, clock, log);
    const c = countingJob();
    s.register(c.job);
    s.start(60 * 60 * SECOND_MS);
    await vi.waitFor(() => expect(c.runs()).toBe(1)); // the first tick at start
    s.nudge('count'); // not due for 10 minutes on the clock, but nudged
    await c.started();
    await vi.waitFor(() => expect(c.runs()).toBe(2));
    await s.stop();
  });
});
