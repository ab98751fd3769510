import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../../db/connection';
import { notifyTablesWritten } from '../../../db/statement-cache';
import { createEngine } from '../../engine/index';
import { dbFingerprint } from '../../testing/db-fingerprint';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { startChatServer, type ChatServer } from '../../testing/fakes/chat-server';
import { insertMemoryRow, insertSignalRow, insertTask } from '../../testing/fixtures/loop';
import { createSignal } from '../../testing/fixtures/signals';
import { readWorkspace } from '../workspace/workspace-store';
import {
  cycleWorkerRunning,
  cycleWorkerThreadId,
  cycleWorkerThreads,
  setCycleWorkerIdleStop,
  terminateCycleWorker,
  WORKER_IDLE_STOP_MS,
  WorkerCycleExecutor,
} from './cycle-worker-executor';
import type { CyclePhase } from './cycle';
import { LoopService } from './loop-service';
import type { Run } from './run-record';

/**
 * Cycles in the cycle worker (the default of a desk: startDesk), against the same cycle inline: a
 * real file-backed test desk, the built-in local engine (or the OpenAI-compatible one against a
 * fake server on 127.0.0.1), the desk's ManualClock.
 */

const desks: TestDesk[] = [];
async function desk(): Promise<TestDesk> {
  const d = await startTestDesk();
  desks.push(d);
  return d;
}
afterEach(async () => {
  for (const d of desks.splice(0)) await d.stop();
});

let chat: ChatServer;
beforeAll(async () => {
  chat = await startChatServer();
});
afterAll(async () => {
  await chat.close();
});

const KEY = 'sk-test-worker-0123456789';

/** The same workspace state in any desk: fixed ids, one open task with a note, memory to retrieve. */
async function seed(d: TestDesk): Promise<void> {
  const ctx = { db: d.services.db, clock: d.clock };
  const titles = ['Checkout latency spike after release', 'Refund requests pile up', 'Pricing page confuses trial users', 'Onboarding wizard loses settings'];
  for (const [i, title] of titles.entries()) await insertSignalRow(ctx, { id: `sig_seed_${i}`, title, detail: `Customers report: ${title.toLowerCase()} since Monday.`, priority: i % 2 ? 'high' : 'normal' });
  await insertTask(ctx, { id: 'tsk_seed_open', title: 'Pricing page rework', summary: 'Make pricing clear for trial users' }, ['pricing']);
  await d.services.db.insertInto('taskNotes').values({ id: 'tno_seed_1', taskId: 'tsk_seed_open', text: 'Focus on the trial tier', authorUserId: null, createdAt: d.clock.now().toISOString() }).execute();
  await insertMemoryRow(ctx, { id: 'mem_seed_1', title: 'Pricing tiers', content: 'Trial users see the pricing page first; seats are priced per month.' });
  await insertMemoryRow(ctx, { id: 'mem_seed_2', title: 'Refund policy', content: 'Refunds within 30 days, no questions asked.' });
}

/** What a cycle left in the database, without generated ids and timestamps (ids of rows the cycle made read as their titles). */
async function outcome(db: Db, run: Run) {
  const tasks = await db.selectFrom('tasks').selectAll().execute();
  const artifacts = await db.selectFrom('artifacts').selectAll().execute();
  const memory = await db.selectFrom('memory').selectAll().execute();
  const label = new Map<string, string>([[run.id, 'the run'], ...tasks.map((t) => [t.id, `task:${t.title}`] as const), ...artifacts.map((a) => [a.id, `output:${a.title}#${a.version}`] as const), ...memory.map((m) => [m.id, `memory:${m.title}`] as const)]);
  const named = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replace(/\b(?:tsk|art|run|mem)_[0-9A-HJKMNP-TV-Z]{26}\b/g, (id) => label.get(id) ?? 'unknown-id'));
  const strip = (row: Record<string, unknown>) => named(Object.fromEntries(Object.entries(row).filter(([k]) => k !== 'id' && !/At$/.test(k) && k !== 'durationMs' && k !== 'engineMs')));
  const sorted = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).sort();
  const all = async (table: 'taskTags' | 'taskWorkLog' | 'taskNotes' | 'signals' | 'costDaily' | 'memoryRetrievalDaily' | 'artifactTags' | 'memoryTags') => sorted((await db.selectFrom(table).selectAll().execute()).map((r) => strip(r as Record<string, unknown>)));
  const { id: _id, startedAt: _s, finishedAt: _f, durationMs: _d, engineMs: _e, ...record } = run;
  return {
    run: named(record),
    tasks: sorted(tasks.map((t) => strip(t))),
    artifacts: sorted(artifacts.map((a) => strip(a))),
    memory: sorted(memory.map((m) => strip(m))),
    taskTags: await all('taskTags'),
    workLog: await all('taskWorkLog'),
    notes: await all('taskNotes'),
    signals: await all('signals'),
    cost: await all('costDaily'),
    retrievals: await all('memoryRetrievalDaily'),
    events: (await db.selectFrom('outboxEvents').select('event').execute()).map((e) => e.event).sort(),
    activity: (await db.selectFrom('activity').select('kind').execute()).map((a) => a.kind).sort(),
  };
}

/** Renames the workspace through a connection of its own: a write the desk's connection does not see being made. */
function renameElsewhere(dataDir: string): void {
  const other = new Database(path.join(dataDir, 'desk.sqlite'));
  try {
    other.prepare("UPDATE workspace SET name = 'Renamed elsewhere'").run();
  } finally {
    other.close();
  }
}

describe('a cycle in the cycle worker', () => {
  it('writes what the same cycle inline writes (local engine), and the run record says the same', async () => {
    const inWorker = await desk();
    const inline = await desk();
    await seed(inWorker);
    await seed(inline);
    const workerRun = await inWorker.services.loop.runNow();
    expect(cycleWorkerRunning()).toBe(true);
    const inlineRun = await new LoopService({ db: inline.services.db, clock: inline.clock, engineFor: (s) => createEngine(s, null) }).runNow();
    expect(workerRun).toMatchObject({ status: 'completed', trigger: 'manual', engine: 'local', errorMessage: null, startedAt: inWorker.clock.now().toISOString() });
    expect(workerRun.produced.createdTaskIds.length).toBeGreaterThan(0);
    expect(workerRun.produced.artifactIds.length).toBeGreaterThan(0);
    expect(workerRun.read.memoryIds.length).toBeGreaterThan(0);
    expect(await outcome(inWorker.services.db, workerRun)).toEqual(await outcome(inline.services.db, inlineRun));
  });

  it('the desk’s caches see its writes at once: GET /artifacts, GET /tasks and GET /stats right after the cycle', async () => {
    const d = await desk();
    await createSignal(d, { title: 'Competitor cut prices by half', detail: 'Their pricing page now lists a free tier.' });
    // Fill the review queue's cache (artifacts, tasks) and the workspace row's before the cycle.
    expect((await d.api('GET', '/api/v1/artifacts')).body.artifacts).toEqual([]);
    expect((await d.api('GET', '/api/v1/workspace')).status).toBe(200);
    const run = (await d.api('POST', '/api/v1/runs')).body as Run;
    expect(run.status).toBe('completed');
    const queue = (await d.api('GET', '/api/v1/artifacts')).body;
    expect(queue.artifacts.map((a: { id: string }) => a.id).sort()).toEqual([...run.produced.artifactIds].sort());
    const tasks = (await d.api('GET', '/api/v1/tasks')).body.tasks.map((t: { id: string }) => t.id);
    expect(tasks).toEqual(expect.arrayContaining(run.produced.createdTaskIds));
    expect((await d.api('GET', '/api/v1/stats')).body).toMatchObject({ phase: 'idle', runningRunId: null, lastRun: { id: run.id, status: 'completed' } });
  });

  it('a write by another connection reaches the workspace row the desk keeps once notifyTablesWritten names its table', async () => {
    const d = await desk();
    const db = d.services.db;
    expect((await readWorkspace(db)).name).toBe('My desk');
    renameElsewhere(d.dataDir);
    expect((await readWorkspace(db)).name).toBe('My desk'); // kept: nobody told the desk
    notifyTablesWritten(db, ['workspace']);
    expect((await readWorkspace(db)).name).toBe('Renamed elsewhere');
    expect((await d.api('GET', '/api/v1/workspace')).body.name).toBe('Renamed elsewhere');
  });

  it('a failure inside the worker’s apply fails the run with its message and writes nothing else', async () => {
    const d = await desk();
    await seed(d);
    const db = d.services.db;
    // A real failure in the worker's transaction, after it has created tasks: SQLite refuses outputs.
    const other = new Database(path.join(d.dataDir, 'desk.sqlite'));
    other.exec("CREATE TRIGGER refuse_outputs BEFORE INSERT ON artifacts BEGIN SELECT RAISE(ABORT, 'outputs refused by the test'); END");
    other.close();
    const before = await dbFingerprint(db);
    const run = await d.services.loop.runNow();
    expect(run).toMatchObject({ status: 'failed', errorMessage: 'The cycle could not be completed: outputs refused by the test', produced: { createdTaskIds: [], artifactIds: [] } });
    const after = await dbFingerprint(db);
    for (const table of Object.keys(before).filter((t) => !['runs', 'activity', 'outbox_events'].includes(t))) expect(after[table], table).toEqual(before[table]);
    expect((await db.selectFrom('outboxEvents').select(['event']).where('createdAt', '>=', d.clock.now().toISOString()).execute()).map((e) => e.event)).toEqual(['run.failed']);
    expect(await db.selectFrom('runs').select(['id', 'status']).execute()).toEqual([{ id: run.id, status: 'failed' }]);
  });

  it('a worker that stops mid-cycle fails the run (nothing else written); the next cycle starts a new worker', async () => {
    const d = await desk();
    await seed(d);
    expect((await d.api('PUT', '/api/v1/workspace/engine', { engine: 'openai', model: 'gpt-4o-mini', baseUrl: chat.baseUrl, apiKey: KEY })).status).toBe(200);
    chat.answer({ hang: true });
    const before = await dbFingerprint(d.services.db);
    const pending = d.services.loop.runNow();
    // The worker is inside the engine call (its request reached the provider, with the key it was handed).
    await vi.waitFor(() => expect(chat.requests.length).toBe(1), { timeout: 15_000, interval: 20 });
    expect(chat.requests[0].authorization).toBe(`Bearer ${KEY}`);
    const runtime = await d.services.loop.runtime();
    expect(runtime.phase).toBe('running');
    // Meanwhile the desk answers and writes.
    expect((await d.api('POST', '/api/v1/runs')).status).toBe(409);
    await createSignal(d, { title: 'Arrived during the cycle' });
    await terminateCycleWorker();
    const run = await pending;
    expect(run.id).toBe(runtime.runningRunId);
    expect(run.status).toBe('failed');
    expect(run.errorMessage).toMatch(/^The cycle could not be completed: the cycle worker stopped before the cycle finished/);
    expect(run.errorMessage).not.toContain(KEY);
    const after = await dbFingerprint(d.services.db);
    for (const table of ['tasks', 'artifacts', 'task_work_log', 'cost_daily', 'memory']) expect(after[table], table).toEqual(before[table]);
    expect(after.signals.length).toBe(before.signals.length + 1);
    // A new worker takes the next cycle (back on the local engine): the signals are all still new.
    expect((await d.api('PUT', '/api/v1/workspace/engine', { engine: 'local' })).status).toBe(200);
    d.clock.advanceMinutes(1);
    const next = await d.services.loop.runNow();
    expect(next.status).toBe('completed');
    expect(next.read.signalIds).toHaveLength(5);
  });

  it('the worker tells the desk each phase of the cycle as it goes (gathering, applying with the local engine)', async () => {
    const d = await desk();
    await seed(d);
    const executor = new WorkerCycleExecutor({ db: d.services.db, file: path.join(d.dataDir, 'desk.sqlite'), apiKeyFor: () => null });
    const phases: CyclePhase[] = [];
    let runId: string | null = null;
    try {
      const job = { trigger: 'manual' as const, skipIfIdle: false, workspace: await readWorkspace(d.services.db), startedAt: d.clock.now().toISOString(), budgetMicroUsd: null };
      const outcome = await executor.run(job, { onRunning: (id) => (runId = id), onPhase: (p) => phases.push(p) });
      expect(outcome).toEqual({ kind: 'ran', runId });
    } finally {
      await executor.close();
    }
    expect(phases.map((p) => p.phase)).toEqual(['gathering', 'applying']);
    expect(phases.every((p) => !Number.isNaN(Date.parse(p.since)))).toBe(true);
  });

  it('a cancel stops the cycle in the worker while it waits on the provider: the run fails with cancelledAt, nothing else written', async () => {
    const d = await desk();
    await seed(d);
    expect((await d.api('PUT', '/api/v1/workspace/engine', { engine: 'openai', model: 'gpt-4o-mini', baseUrl: chat.baseUrl, apiKey: KEY })).status).toBe(200);
    chat.answer({ hang: true });
    const asked = chat.requests.length;
    const before = await dbFingerprint(d.services.db);
    const pending = d.services.loop.runNow();
    await vi.waitFor(() => expect(chat.requests.length).toBe(asked + 1), { timeout: 15_000, interval: 20 });
    const { runningRunId, cycle } = await d.services.loop.runtime();
    expect(cycle).toMatchObject({ runId: runningRunId, cancelling: false });
    const thread = cycleWorkerThreadId();
    const run = await d.services.loop.cancel(runningRunId!);
    expect(run).toMatchObject({ id: runningRunId, status: 'failed', inputTokens: 0, outputTokens: 0, estimatedCostUsd: 0 });
    expect(run.cancelledAt).not.toBeNull();
    expect(run.errorMessage).toMatch(/^Cancelled by the operator/);
    expect(await pending).toEqual(run);
    // The worker stopped the cycle itself (it was not terminated) and serves the next one.
    expect(cycleWorkerThreadId()).toBe(thread);
    const after = await dbFingerprint(d.services.db);
    for (const table of Object.keys(before).filter((t) => !['runs', 'activity', 'outbox_events'].includes(t))) expect(after[table], table).toEqual(before[table]);
    expect((await d.services.db.selectFrom('activity').select('detail').where('kind', '=', 'run.failed').execute()).map((a) => a.detail)).toEqual([`AI cycle (manual) cancelled: ${run.errorMessage}`]);
    expect((await d.services.loop.runtime()).cycle).toBeNull();
  });

  it('desk writes during a worker cycle succeed (they wait for the worker’s write lock, never fail)', async () => {
    const d = await desk();
    const ctx = { db: d.services.db, clock: d.clock };
    for (let i = 0; i < 300; i++) await insertSignalRow(ctx, { id: `sig_many_${String(i).padStart(4, '0')}`, title: `Report ${i}: checkout latency and refunds`, detail: 'Customers report slow checkout and refund delays.' });
    let done = false;
    const cycle = d.services.loop.runNow().finally(() => {
      done = true;
    });
    const statuses: number[] = [];
    while (!done) statuses.push((await d.api('POST', '/api/v1/signals', { kind: 'news', priority: 'normal', title: `Posted during the cycle ${statuses.length}`, detail: 'x' })).status);
    const run = await cycle;
    expect(run.status).toBe('completed');
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set([201]));
    const posted = await d.services.db.selectFrom('signals').select(['id']).where('title', 'like', 'Posted during the cycle%').execute();
    expect(posted).toHaveLength(statuses.length);
  });
});

describe('the cycle worker between cycles', () => {
  // The host is the process's (files share a fork's modules): every test leaves the real delay behind.
  afterEach(() => setCycleWorkerIdleStop(WORKER_IDLE_STOP_MS));

  /** Until every cycle worker thread has exited (the idle stop's terminate() included). */
  const allStopped = () => vi.waitFor(() => expect(cycleWorkerThreads()).toBe(0), { timeout: 10_000, interval: 5 });

  it('stops once idle for the delay; the next cycle starts a new worker and writes what the first one did', async () => {
    const first = await desk();
    const second = await desk();
    await seed(first);
    await seed(second);
    setCycleWorkerIdleStop(20);
    const run = await first.services.loop.runNow();
    expect(run.status).toBe('completed');
    await allStopped();
    expect(cycleWorkerRunning()).toBe(false);
    setCycleWorkerIdleStop(WORKER_IDLE_STOP_MS);
    const next = await second.services.loop.runNow();
    expect(cycleWorkerRunning()).toBe(true);
    expect(await outcome(second.services.db, next)).toEqual(await outcome(first.services.db, run));
    // The first desk's connection went with the stopped worker: the new one opens its own.
    first.clock.advanceMinutes(1);
    expect((await first.services.loop.runNow()).status).toBe('completed');
  });

  it('an idle stop fails nothing and drops no cache of the desk (nothing was waiting on it)', async () => {
    const d = await desk();
    const db = d.services.db;
    expect((await readWorkspace(db)).name).toBe('My desk');
    renameElsewhere(d.dataDir);
    setCycleWorkerIdleStop(20);
    await d.services.loop.prepare();
    await allStopped();
    // A dropped cache would read the row again and see the rename.
    expect((await readWorkspace(db)).name).toBe('My desk');
  });

  it('a request before the delay goes to the same worker, and while it waits the worker is kept past the delay', async () => {
    const d = await desk();
    await seed(d);
    setCycleWorkerIdleStop(1_000);
    expect((await d.services.loop.runNow()).status).toBe('completed');
    const thread = cycleWorkerThreadId();
    expect(thread).not.toBeNull();
    expect((await d.api('PUT', '/api/v1/workspace/engine', { engine: 'openai', model: 'gpt-4o-mini', baseUrl: chat.baseUrl, apiKey: KEY })).status).toBe(200);
    chat.answer({ hang: true });
    const asked = chat.requests.length;
    d.clock.advanceMinutes(1);
    const pending = d.services.loop.runNow();
    await vi.waitFor(() => expect(chat.requests.length).toBe(asked + 1), { timeout: 15_000, interval: 20 });
    expect(cycleWorkerThreadId()).toBe(thread);
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect(cycleWorkerThreadId()).toBe(thread);
    expect(cycleWorkerThreads()).toBe(1);
    await terminateCycleWorker();
    expect((await pending).status).toBe('failed');
  });

  it('a request made while the idle stop terminates the worker goes to a new worker and is served', async () => {
    const d = await desk();
    await seed(d);
    setCycleWorkerIdleStop(10);
    const terminate = Worker.prototype.terminate;
    let raced: Promise<void> | undefined;
    let threadsThen = 0;
    const spy = vi.spyOn(Worker.prototype, 'terminate').mockImplementationOnce(function (this: Worker) {
      setCycleWorkerIdleStop(WORKER_IDLE_STOP_MS);
      // prepare() reaches the host synchronously: it is in before the old worker is told to stop.
      raced = d.services.loop.prepare('local');
      threadsThen = cycleWorkerThreads();
      return terminate.call(this);
    });
    try {
      await d.services.loop.prepare();
      const old = cycleWorkerThreadId();
      await vi.waitFor(() => expect(raced).toBeDefined(), { timeout: 5_000, interval: 5 });
      expect(threadsThen).toBe(2); // a new worker beside the one stopping
      await raced;
      const thread = cycleWorkerThreadId();
      expect(thread).not.toBeNull();
      expect(thread).not.toBe(old);
      const run = await d.services.loop.runNow();
      expect(run.status).toBe('completed');
      expect(cycleWorkerThreadId()).toBe(thread);
      await vi.waitFor(() => expect(cycleWorkerThreads()).toBe(1), { timeout: 10_000, interval: 5 });
    } finally {
      spy.mockRestore();
    }
  });
});
