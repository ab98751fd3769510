import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MINUTE_MS } from '../../core/clock';
import { MICRO_USD_PER_CENT, WORKSPACE_KEY } from '../../domain/cost/rules';
import { LOOP_CYCLE_JOB } from '../../jobs/loop-jobs';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { startChatServer, type ChatServer } from '../../testing/fakes/chat-server';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { createSignal } from '../../testing/fixtures/signals';

/** API tests of the loop with the built-in local engine: Run now, the run records, scheduling, the cap, GET /stats. */

// A desk per test: useTestDesk's reset rewrites every table, and SQLite refuses writes to the FTS5 shadow tables of memory.
let desk: TestDesk;
beforeEach(async () => {
  desk = await startTestDesk();
});
afterEach(async () => {
  await desk.stop();
});

const api = (method: string, p: string, body?: unknown) => desk.api(method, `/api/v1${p}`, body);
const db = () => desk.services.db;
const events = async (name: string) => (await db().selectFrom('outboxEvents').selectAll().where('event', '=', name).orderBy('id').execute()).map((e) => JSON.parse(e.payload).data);

describe('POST /runs (Run now)', () => {
  it('runs a cycle with the local engine: a signal becomes a task with a ready output, and the record says so', async () => {
    const signal = await createSignal(desk, { kind: 'review', title: 'New review: 2 stars on onboarding', detail: 'The setup wizard lost my settings twice.' });
    const res = await api('POST', '/runs');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const run = res.body;
    expect(run).toMatchObject({ trigger: 'manual', status: 'completed', engine: 'local', model: 'gpt-4o-mini', errorMessage: null, skipReason: null });
    expect(run.read.signalIds).toEqual([signal.id]);
    expect(run.produced.createdTaskIds).toHaveLength(1);
    expect(run.produced.artifactIds.length).toBeGreaterThanOrEqual(1);
    expect(run.inputTokens).toBeGreaterThan(0);
    expect(run.outputTokens).toBeGreaterThan(0);
    expect(run.estimatedCostUsd).toBeGreaterThan(0);
    expect(run.counts).toMatchObject({ signalsRead: 1, tasksCreated: 1 });
    const task = (await api('GET', `/tasks/${run.produced.createdTaskIds[0]}`)).body;
    expect(task.sourceSignalIds).toEqual([signal.id]);
    expect(task.cost.sessionCount).toBe(1);
    expect(task.cost.totalInputTokens).toBeGreaterThan(0);
    const art = await db().selectFrom('artifacts').selectAll().where('id', '=', run.produced.artifactIds[0]).executeTakeFirstOrThrow();
    expect(art).toMatchObject({ status: 'ready', taskId: task.id, runId: run.id, version: 1 });
    expect(art.content.length).toBeGreaterThan(50);
    expect((await api('GET', `/runs/${run.id}`)).body).toEqual(run);
    expect((await events('run.completed')).map((e) => e.runId)).toEqual([run.id]);
  });

  it('answers 409 cost_cap_reached at the cap and writes nothing', async () => {
    await db().updateTable('workspace').set({ dailyCostCapUsdCents: 5 }).execute();
    await db().insertInto('costDaily').values({ dimension: 'workspace', key: WORKSPACE_KEY, day: '2026-03-10', inputTokens: 0, outputTokens: 0, costMicroUsd: 5 * MICRO_USD_PER_CENT }).execute();
    const res = await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/runs' }, { status: 409, error: 'cost_cap_reached' });
    expect(res.body.message).toContain('daily cost cap');
  });
});

describe('GET /runs and GET /runs/{id}', () => {
  it('lists cycles newest first, 25 by default, with a cursor', async () => {
    for (let i = 0; i < 27; i++) {
      desk.clock.advance(MINUTE_MS);
      expect((await api('POST', '/runs')).status).toBe(200);
    }
    const first = await api('GET', '/runs');
    expect(first.status).toBe(200);
    expect(first.body.runs).toHaveLength(25);
    expect(first.body.runs[0].startedAt > first.body.runs[1].startedAt).toBe(true);
    const second = await api('GET', `/runs?cursor=${first.body.nextCursor}`);
    expect(second.body.runs).toHaveLength(2);
    expect(second.body.nextCursor).toBeNull();
    expect((await api('GET', '/runs?limit=101')).status).toBe(422);
  });

  it('404 run_not_found for an unknown id', async () => {
    const res = await api('GET', '/runs/run_nope');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('run_not_found');
  });
});

describe('the scheduled cycle', () => {
  it('runs through the scheduler job when the interval has passed, and not while the loop is off', async () => {
    await createSignal(desk);
    expect(await desk.services.scheduler.tick()).toContain(LOOP_CYCLE_JOB);
    const [run] = (await api('GET', '/runs')).body.runs;
    expect(run).toMatchObject({ trigger: 'schedule', status: 'completed' });
    expect((await api('PATCH', '/workspace/loop', { loopState: 'off' })).status).toBe(200);
    desk.clock.advance(60 * MINUTE_MS);
    await desk.services.scheduler.tick();
    expect((await api('GET', '/runs')).body.runs).toHaveLength(1);
  });
});

describe('GET /stats', () => {
  it('reports phase, next cycle, the last run, 7-day figures, cost against the cap and the health score', async () => {
    await createSignal(desk);
    const run = (await api('POST', '/runs')).body;
    const res = await api('GET', '/stats');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      phase: 'idle',
      nextCycleAt: new Date(new Date(run.startedAt).getTime() + 30 * MINUTE_MS).toISOString(),
      runningRunId: null,
      lastRun: { id: run.id, status: 'completed', trigger: 'manual' },
      cycles7d: { total: 1, completed: 1, failed: 0, skipped: 0, cancelled: 0 },
      signals7d: { received: 1, untriaged: 0 },
      approvals7d: { approved: 0, archived: 0, overdue: 0 },
      cost: { todayUsd: run.estimatedCostUsd, sevenDayUsd: run.estimatedCostUsd, dailyCostCapUsdCents: 50 },
      healthScore: 100,
      healthFactors: [],
    });
    expect(res.body.approvals7d.waiting).toBe(run.produced.artifactIds.length);
    expect(res.body.cost.capPercent).toBeGreaterThan(0);
  });

  it('takes health points off for failed cycles and spend at the cap, and shows the capped phase', async () => {
    const runId = 'run_failed1';
    await db().insertInto('runs').values({ id: runId, trigger: 'schedule', status: 'failed', engine: 'local', model: 'gpt-4o-mini', startedAt: desk.clock.now().toISOString(), finishedAt: desk.clock.now().toISOString(), durationMs: 5, engineMs: 1, errorMessage: 'boom', skipReason: null }).execute();
    await db().insertInto('costDaily').values({ dimension: 'workspace', key: WORKSPACE_KEY, day: '2026-03-10', inputTokens: 0, outputTokens: 0, costMicroUsd: 50 * MICRO_USD_PER_CENT }).execute();
    const body = (await api('GET', '/stats')).body;
    expect(body.phase).toBe('capped');
    expect(body.healthFactors).toEqual([
      { factor: 'failed_cycles', penalty: 5, detail: '1 failed cycle(s) in 7 days' },
      { factor: 'spend_vs_cap', penalty: 15, detail: "today's spend reached the daily cap" },
    ]);
    expect(body.healthScore).toBe(80);
    expect(body.cost).toMatchObject({ todayUsd: 0.5, capPercent: 100, dailyCostCapUsdCents: 50 });
    expect(body.nextCycleAt).toBe('2026-03-11T00:00:00.000Z');
  });
});

describe('POST /runs/{runId}/cancel', () => {
  let chat: ChatServer;
  beforeAll(async () => {
    chat = await startChatServer();
  });
  afterAll(async () => {
    await chat.close();
  });

  /** Run now against a provider that never answers; resolves once the request is waiting on it. */
  async function hangingCycle() {
    expect((await api('PUT', '/workspace/engine', { engine: 'openai', model: 'gpt-4o-mini', baseUrl: chat.baseUrl, apiKey: 'sk-test-cancel-0123456789' })).status).toBe(200);
    chat.answer({ hang: true });
    const asked = chat.requests.length;
    const runNow = api('POST', '/runs');
    await vi.waitFor(() => expect(chat.requests.length).toBe(asked + 1), { timeout: 15_000, interval: 20 });
    const stats = (await api('GET', '/stats')).body;
    return { runNow, stats, runId: stats.runningRunId as string };
  }

  it('stops the cycle under way and answers with its record (failed, cancelledAt); Run now gets the same record; nothing applied', async () => {
    const signal = await createSignal(desk, { title: 'Arrived before the cycle' });
    const { runNow, stats, runId } = await hangingCycle();
    expect(stats.phase).toBe('running');
    expect(stats.cycle).toMatchObject({ runId, cancelling: false });
    expect(['gathering', 'model']).toContain(stats.cycle.phase);
    const res = await api('POST', `/runs/${runId}/cancel`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: runId, status: 'failed', trigger: 'manual', produced: { createdTaskIds: [], artifactIds: [] } });
    expect(res.body.cancelledAt).not.toBeNull();
    expect(res.body.errorMessage).toMatch(/^Cancelled by the operator/);
    const ran = await runNow;
    expect(ran.status).toBe(200);
    expect(ran.body).toEqual(res.body);
    expect(await db().selectFrom('signals').select('triagedAt').where('id', '=', signal.id).executeTakeFirstOrThrow()).toEqual({ triagedAt: null });
    expect(await db().selectFrom('tasks').select('id').execute()).toEqual([]);
    const after = (await api('GET', '/stats')).body;
    expect(after).toMatchObject({ phase: 'idle', runningRunId: null, cycle: null, cycles7d: { total: 1, failed: 0, cancelled: 1 }, healthScore: 100 });
    expect((await events('run.failed')).map((e) => e.runId)).toEqual([runId]);
    // ended: a second cancel is refused and changes nothing
    const again = await api('POST', `/runs/${runId}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'run_not_running', message: expect.stringContaining('failed') });
  });

  it('Run now with whenRunning=wait joins the cycle under way and answers its record; without it, 409 run_in_progress', async () => {
    const { runNow, stats, runId } = await hangingCycle();
    expect(stats.cycle).toMatchObject({ runId, startedAt: expect.any(String) });
    expect(Date.parse(stats.cycle.startedAt)).toBeLessThanOrEqual(Date.parse(stats.cycle.since));
    await expectRejectedUnchanged(desk, { method: 'POST', path: '/api/v1/runs' }, { status: 409, error: 'run_in_progress' });
    const waiting = api('POST', '/runs?whenRunning=wait');
    const cancelled = await api('POST', `/runs/${runId}/cancel`);
    const joined = await waiting;
    expect(joined.status).toBe(200);
    expect(joined.body).toEqual(cancelled.body);
    expect((await runNow).body).toEqual(cancelled.body);
    // Only the one cycle ran.
    expect((await api('GET', '/runs')).body.runs.map((r: { id: string }) => r.id)).toEqual([runId]);
    const bad = await api('POST', '/runs?whenRunning=later');
    expect(bad.status).toBe(422);
  });

  it('404 run_not_found for an unknown id; 409 run_not_running for a completed cycle', async () => {
    const unknown = await api('POST', '/runs/run_nope/cancel');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: 'run_not_found' });
    const done = (await api('POST', '/runs')).body;
    const res = await expectRejectedUnchanged(desk, { method: 'POST', path: `/api/v1/runs/${done.id}/cancel` }, { status: 409, error: 'run_not_running' });
    expect(res.body.message).toContain('completed');
    expect((await api('GET', `/runs/${done.id}`)).body).toMatchObject({ status: 'completed', cancelledAt: null });
  });
});

describe('GET /stats: the desk\'s own pause', () => {
  it('says why the desk paused its loop, until the operator sets the loop state', async () => {
    const reason = 'The provider billed 0.02 USD for cycle run_x, more than the 0.01 USD left of today\'s cost cap';
    await db().updateTable('workspace').set({ loopState: 'paused', loopPauseReason: reason }).execute();
    expect((await api('GET', '/stats')).body).toMatchObject({ phase: 'paused', loopPauseReason: reason });
    expect((await api('PATCH', '/workspace/loop', { loopState: 'on' })).status).toBe(200);
    expect((await api('GET', '/stats')).body.loopPauseReason).toBeNull();
  });
});
