import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../core/clock';
import { EngineError, type Engine } from '../../engine/types';
import { useTestDatabase } from '../../testing/database';
import { insertMemoryRow, insertSignalRow, insertTask, scriptedEngine } from '../../testing/fixtures/loop';
import type { EventEnvelope } from '../catalog/events';
import { inlineExecutor, type CycleExecutor } from './cycle-executor';
import { LoopService } from './loop-service';
import { WARM_AHEAD_MS } from './rules';

const t = useTestDatabase({ workspace: { plan: 'free', timezone: 'UTC' } });
let clock: ManualClock;
beforeEach(() => {
  clock = t.clock;
});

const loopWith = (engine: Engine) => new LoopService({ db: t.db, clock, engineFor: () => engine });
const ctx = () => ({ db: t.db, clock });

async function events(name: string) {
  const rows = await t.db.selectFrom('outboxEvents').selectAll().where('event', '=', name).orderBy('id').execute();
  return rows.map((r) => (JSON.parse(r.payload) as EventEnvelope).data as unknown as Record<string, unknown>);
}

/** An engine that opens a task per new signal and drafts an output for every workable task it sees. */
const drafter = () =>
  scriptedEngine(async (input) => ({
    newTasks: input.newSignals.map((s) => ({ ref: `new:${s.id}`, title: s.title, summary: s.detail, kind: 'research', deliverableType: 'brief', priority: 'normal', tags: ['launch'], signalIds: [s.id] })),
    artifacts: [
      ...input.newSignals.map((s) => ({ taskRef: `new:${s.id}`, kind: 'brief' as const, title: `Brief: ${s.title}`, content: 'What happened.', signalIds: [s.id], memoryIds: [] })),
      ...input.tasks.filter((task) => task.workable).map((task) => ({ taskRef: task.id, kind: 'brief' as const, title: `Brief: ${task.title}`, content: 'Again.', signalIds: [], memoryIds: [] })),
    ],
    workLog: input.tasks.filter((task) => task.workable).map((task) => ({ taskRef: task.id, entry: `Worked ${task.title}`, consumedNoteIds: task.notes.map((n) => n.id) })),
    triagedSignalIds: input.newSignals.map((s) => s.id),
    usage: { inputTokens: 1000, outputTokens: 200 },
    usageByTask: Object.fromEntries(input.tasks.filter((task) => task.workable).map((task) => [task.id, { inputTokens: 100, outputTokens: 20 }])),
  }));

describe('a cycle', () => {
  it('turns new signals into tasks with ready outputs, records its run and marks the signals triaged', async () => {
    const sig = await insertSignalRow(ctx(), { title: 'Competitor launched' });
    const engine = drafter();
    const run = await loopWith(engine).runNow();
    expect(run).toMatchObject({ trigger: 'manual', status: 'completed', engine: 'local', inputTokens: 1000, outputTokens: 200, errorMessage: null, skipReason: null });
    expect(run.read.signalIds).toEqual([sig]);
    expect(run.produced.createdTaskIds).toHaveLength(1);
    expect(run.produced.artifactIds).toHaveLength(1);
    expect(run.counts).toMatchObject({ signalsRead: 1, tasksCreated: 1, artifactsCreated: 1 });
    expect(run.estimatedCostUsd).toBeGreaterThan(0);
    const taskId = run.produced.createdTaskIds[0];
    const task = await t.db.selectFrom('tasks').selectAll().where('id', '=', taskId).executeTakeFirstOrThrow();
    expect(JSON.parse(task.sourceSignalIds)).toEqual([sig]);
    const art = await t.db.selectFrom('artifacts').selectAll().executeTakeFirstOrThrow();
    expect(art).toMatchObject({ taskId, runId: run.id, status: 'ready', version: 1, parentArtifactId: null, readyAt: clock.now().toISOString(), sourceSignalIds: JSON.stringify([sig]) });
    expect((await t.db.selectFrom('artifactTags').select('tag').where('artifactId', '=', art.id).execute()).map((r) => r.tag)).toEqual(['launch']);
    expect((await t.db.selectFrom('signals').select('triagedAt').where('id', '=', sig).executeTakeFirstOrThrow()).triagedAt).toBe(clock.now().toISOString());
    expect(await t.db.selectFrom('taskWorkLog').select('taskId').execute()).toEqual([{ taskId }]);
    expect(await events('task.created')).toEqual([{ taskId, title: 'Competitor launched', status: 'queued', duplicateOfTaskId: null }]);
    expect(await events('artifact.created')).toEqual([{ artifactId: art.id, taskId, runId: run.id, title: 'Brief: Competitor launched', kind: 'brief', version: 1, parentArtifactId: null, authorKind: 'engine', authorUserId: null }]);
    const [completed] = await events('run.completed');
    expect(completed).toMatchObject({ runId: run.id, trigger: 'manual', inputTokens: 1000, outputTokens: 200, counts: { tasksCreated: 1, artifactsCreated: 1 } });
    // the next cycle does not see the signal again
    await loopWith(engine).runNow();
    expect(engine.inputs[1].newSignals).toEqual([]);
  });

  it('tells onCycleFinished after each cycle that ran, not after an idle look', async () => {
    let finished = 0;
    const loop = new LoopService({ db: t.db, clock, engineFor: () => drafter(), onCycleFinished: () => (finished += 1) });
    await loop.runNow();
    expect(finished).toBe(1);
    await t.db.updateTable('workspace').set({ loopState: 'on' }).execute();
    clock.advanceMinutes(60 * 24);
    expect(await loop.tick()).toBeNull(); // nothing new: an idle look, no cycle
    expect(finished).toBe(1);
  });

  it('emits artifact.ready with the immutable readyAt for each draft', async () => {
    await insertSignalRow(ctx(), { title: 'Competitor launched' });
    const run = await loopWith(drafter()).runNow();
    const [art] = await t.db.selectFrom('artifacts').select(['id', 'readyAt', 'taskId']).execute();
    expect(await events('artifact.ready')).toEqual([{ artifactId: art.id, taskId: art.taskId, runId: run.id, title: 'Brief: Competitor launched', kind: 'brief', version: 1, readyAt: art.readyAt }]);
  });

  it('re-working a task writes the next version linked by parentArtifactId', async () => {
    await insertSignalRow(ctx());
    const loop = loopWith(drafter());
    await loop.runNow();
    const second = await loop.runNow();
    const rows = await t.db.selectFrom('artifacts').select(['id', 'version', 'parentArtifactId']).orderBy('version').execute();
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({ version: 2, parentArtifactId: rows[0].id });
    expect(second.produced.artifactIds).toEqual([rows[1].id]);
    const [, again] = await events('artifact.created');
    expect(again).toMatchObject({ version: 2, parentArtifactId: rows[0].id });
  });

  it('records sourceMemoryIds, retrieval counters and one work-log entry per task per cycle', async () => {
    const task = await insertTask(ctx(), { title: 'Pricing page' });
    const m1 = await insertMemoryRow(ctx(), { title: 'Pricing tiers', content: 'We price per seat' });
    const m2 = await insertMemoryRow(ctx(), { title: 'Pricing history', content: 'Prices rose in 2025' });
    const engine = scriptedEngine(async (input) => {
      await input.searchMemory(task, 'pricing', 5);
      return { workLog: [{ taskRef: task, entry: 'Read the pricing memory', consumedNoteIds: [] }], usage: { inputTokens: 10, outputTokens: 0 }, usageByTask: { [task]: { inputTokens: 10, outputTokens: 0 } } };
    });
    const run = await loopWith(engine).runNow();
    expect([...run.read.memoryIds].sort()).toEqual([m1, m2].sort());
    const row = await t.db.selectFrom('tasks').selectAll().where('id', '=', task).executeTakeFirstOrThrow();
    expect([...JSON.parse(row.sourceMemoryIds)].sort()).toEqual([m1, m2].sort());
    expect(row.sessionCount).toBe(1);
    const mem = await t.db.selectFrom('memory').select(['id', 'retrievalCount', 'lastRetrievedAt', 'totalAttributedInputTokens']).orderBy('id').execute();
    expect(mem.map((m) => [m.retrievalCount, m.lastRetrievedAt, m.totalAttributedInputTokens])).toEqual([
      [1, clock.now().toISOString(), 5],
      [1, clock.now().toISOString(), 5],
    ]);
    expect(await t.db.selectFrom('memoryRetrievalDaily').select(['day', 'count']).execute()).toEqual([
      { day: '2026-03-10', count: 1 },
      { day: '2026-03-10', count: 1 },
    ]);
    await loopWith(engine).runNow();
    const log = await t.db.selectFrom('taskWorkLog').select(['entry']).where('taskId', '=', task).execute();
    expect(log).toEqual([{ entry: 'Read the pricing memory' }, { entry: 'Read the pricing memory' }]);
  });
});

describe('the cycle rules', () => {
  it('hands blocked tasks over as not workable and ignores work on them until every blocker is done', async () => {
    const blocker = await insertTask(ctx(), { title: 'Blocker' });
    const waiting = await insertTask(ctx(), { title: 'Waiting' });
    await t.db.insertInto('taskBlockers').values({ taskId: waiting, blockerTaskId: blocker }).execute();
    const engine = scriptedEngine((input) => ({
      artifacts: input.tasks.map((task) => ({ taskRef: task.id, kind: 'brief', title: task.title, content: 'x', signalIds: [], memoryIds: [] })),
      workLog: input.tasks.map((task) => ({ taskRef: task.id, entry: 'worked', consumedNoteIds: [], status: 'done' })),
    }));
    const loop = loopWith(engine);
    await loop.runNow();
    expect(engine.inputs[0].tasks.map((x) => [x.title, x.workable])).toEqual([
      ['Blocker', true],
      ['Waiting', false],
    ]);
    expect((await t.db.selectFrom('artifacts').select('taskId').execute()).map((a) => a.taskId)).toEqual([blocker]);
    const rows = await t.db.selectFrom('tasks').select(['id', 'status']).orderBy('title').execute();
    expect(rows).toEqual([
      { id: blocker, status: 'done' },
      { id: waiting, status: 'queued' },
    ]);
    // the blocker moved to done through the tasks area's move: the waiting task is unblocked
    expect(await events('task.unblocked')).toEqual([{ taskId: waiting, title: 'Waiting', lastBlockerTaskId: blocker }]);
    expect((await events('task.status_changed')).map((e) => e.cause)).toEqual(['cycle']);
    await loop.runNow();
    expect(engine.inputs[1].tasks.map((x) => [x.title, x.workable])).toEqual([['Waiting', true]]);
    expect((await t.db.selectFrom('artifacts').select('taskId').orderBy('createdAt').execute()).map((a) => a.taskId)).toEqual([blocker, waiting]);
  });

  it('ranks focus-tagged tasks first, spike-paused tasks last, then priority and age', async () => {
    await t.db.updateTable('workspace').set({ focusTags: JSON.stringify(['launch']) }).execute();
    await insertTask(ctx(), { title: 'old normal', createdAt: '2026-03-01T00:00:00.000Z' });
    await insertTask(ctx(), { title: 'new urgent', priority: 'urgent', createdAt: '2026-03-05T00:00:00.000Z' });
    await insertTask(ctx(), { title: 'focused low', priority: 'low', createdAt: '2026-03-06T00:00:00.000Z' }, ['launch']);
    const paused = await insertTask(ctx(), { title: 'paused urgent focused', priority: 'urgent', createdAt: '2026-02-01T00:00:00.000Z' }, ['launch']);
    await t.db.updateTable('workspace').set({ taskCostSpikeAction: 'pause' }).execute();
    await t.db.insertInto('costWatch').values({ dimension: 'task', key: paused, pausedAt: '2026-03-09T00:00:00.000Z' }).execute();
    await insertTask(ctx(), { title: 'newer normal', createdAt: '2026-03-02T00:00:00.000Z' });
    const engine = scriptedEngine(() => ({}));
    await loopWith(engine).runNow();
    expect(engine.inputs[0].tasks.map((x) => x.title)).toEqual(['focused low', 'new urgent', 'old normal', 'newer normal', 'paused urgent focused']);
    expect(engine.inputs[0].focusTags).toEqual(['launch']);
  });

  it('passes unconsumed notes as direction and marks the ones the engine read consumed by the run', async () => {
    const task = await insertTask(ctx(), { title: 'Reply' });
    const read = { id: 'tno_1', taskId: task, text: 'Keep it short', authorUserId: null, createdAt: clock.now().toISOString() };
    const unread = { id: 'tno_2', taskId: task, text: 'Mention the refund', authorUserId: null, createdAt: clock.now().toISOString() };
    await t.db.insertInto('taskNotes').values([read, unread]).execute();
    const engine = scriptedEngine((input) => ({ workLog: [{ taskRef: input.tasks[0].id, entry: 'Shortened', consumedNoteIds: ['tno_1', 'tno_unknown'] }] }));
    const loop = loopWith(engine);
    const run = await loop.runNow();
    expect(engine.inputs[0].tasks[0].notes.map((n) => n.text)).toEqual(['Keep it short', 'Mention the refund']);
    expect(run.read.noteIds).toEqual(['tno_1', 'tno_2']);
    const notes = await t.db.selectFrom('taskNotes').select(['id', 'consumedAt', 'consumedRunId']).orderBy('id').execute();
    expect(notes).toEqual([
      { id: 'tno_1', consumedAt: clock.now().toISOString(), consumedRunId: run.id },
      { id: 'tno_2', consumedAt: null, consumedRunId: null },
    ]);
    await loop.runNow();
    expect(engine.inputs[1].tasks[0].notes.map((n) => n.id)).toEqual(['tno_2']);
  });

  it('says whether a task has new input since its latest output', async () => {
    await insertSignalRow(ctx());
    const engine = drafter();
    const loop = loopWith(engine);
    await loop.runNow();
    await loop.runNow();
    expect(engine.inputs[1].tasks[0].hasNewInput).toBe(false);
    await t.db.insertInto('taskNotes').values({ id: 'tno_9', taskId: engine.inputs[1].tasks[0].id, text: 'More', authorUserId: null, createdAt: clock.now().toISOString() }).execute();
    await loop.runNow();
    expect(engine.inputs[2].tasks[0].hasNewInput).toBe(true);
  });

  it('a signal attached by a later cycle is new input for the task; one attached with the output is not', async () => {
    const task = await insertTask(ctx(), { title: 'Outage follow-up' });
    const engine = scriptedEngine((input) => ({
      taskUpdates: input.newSignals.length ? [{ taskId: task, addSignalIds: input.newSignals.map((s) => s.id) }] : [],
      artifacts: input.tasks[0].hasNewInput ? [{ taskRef: task, kind: 'report', title: 'Report', content: 'x', signalIds: [], memoryIds: [] }] : [],
      triagedSignalIds: input.newSignals.map((s) => s.id),
    }));
    const loop = loopWith(engine);
    await insertSignalRow(ctx());
    await loop.runNow(); // attaches the signal and drafts version 1 in the same cycle
    clock.advance(60_000);
    await loop.runNow();
    expect(engine.inputs[1].tasks[0].hasNewInput).toBe(false);
    await insertSignalRow(ctx());
    clock.advance(60_000);
    await loop.runNow(); // attaches a second signal, after version 1
    clock.advance(60_000);
    await loop.runNow(); // sees it as new and drafts version 2
    clock.advance(60_000);
    await loop.runNow();
    expect(engine.inputs.map((i) => i.tasks[0].hasNewInput)).toEqual([true, false, false, true, false]);
    expect((await t.db.selectFrom('artifacts').select('version').orderBy('version').execute()).map((a) => a.version)).toEqual([1, 2]);
  });
});

describe('failures', () => {
  it('a provider error fails the run with its message and writes nothing else', async () => {
    const sig = await insertSignalRow(ctx());
    const run = await loopWith(
      scriptedEngine(() => {
        throw new EngineError('The model provider answered 401: invalid API key');
      }),
    ).runNow();
    expect(run).toMatchObject({ status: 'failed', errorMessage: 'The model provider answered 401: invalid API key' });
    expect(run.finishedAt).toBe(clock.now().toISOString());
    expect(await events('run.failed')).toEqual([{ runId: run.id, trigger: 'manual', errorMessage: 'The model provider answered 401: invalid API key' }]);
    expect(await t.db.selectFrom('tasks').select('id').execute()).toEqual([]);
    expect((await t.db.selectFrom('signals').select('triagedAt').where('id', '=', sig).executeTakeFirstOrThrow()).triagedAt).toBeNull();
    const activity = await t.db.selectFrom('activity').select(['kind', 'detail']).where('kind', '=', 'run.failed').execute();
    expect(activity).toEqual([{ kind: 'run.failed', detail: 'AI cycle (manual) failed: The model provider answered 401: invalid API key' }]);
  });

  it('an exception inside the apply transaction leaves no partial rows', async () => {
    const sig = await insertSignalRow(ctx());
    const engine = scriptedEngine((input) => {
      const decisions = {
        newTasks: [{ ref: 'a', title: 'Half written', summary: 's', kind: 'research' as const, deliverableType: 'brief' as const, priority: 'normal' as const, tags: [], signalIds: [input.newSignals[0].id] }],
        artifacts: [{ taskRef: 'a', kind: 'brief' as const, title: 'Half', content: 'x', signalIds: [], memoryIds: [] }],
        triagedSignalIds: [input.newSignals[0].id],
      };
      // read after the task and the output have been inserted: the crash comes mid-apply
      return Object.defineProperty(decisions, 'memory', {
        enumerable: true,
        get() {
          throw new Error('disk full');
        },
      });
    });
    const before = await t.db.selectFrom('outboxEvents').select('id').execute();
    const run = await loopWith(engine).runNow();
    expect(run).toMatchObject({ status: 'failed', errorMessage: 'The cycle could not be completed: disk full' });
    for (const table of ['tasks', 'artifacts', 'taskWorkLog', 'costDaily', 'taskTags'] as const) expect(await t.db.selectFrom(table).selectAll().execute()).toEqual([]);
    expect((await t.db.selectFrom('signals').select('triagedAt').where('id', '=', sig).executeTakeFirstOrThrow()).triagedAt).toBeNull();
    const after = (await t.db.selectFrom('outboxEvents').select('event').where('id', 'not in', before.length ? before.map((b) => b.id) : ['-']).execute()).map((e) => e.event);
    expect(after).toEqual(['run.failed']);
  });

  it('a run left running by a stopped desk is failed as interrupted', async () => {
    await t.db.insertInto('runs').values({ id: 'run_stale', trigger: 'schedule', status: 'running', engine: 'local', model: 'gpt-4o-mini', startedAt: '2026-03-10T11:00:00.000Z', finishedAt: null, durationMs: null, engineMs: null, errorMessage: null, skipReason: null }).execute();
    const run = await loopWith(scriptedEngine(() => ({}))).get('run_stale');
    expect(run.status).toBe('running');
    const loop = loopWith(scriptedEngine(() => ({})));
    await loop.tick();
    expect(await loop.get('run_stale')).toMatchObject({ status: 'failed', errorMessage: expect.stringContaining('Interrupted') });
  });
});

describe('overlap', () => {
  it('never runs two cycles at once: Run now answers 409 and the schedule waits', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const engine = scriptedEngine(async () => {
      await gate;
      return {};
    });
    const loop = loopWith(engine);
    const first = loop.runNow();
    await expect(loop.runNow()).rejects.toMatchObject({ status: 409, code: 'run_in_progress' });
    expect(await loop.tick()).toBeNull();
    await vi.waitFor(async () => expect((await loop.runtime()).runningRunId).not.toBeNull());
    expect((await loop.runtime()).phase).toBe('running');
    release();
    expect((await first).status).toBe('completed');
    expect(engine.inputs).toHaveLength(1);
    expect((await loop.runNow()).status).toBe('completed');
  });

  it('a scheduled look does not start a cycle once the loop was turned off after it began', async () => {
    await insertSignalRow(ctx(), { title: 'Competitor launched' });
    await t.db.updateTable('workspace').set({ loopState: 'on' }).execute();
    const engine = drafter();
    // The look has decided on the workspace (loop on); the operator turns the loop off, through another
    // connection (as the desk does while the cycle worker starts), before the cycle gathers.
    const loop = new LoopService({
      db: t.db,
      clock,
      engineFor: () => {
        const other = new Database(path.join(t.dir, 'desk.sqlite'));
        other.prepare("UPDATE workspace SET loop_state = 'off'").run();
        other.close();
        return engine;
      },
    });
    expect(await loop.tick()).toBeNull();
    expect(engine.inputs).toHaveLength(0);
    expect(await t.db.selectFrom('runs').select('id').execute()).toEqual([]);
  });

  it('Run now during a scheduled look that has not started a cycle waits for the look instead of answering 409', async () => {
    const loop = loopWith(drafter());
    await t.db.updateTable('workspace').set({ loopState: 'on' }).execute();
    // The look claims the slot first; with nothing new it ends without a cycle, then Run now runs.
    const look = loop.tick();
    const now = loop.runNow();
    expect([await look, (await now).status]).toEqual([null, 'completed']);
  });
});


describe('readying the executor ahead of a scheduled cycle', () => {
  /** An executor running cycles inline, recording each prepare() and its engine. */
  function recordingLoop() {
    const prepared: (string | undefined)[] = [];
    const inline = inlineExecutor({ db: t.db, clock, engineFor: () => drafter() });
    const executor: CycleExecutor = { ...inline, prepare: async (engine) => void prepared.push(engine) };
    return { loop: new LoopService({ db: t.db, clock, executor }), prepared };
  }

  it(`prepares once a look finds a cycle due within ${WARM_AHEAD_MS / 1000} s, for the workspace's engine; not before, not when it is due`, async () => {
    const { loop, prepared } = recordingLoop();
    await t.db.updateTable('workspace').set({ loopState: 'on', loopIntervalMinutes: 30 }).execute();
    await insertSignalRow(ctx());
    await loop.runNow();
    clock.advanceMinutes(29);
    expect(await loop.tick()).toBeNull();
    expect(prepared).toEqual([]);
    clock.advance(60_000 - WARM_AHEAD_MS + 5_000);
    expect(await loop.tick()).toBeNull();
    expect(prepared).toEqual(['local']);
    await insertSignalRow(ctx());
    clock.advance(WARM_AHEAD_MS);
    expect((await loop.tick())?.trigger).toBe('schedule');
    expect(prepared).toEqual(['local']);
  });

  it("readies the workspace's engine when the desk starts (its first cycle does not load it)", async () => {
    const { loop, prepared } = recordingLoop();
    await loop.prepare();
    expect(prepared).toEqual(['local']);
    await t.db.updateTable('workspace').set({ engine: 'openai' }).execute();
    await loop.prepare();
    expect(prepared).toEqual(['local', 'openai']);
  });

  it('does not prepare for a cycle the cap would skip, nor with the loop off', async () => {
    const { loop, prepared } = recordingLoop();
    await insertSignalRow(ctx());
    await loop.runNow();
    await t.db.updateTable('workspace').set({ loopState: 'on', loopIntervalMinutes: 30, dailyCostCapUsdCents: 0 }).execute();
    clock.advance(30 * 60_000 - 10_000);
    expect(await loop.tick()).toBeNull();
    await t.db.updateTable('workspace').set({ loopState: 'off', dailyCostCapUsdCents: null }).execute();
    expect(await loop.tick()).toBeNull();
    expect(prepared).toEqual([]);
    await t.db.updateTable('workspace').set({ loopState: 'on' }).execute();
    expect(await loop.tick()).toBeNull();
    expect(prepared).toEqual(['local']);
  });
});
