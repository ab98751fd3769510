import type { Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { newId } from '../../core/ids';
import { dayOf } from '../../core/workspace-time';
import type { CycleDecisions, TokenUsage } from '../../engine/types';
import { costOf, type ModelPrice } from '../../engine/pricing';
import { recordActivity, type Actor } from '../activity/activity';
import { emit } from '../events/outbox';
import { recordCycleCost, type TaskCharge } from '../cost/cost-ledger';
import { microToUsd } from '../cost/rules';
import { changeStatus, insertTask } from '../tasks/task-crud';
import { addTaskCharges, consumeNotes, getTaskRow, insertWorkLogEntry, taskActivity, touchTaskInputs } from '../tasks/task-store';
import { insertArtifactRows, insertArtifactTagRows } from '../artifacts/artifact-store';
import { supersedeOlder } from '../artifacts/artifact-versions';
import { plural } from '../../core/plural';
import { insertMemoryRows, insertMemoryTagRows, recordRetrievals } from '../memory/memory-store';
import { markSignalsTriaged } from '../signals/signal-store';
import { priorityWords, type TaskPriority } from '../tasks/rules';
import { timeSlicer } from '../../core/time-slicer';
import { rememberStructuredOutput } from '../workspace/workspace-store';
import type { GatheredState } from './gather';
import { countsOf, updateRun, type RunProduced, type RunRead } from './run-record';
import { MAX_TASK_SOURCE_MEMORY_IDS } from './rules';
import {
  cleanArtifactKind,
  cleanDeliverable,
  cleanImportance,
  cleanMemoryKind,
  cleanPriority,
  cleanStatus,
  cleanTags,
  cleanTaskKind,
  cleanTaskSummary,
  cleanTaskTitle,
  cleanText,
  cleanTokens,
} from './sanitize';

/** The loop's writes are the desk's own: activity rows name the AI cycle. */
export const CYCLE_ACTOR: Actor = { userId: null, label: 'AI cycle' };

export interface ApplyInput {
  runId: string;
  trigger: 'schedule' | 'manual';
  /** What the cycle is charged at (the price its budget was sized with). */
  price: ModelPrice;
  /** When the cycle started (its day buckets the cost). */
  startedAt: Date;
  engineMs: number;
  /** Wall time since the cycle started (a measurement, not a decision: the clock may be a test's). */
  elapsedMs: () => number;
  state: GatheredState;
  decisions: CycleDecisions;
  /** Per task ref, every memory id retrievals returned (repeats included), in order. */
  retrieved: ReadonlyMap<string, readonly string[]>;
}

export interface ApplyResult {
  read: RunRead;
  produced: RunProduced;
  usage: TokenUsage;
  costMicroUsd: number;
}

/** What the cycle did to one task (existing or created), gathered before it is written. */
interface Touch {
  taskId: string;
  created: boolean;
  tags: string[];
  assignedToUserId: string | null;
  signalIds: string[];
  memoryIds: string[];
  addSignalIds: string[];
  status: ReturnType<typeof cleanStatus>;
  priority: TaskPriority | null;
  noteIds: string[];
  entries: string[];
  artifacts: number;
  worked: boolean;
}

const unique = (ids: Iterable<string>) => [...new Set(ids)];

/**
 * Applies one cycle's decisions in the caller's transaction (no network I/O here): tasks created
 * through the tasks area's insert path, signals attached, outputs written `ready` (a re-work is
 * the next version of the task's latest output), memory drafted, notes consumed, statuses moved
 * through the tasks area's move, one work-log entry per task touched, signals marked triaged, cost
 * charged, and the run row finished with its activity row and `run.completed`.
 */
export async function applyCycle(trx: Trx, clock: Clock, input: ApplyInput): Promise<ApplyResult> {
  const { state, decisions, runId } = input;
  const breathe = timeSlicer();
  const now = clock.now().toISOString();
  const newSignalIds = new Set(state.newSignals.map((s) => s.id));
  const claimed = new Set<string>();
  const claim = (ids: unknown): string[] => {
    if (!Array.isArray(ids)) return [];
    const out: string[] = [];
    for (const id of ids) {
      if (typeof id !== 'string' || !newSignalIds.has(id) || claimed.has(id)) continue;
      claimed.add(id);
      out.push(id);
    }
    return out;
  };
  const touches = new Map<string, Touch>();
  const refToId = new Map<string, string>();
  const touch = (taskId: string): Touch => {
    let t = touches.get(taskId);
    if (!t) {
      const g = state.byTaskId.get(taskId)!;
      t = { taskId, created: false, tags: g.tags, assignedToUserId: g.row.assignedToUserId, signalIds: g.sourceSignalIds, memoryIds: g.sourceMemoryIds, addSignalIds: [], status: null, priority: null, noteIds: [], entries: [], artifacts: 0, worked: false };
      touches.set(taskId, t);
    }
    return t;
  };
  /** An existing task id or a new task's ref, resolved; null for anything else. */
  const resolve = (ref: string): string | null => refToId.get(ref) ?? (state.byTaskId.has(ref) ? ref : null);
  const workable = (taskId: string) => touches.get(taskId)?.created === true || state.byTaskId.get(taskId)?.blocked === false;

  // 1. New tasks, through the tasks area's insert (activity + task.created as for a manual task).
  for (const n of decisions.newTasks) {
    await breathe();
    if (typeof n.ref !== 'string' || refToId.has(n.ref) || state.byTaskId.has(n.ref)) continue;
    const tags = cleanTags(n.tags);
    const title = cleanTaskTitle(n.title);
    const fields = { title, summary: cleanTaskSummary(n.summary), kind: cleanTaskKind(n.kind), deliverableType: cleanDeliverable(n.deliverableType), priority: cleanPriority(n.priority), dueAt: null, goal: '', context: '', assignedToUserId: null };
    const id = await insertTask(trx, clock, CYCLE_ACTOR, fields, tags, null);
    refToId.set(n.ref, id);
    const signalIds = claim(n.signalIds);
    touches.set(id, { taskId: id, created: true, tags, assignedToUserId: null, signalIds: [], memoryIds: [], addSignalIds: signalIds, status: null, priority: null, noteIds: [], entries: [], artifacts: 0, worked: false });
  }

  // 2. Existing tasks: signals triaged onto them, priority and status.
  for (const u of decisions.taskUpdates) {
    await breathe();
    const id = resolve(u.taskId);
    if (id === null) continue;
    const t = touch(id);
    t.addSignalIds.push(...claim(u.addSignalIds));
    if (u.priority !== undefined) t.priority = cleanPriority(u.priority);
    if (u.status !== undefined && workable(id)) t.status = cleanStatus(u.status) ?? t.status;
  }

  // 3. Work log lines, consumed notes and status after the cycle (blocked tasks are not worked).
  for (const w of decisions.workLog) {
    const id = resolve(w.taskRef);
    if (id === null || !workable(id)) continue;
    const t = touch(id);
    const entry = cleanText(w.entry, 4000);
    if (entry !== '') t.entries.push(entry);
    const allowed = state.byTaskId.get(id)?.noteIds ?? new Set<string>();
    t.noteIds.push(...(Array.isArray(w.consumedNoteIds) ? w.consumedNoteIds : []).filter((n) => allowed.has(n) && !t.noteIds.includes(n)));
    if (w.status !== undefined) t.status = cleanStatus(w.status) ?? t.status;
  }

  // Memory each task pulled this cycle (its sourceMemoryIds grow by them).
  const retrievedOf = new Map<string, string[]>();
  for (const [ref, ids] of input.retrieved) {
    const id = resolve(ref);
    if (id === null) continue;
    retrievedOf.set(id, [...(retrievedOf.get(id) ?? []), ...ids]);
  }

  // 4. Outputs: `ready`, versioned on the task's latest output, tagged like the task.
  const artifactIds: string[] = [];
  const latest = new Map<string, { id: string; version: number }>();
  for (const [id, g] of state.byTaskId) if (g.latestArtifact) latest.set(id, g.latestArtifact);
  for (const a of decisions.artifacts) {
    await breathe();
    const taskId = resolve(a.taskRef);
    if (taskId === null || !workable(taskId)) continue;
    const t = touch(taskId);
    const parent = latest.get(taskId) ?? null;
    const id = newId('art', clock);
    const version = (parent?.version ?? 0) + 1;
    const known = new Set([...t.signalIds, ...t.addSignalIds]);
    const pulled = new Set(retrievedOf.get(taskId) ?? []);
    const title = cleanText(a.title, 200, 'Untitled output');
    const kind = cleanArtifactKind(a.kind);
    await insertArtifactRows(trx, [
      {
        id,
        taskId,
        runId,
        parentArtifactId: parent?.id ?? null,
        version,
        kind,
        title,
        content: cleanText(a.content, 100_000),
        status: 'ready',
        sourceSignalIds: JSON.stringify(unique((a.signalIds ?? []).filter((s) => known.has(s)))),
        sourceMemoryIds: JSON.stringify(unique((a.memoryIds ?? []).filter((m) => pulled.has(m)))),
        readyAt: now,
        decidedAt: null,
        createdAt: now,
        updatedAt: now,
      },
    ]);
    if (t.tags.length) await insertArtifactTagRows(trx, t.tags.map((tag) => ({ artifactId: id, tag })));
    await recordActivity(trx, clock, { kind: 'artifact.created', detail: `${parent ? `Version ${version} of` : 'Output'} "${title}" drafted for review`, actor: CYCLE_ACTOR, entityType: 'artifact', entityId: id });
    // The version this one re-works (and any other of the task still waiting) leaves the queue.
    await supersedeOlder(trx, clock, { id, taskId, parentArtifactId: parent?.id ?? null });
    await emit(trx, clock, 'artifact.created', { artifactId: id, taskId, runId, title, kind, version, parentArtifactId: parent?.id ?? null, authorKind: 'engine', authorUserId: null });
    // Drafts are ready for review the moment they are written: subscribers follow the review clock from here.
    await emit(trx, clock, 'artifact.ready', { artifactId: id, taskId, runId, title, kind, version, readyAt: now });
    latest.set(taskId, { id, version });
    artifactIds.push(id);
    t.artifacts += 1;
    t.worked = true;
  }

  // 5. Memory the cycle drafted.
  const memoryIds: string[] = [];
  for (const m of decisions.memory) {
    await breathe();
    const id = newId('mem', clock);
    const title = cleanText(m.title, 200, 'Untitled memory');
    const kind = cleanMemoryKind(m.kind);
    const importance = cleanImportance(m.importance);
    await insertMemoryRows(trx, [{ id, kind, title, content: cleanText(m.content, 20_000), importance, createdByRunId: runId, createdAt: now, updatedAt: now }]);
    const tags = cleanTags(m.tags);
    if (tags.length) await insertMemoryTagRows(trx, tags.map((tag) => ({ memoryId: id, tag })));
    await recordActivity(trx, clock, { kind: 'memory.created', detail: `Memory "${title}" written by an AI cycle`, actor: CYCLE_ACTOR, entityType: 'memory', entityId: id });
    await emit(trx, clock, 'memory.created', { memoryId: id, title, kind, importance, pinned: false, tags, createdByRunId: runId });
    memoryIds.push(id);
  }

  // 6. Per-task usage (what the cost accounting splits); a task with tokens was worked.
  const usageOf = new Map<string, TokenUsage>();
  for (const [ref, u] of Object.entries(decisions.usageByTask ?? {})) {
    const id = resolve(ref);
    if (id === null) continue;
    const prev = usageOf.get(id) ?? { inputTokens: 0, outputTokens: 0 };
    const next = { inputTokens: prev.inputTokens + cleanTokens(u?.inputTokens), outputTokens: prev.outputTokens + cleanTokens(u?.outputTokens) };
    usageOf.set(id, next);
    if (next.inputTokens + next.outputTokens > 0) touch(id).worked = true;
  }
  for (const id of retrievedOf.keys()) touch(id);

  // 7. Each touched task: inputs recorded, notes consumed, one work-log entry, status moved.
  const charges: TaskCharge[] = [];
  for (const t of touches.values()) {
    await breathe();
    const pulled = retrievedOf.get(t.taskId) ?? [];
    const signalIds = unique([...t.signalIds, ...t.addSignalIds]);
    const memoryIdsOfTask = unique([...t.memoryIds, ...pulled]).slice(-MAX_TASK_SOURCE_MEMORY_IDS);
    await touchTaskInputs(trx, t.taskId, JSON.stringify(signalIds), JSON.stringify(memoryIdsOfTask), now, t.priority);
    const before = state.byTaskId.get(t.taskId)?.row.priority ?? null;
    if (t.priority && !t.created && t.priority !== before) await taskActivity(trx, clock, CYCLE_ACTOR, { id: t.taskId }, 'task.priority', `Priority ${priorityWords(before ?? null)} → ${priorityWords(t.priority)} by an AI cycle`);
    if (t.noteIds.length) await consumeNotes(trx, t.noteIds, now, runId);
    await insertWorkLogEntry(trx, { id: newId('twl', clock), taskId: t.taskId, entry: workLogLine(t, pulled.length), createdAt: now });
    if (t.status !== null) {
      const row = await getTaskRow(trx, t.taskId);
      if (row.status !== t.status) await changeStatus(trx, clock, CYCLE_ACTOR, row, t.status, 'cycle');
    }
    const usage = usageOf.get(t.taskId) ?? { inputTokens: 0, outputTokens: 0 };
    const sourceIds = unique(signalIds.map((s) => state.signalsById.get(s)?.sourceId).filter((s): s is string => typeof s === 'string'));
    charges.push({ taskId: t.taskId, amount: { ...usage, costMicroUsd: costOf(input.price, usage) }, retrievedMemoryIds: pulled, sourceIds, tags: t.tags, assignedToUserId: t.assignedToUserId, worked: t.worked });
  }

  // 8. Signals the engine took in stop being new.
  const triaged = unique([...(decisions.triagedSignalIds ?? []), ...claimed]).filter((id) => newSignalIds.has(id));
  for (let i = 0; i < triaged.length; i += 500) {
    await breathe();
    await markSignalsTriaged(trx, triaged.slice(i, i + 500), now);
  }

  // 9. Cost: the cycle's total into the workspace bucket, each task's share into the rest.
  const usage = { inputTokens: cleanTokens(decisions.usage?.inputTokens), outputTokens: cleanTokens(decisions.usage?.outputTokens) };
  const costMicroUsd = costOf(input.price, usage);
  const charge = { day: dayOf(input.startedAt, state.workspace.timezone), total: { ...usage, costMicroUsd }, tasks: charges, at: now };
  await recordRetrievals(trx, breathe, charge, await recordCycleCost(trx, breathe, charge));
  await addTaskCharges(trx, breathe, charges);

  // 10. The run record, finished.
  const read: RunRead = {
    signalIds: state.newSignals.map((s) => s.id),
    taskIds: state.tasks.map((t) => t.id),
    memoryIds: unique([...input.retrieved.values()].flat()),
    noteIds: state.tasks.flatMap((t) => t.notes.map((n) => n.id)),
  };
  const all = [...touches.values()];
  const produced: RunProduced = { createdTaskIds: all.filter((t) => t.created).map((t) => t.taskId), updatedTaskIds: all.filter((t) => !t.created).map((t) => t.taskId), artifactIds, memoryIds };
  await updateRun(trx, runId, {
    status: 'completed',
    finishedAt: now,
    durationMs: Math.round(input.elapsedMs()),
    engineMs: input.engineMs,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    costMicroUsd,
    maxOutputTokens: decisions.maxOutputTokens ?? null,
    explanation: typeof decisions.explanation === 'string' && decisions.explanation.trim() !== '' ? decisions.explanation.trim().slice(0, 2000) : null,
    readSignalIds: JSON.stringify(read.signalIds),
    readTaskIds: JSON.stringify(read.taskIds),
    readMemoryIds: JSON.stringify(read.memoryIds),
    readNoteIds: JSON.stringify(read.noteIds),
    createdTaskIds: JSON.stringify(produced.createdTaskIds),
    updatedTaskIds: JSON.stringify(produced.updatedTaskIds),
    artifactIds: JSON.stringify(produced.artifactIds),
    memoryIds: JSON.stringify(produced.memoryIds),
  });
  if (decisions.structuredOutput && decisions.structuredOutput !== state.workspace.engineStructuredOutput) {
    await rememberStructuredOutput(trx, state.workspace, decisions.structuredOutput);
  }
  const counts = countsOf(read, produced);
  await recordActivity(trx, clock, {
    kind: 'run.completed',
    detail: `AI cycle (${input.trigger}): ${plural(counts.signalsRead, 'new signal')}, ${plural(counts.tasksCreated, 'task')} created, ${counts.tasksUpdated} updated, ${plural(counts.artifactsCreated, 'output')}, ${plural(usage.inputTokens + usage.outputTokens, 'token')}`,
    actor: CYCLE_ACTOR,
    entityType: 'run',
    entityId: runId,
  });
  await emit(trx, clock, 'run.completed', { runId, trigger: input.trigger, counts, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, estimatedCostUsd: microToUsd(costMicroUsd) });
  return { read, produced, usage, costMicroUsd };
}

/** The task's one work-log line for this cycle: the engine's words, or what the cycle did. */
function workLogLine(t: Touch, retrievals: number): string {
  if (t.entries.length) return cleanText(t.entries.join(' '), 4000);
  const parts: string[] = [];
  if (t.created) parts.push('Created from new signals');
  if (t.addSignalIds.length) parts.push(`${t.addSignalIds.length} new signal${t.addSignalIds.length === 1 ? '' : 's'} attached`);
  if (t.artifacts) parts.push(`${t.artifacts} output${t.artifacts === 1 ? '' : 's'} drafted`);
  if (t.noteIds.length) parts.push(`${t.noteIds.length} operator note${t.noteIds.length === 1 ? '' : 's'} read`);
  if (retrievals) parts.push(`${retrievals} memory retrieval${retrievals === 1 ? '' : 's'}`);
  if (t.status) parts.push(`moved to ${t.status}`);
  return parts.length ? `${parts.join('; ')}.` : 'Reviewed by the AI cycle; nothing changed.';
}
