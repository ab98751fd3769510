import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../core/clock';
import type { CycleInput } from '../../engine/types';
import { useTestDatabase } from '../../testing/database';
import { insertSignalRow, scriptedEngine } from '../../testing/fixtures/loop';
import type { EventEnvelope } from '../catalog/events';
import type { CyclePhase } from './cycle';
import { inlineExecutor, type CycleExecutor } from './cycle-executor';
import { LoopService } from './loop-service';

/** Watching and stopping a cycle (inline executor, scripted engines, the injected clock): phases in runtime(), cancel(). */

const t = useTestDatabase({ workspace: { plan: 'free', timezone: 'UTC' } });
let clock: ManualClock;
beforeEach(() => {
  clock = t.clock;
});
const ctx = () => ({ db: t.db, clock });

async function events(name: string) {
  const rows = await t.db.selectFrom('outboxEvents').selectAll().where('event', '=', name).orderBy('id').execute();
  return rows.map((r) => (JSON.parse(r.payload) as EventEnvelope).data as unknown as Record<string, unknown>);
}

/**
 * An engine that reports its model call (a bound of 4,096 tokens), then waits until the cycle's
 * abort signal fires, and answers with what the provider billed until then; or, released, with a
 * task for each new signal.
 */
function hangingEngine() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const engine = scriptedEngine(async (input: CycleInput) => {
    input.onModelCall?.({ attempt: 1, inputTokens: 1200, maxOutputTokens: 4096 });
    const aborted = new Promise<void>((resolve) => input.abortSignal?.addEventListener('abort', () => resolve(), { once: true }));
    await Promise.race([aborted, released]);
    return {
      newTasks: input.newSignals.map((s) => ({ ref: `new:${s.id}`, title: s.title, summary: s.detail, kind: 'research' as const, deliverableType: 'brief' as const, priority: 'normal' as const, tags: [], signalIds: [s.id] })),
      triagedSignalIds: input.newSignals.map((s) => s.id),
      usage: { inputTokens: 1200, outputTokens: 0 },
    };
  });
  return Object.assign(engine, { release: () => release() });
}

/** Until the cycle has reached the model call (the engine has been handed its input). */
const inModel = (loop: LoopService) => vi.waitFor(async () => expect((await loop.runtime()).cycle?.phase).toBe('model'), { interval: 1 });

describe('the phase of the cycle under way', () => {
  it('runtime() shows the model call with its bound while the cycle waits on the model, and nothing once it ends', async () => {
    const engine = hangingEngine();
    const loop = new LoopService({ db: t.db, clock, engineFor: () => engine });
    expect((await loop.runtime()).cycle).toBeNull();
    const pending = loop.runNow();
    await inModel(loop);
    const { cycle, runningRunId } = await loop.runtime();
    expect(cycle).toEqual({ runId: runningRunId, phase: 'model', since: clock.now().toISOString(), startedAt: expect.any(String), attempt: 1, inputTokens: 1200, maxOutputTokens: 4096, cancelling: false });
    engine.release();
    expect((await pending).status).toBe('completed');
    expect((await loop.runtime()).cycle).toBeNull();
  });

  it('the executor is told every phase in order: gathering, the model call, applying', async () => {
    const seen: CyclePhase['phase'][] = [];
    const inline = inlineExecutor({ db: t.db, clock, engineFor: () => scriptedEngine((input) => (input.onModelCall?.({ attempt: 1, inputTokens: 10, maxOutputTokens: 100 }), {})) });
    const executor: CycleExecutor = { ...inline, run: (job, hooks) => inline.run(job, { ...hooks, onPhase: (p) => (seen.push(p.phase), hooks.onPhase?.(p)) }) };
    expect((await new LoopService({ db: t.db, clock, executor }).runNow()).status).toBe('completed');
    expect(seen).toEqual(['gathering', 'model', 'applying']);
  });
});

describe('cancel', () => {
  it('stops the cycle waiting on the model: the run fails with cancelledAt, nothing is applied, the billed tokens are charged; Run now gets the record', async () => {
    const sig = await insertSignalRow(ctx(), { title: 'Competitor launched' });
    const engine = hangingEngine();
    const loop = new LoopService({ db: t.db, clock, engineFor: () => engine });
    const pending = loop.runNow();
    await inModel(loop);
    const runId = (await loop.runtime()).runningRunId!;
    clock.advance(12_000);
    const cancelled = await loop.cancel(runId);
    expect(cancelled).toMatchObject({ id: runId, status: 'failed', cancelledAt: clock.now().toISOString(), finishedAt: clock.now().toISOString(), inputTokens: 1200, outputTokens: 0 });
    expect(cancelled.errorMessage).toMatch(/^Cancelled by the operator/);
    expect(cancelled.estimatedCostUsd).toBeGreaterThan(0);
    expect(await pending).toEqual(cancelled);
    expect(engine.inputs[0].abortSignal?.aborted).toBe(true);
    // nothing applied: no task, the signal still new; the spend counts what was billed
    expect(await t.db.selectFrom('tasks').select('id').execute()).toEqual([]);
    expect((await t.db.selectFrom('signals').select('triagedAt').where('id', '=', sig).executeTakeFirstOrThrow()).triagedAt).toBeNull();
    expect(await t.db.selectFrom('costDaily').select(['dimension', 'inputTokens']).execute()).toEqual([{ dimension: 'workspace', inputTokens: 1200 }]);
    // one activity row and one run.failed (runCycle's), saying "cancelled"
    expect(await t.db.selectFrom('activity').select('detail').where('kind', '=', 'run.failed').execute()).toEqual([{ detail: `AI cycle (manual) cancelled: ${cancelled.errorMessage}` }]);
    expect(await events('run.failed')).toEqual([{ runId, trigger: 'manual', errorMessage: cancelled.errorMessage }]);
    expect((await loop.runtime()).cycle).toBeNull();
    // the slot is free: the next cycle runs and takes the signal in
    engine.release();
    clock.advance(60_000);
    expect((await loop.runNow()).read.signalIds).toEqual([sig]);
  });

  it('shows the cycle as cancelling while it stops, and a second cancel waits for the same record', async () => {
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    // An engine that is slow to stop: the abort is heard, the answer comes when the test lets it.
    const engine = scriptedEngine(async (input) => {
      input.onModelCall?.({ attempt: 1, inputTokens: 5, maxOutputTokens: 50 });
      await stopped;
      return {};
    });
    const loop = new LoopService({ db: t.db, clock, engineFor: () => engine });
    const pending = loop.runNow();
    await inModel(loop);
    const runId = (await loop.runtime()).runningRunId!;
    const first = loop.cancel(runId);
    await vi.waitFor(async () => expect((await loop.runtime()).cycle).toMatchObject({ runId, cancelling: true }), { interval: 1 });
    const second = loop.cancel(runId);
    stop();
    const [a, b] = await Promise.all([first, second]);
    expect(a).toEqual(b);
    expect(a.cancelledAt).not.toBeNull();
    expect((await pending).id).toBe(runId);
  });

  it('a scheduled cycle is cancelled the same way: tick() resolves with the cancelled record', async () => {
    await insertSignalRow(ctx(), { title: 'Competitor launched' });
    await t.db.updateTable('workspace').set({ loopState: 'on' }).execute();
    const loop = new LoopService({ db: t.db, clock, engineFor: () => hangingEngine() });
    const look = loop.tick();
    await inModel(loop);
    const cancelled = await loop.cancel((await loop.runtime()).runningRunId!);
    expect(cancelled).toMatchObject({ trigger: 'schedule', status: 'failed' });
    expect(cancelled.cancelledAt).not.toBeNull();
    expect(await look).toEqual(cancelled);
    expect(await t.db.selectFrom('tasks').select('id').execute()).toEqual([]);
  });

  it('404 for an unknown run; 409 run_not_running for a finished one', async () => {
    const loop = new LoopService({ db: t.db, clock, engineFor: () => scriptedEngine(() => ({})) });
    await expect(loop.cancel('run_nope')).rejects.toMatchObject({ status: 404, code: 'run_not_found' });
    const done = await loop.runNow();
    await expect(loop.cancel(done.id)).rejects.toMatchObject({ status: 409, code: 'run_not_running', message: expect.stringContaining('completed') });
    expect((await loop.get(done.id)).cancelledAt).toBeNull();
  });

  it('409 run_applying once the cycle is applying its results: it completes', async () => {
    await insertSignalRow(ctx(), { title: 'Competitor launched' });
    let refusal: unknown = null;
    let runId = '';
    const inline = inlineExecutor({ db: t.db, clock, engineFor: () => scriptedEngine((input) => ({ triagedSignalIds: input.newSignals.map((s) => s.id) })) });
    // The cancel arrives as the cycle reports `applying` (the executor hears the phase first).
    const executor: CycleExecutor = {
      ...inline,
      run: (job, hooks) =>
        inline.run(job, {
          ...hooks,
          onRunning: (id) => {
            runId = id;
            hooks.onRunning(id);
          },
          onPhase: (p) => {
            hooks.onPhase?.(p);
            if (p.phase === 'applying') refusal = loop.cancel(runId).catch((err: unknown) => err);
          },
        }),
    };
    const loop = new LoopService({ db: t.db, clock, executor });
    const run = await loop.runNow();
    expect(run).toMatchObject({ status: 'completed', cancelledAt: null });
    expect(await refusal).toMatchObject({ status: 409, code: 'run_applying', message: expect.stringContaining('too late to cancel') });
    expect(await t.db.selectFrom('signals').select('triagedAt').executeTakeFirstOrThrow()).toEqual({ triagedAt: clock.now().toISOString() });
  });
});
