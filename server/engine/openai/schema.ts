/**
 * The structured answer the `openai` engine asks for (response_format json_schema, strict) and
 * its validation: the model's JSON becomes CycleDecisions only when every reference in it points
 * at something the cycle showed the model; anything else is an EngineError naming the problem.
 */
import { ARTIFACT_KINDS, FOCUS_TAG_PATTERN, MAX_TAG_LENGTH, MAX_TASK_SUMMARY, MAX_TASK_TAGS, MAX_TASK_TITLE, MEMORY_KINDS, TASK_DELIVERABLE_TYPES, TASK_KINDS, TASK_PRIORITIES, TASK_STATUS_MOVES } from '../../core/vocabulary';
import { EngineError, type CycleDecisions, type EngineMemory, type EngineSignal, type EngineTask, type MemoryDraft } from '../types';

const str = { type: 'string' } as const;
const strs = { type: 'array', items: str } as const;
const enumOf = (values: readonly string[]) => ({ type: 'string', enum: [...values] }) as const;
const nullableEnum = (values: readonly string[]) => ({ type: ['string', 'null'], enum: [...values, null] }) as const;
const obj = (properties: Record<string, unknown>) => ({ type: 'object', additionalProperties: false, required: Object.keys(properties), properties });

/** JSON schema of the decisions (strict mode: every property required, nulls for "no change"). */
export const DECISIONS_SCHEMA = obj({
  newTasks: { type: 'array', items: obj({ ref: str, title: str, summary: str, kind: enumOf(TASK_KINDS), deliverableType: enumOf(TASK_DELIVERABLE_TYPES), priority: enumOf(TASK_PRIORITIES), tags: strs, signalIds: strs }) },
  taskUpdates: { type: 'array', items: obj({ taskId: str, addSignalIds: strs, status: nullableEnum(TASK_STATUS_MOVES), priority: nullableEnum(TASK_PRIORITIES) }) },
  artifacts: { type: 'array', items: obj({ taskRef: str, kind: enumOf(ARTIFACT_KINDS), title: str, content: str, signalIds: strs, memoryIds: strs }) },
  memory: { type: 'array', items: obj({ kind: enumOf(MEMORY_KINDS), title: str, content: str, tags: strs, importance: { type: ['integer', 'null'] } }) },
  workLog: { type: 'array', items: obj({ taskRef: str, entry: str, consumedNoteIds: strs, status: nullableEnum(TASK_STATUS_MOVES) }) },
  triagedSignalIds: strs,
});

/** What the model was shown: the only things its answer may refer to. */
export interface Shown {
  signals: EngineSignal[];
  tasks: EngineTask[];
  /** Memory retrieved per task id (the model may cite only these for that task). */
  memoryByTask: Map<string, EngineMemory[]>;
  workBudget: number;
}

type Json = Record<string, unknown>;

function fail(path: string, problem: string): never {
  throw new EngineError(`The model's answer was rejected: ${path} ${problem}`);
}

function record(v: unknown, path: string): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(path, 'is not an object');
  return v as Json;
}

function list(o: Json, key: string, path: string): unknown[] {
  const v = o[key];
  if (!Array.isArray(v)) fail(`${path}${key}`, 'is missing or not an array');
  return v;
}

function text(o: Json, key: string, path: string, max?: number): string {
  const v = o[key];
  if (typeof v !== 'string' || v.trim() === '') fail(`${path}${key}`, 'is missing or empty');
  const t = v.trim();
  return max !== undefined && t.length > max ? `${t.slice(0, max - 1).trimEnd()}…` : t;
}

function oneOf<T extends string>(o: Json, key: string, path: string, values: readonly T[], nullable: false): T;
function oneOf<T extends string>(o: Json, key: string, path: string, values: readonly T[], nullable: true): T | null;
function oneOf<T extends string>(o: Json, key: string, path: string, values: readonly T[], nullable: boolean): T | null {
  const v = o[key];
  if (nullable && (v === null || v === undefined)) return null;
  if (!(values as readonly unknown[]).includes(v)) fail(`${path}${key}`, `must be one of ${values.join(', ')} (got ${JSON.stringify(v)})`);
  return v as T;
}

function ids(o: Json, key: string, path: string, allowed: ReadonlySet<string>, what: string): string[] {
  const out: string[] = [];
  list(o, key, path).forEach((v, i) => {
    if (typeof v !== 'string' || !allowed.has(v)) fail(`${path}${key}[${i}]`, `is not a ${what} of this cycle (${JSON.stringify(v)})`);
    if (!out.includes(v)) out.push(v);
  });
  return out;
}

/** Tags as Desk stores them (lowercase words joined by hyphens); what cannot be made one is dropped. */
function tags(o: Json, key: string, path: string): string[] {
  const out: string[] = [];
  for (const v of list(o, key, path)) {
    if (typeof v !== 'string') continue;
    const tag = v.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
    if (tag !== '' && tag.length <= MAX_TAG_LENGTH && FOCUS_TAG_PATTERN.test(tag) && !out.includes(tag)) out.push(tag);
    if (out.length >= MAX_TASK_TAGS) break;
  }
  return out;
}

/**
 * Checks the parsed answer against what was shown and maps it into decisions (usage filled in by
 * the caller). More artifacts than the work budget: the first `workBudget` are kept.
 */
export function toDecisions(answer: unknown, shown: Shown): Omit<CycleDecisions, 'usage' | 'usageByTask'> {
  const root = record(answer, 'the answer');
  const signalIds = new Set(shown.signals.map((s) => s.id));
  const taskById = new Map(shown.tasks.map((t) => [t.id, t]));
  const placed = new Map<string, string>();
  const place = (id: string, ref: string, path: string): void => {
    const before = placed.get(id);
    if (before !== undefined && before !== ref) fail(path, `puts signal ${id} on both ${before} and ${ref}`);
    placed.set(id, ref);
  };

  const newTasks = list(root, 'newTasks', '').map((v, i) => {
    const p = `newTasks[${i}].`;
    const o = record(v, p.slice(0, -1));
    const ref = text(o, 'ref', p, 80);
    if (taskById.has(ref)) fail(`${p}ref`, `reuses the id of an existing task (${ref})`);
    const t = {
      ref, title: text(o, 'title', p, MAX_TASK_TITLE), summary: text(o, 'summary', p, MAX_TASK_SUMMARY),
      kind: oneOf(o, 'kind', p, TASK_KINDS, false), deliverableType: oneOf(o, 'deliverableType', p, TASK_DELIVERABLE_TYPES, false),
      priority: oneOf(o, 'priority', p, TASK_PRIORITIES, false), tags: tags(o, 'tags', p), signalIds: ids(o, 'signalIds', p, signalIds, 'new signal'),
    };
    t.signalIds.forEach((id) => place(id, ref, `${p}signalIds`));
    return t;
  });
  const refs = new Set(newTasks.map((t) => t.ref));
  if (refs.size !== newTasks.length) fail('newTasks', 'has two tasks with the same ref');

  const taskUpdates = list(root, 'taskUpdates', '').map((v, i) => {
    const p = `taskUpdates[${i}].`;
    const o = record(v, p.slice(0, -1));
    const taskId = text(o, 'taskId', p);
    if (!taskById.has(taskId)) fail(`${p}taskId`, `is not an open task of this cycle (${JSON.stringify(taskId)})`);
    const addSignalIds = ids(o, 'addSignalIds', p, signalIds, 'new signal');
    addSignalIds.forEach((id) => place(id, taskId, `${p}addSignalIds`));
    const status = oneOf(o, 'status', p, TASK_STATUS_MOVES, true);
    const priority = oneOf(o, 'priority', p, TASK_PRIORITIES, true);
    return { taskId, addSignalIds, ...(status ? { status } : {}), ...(priority ? { priority } : {}) };
  });

  const refKnown = (ref: string): boolean => refs.has(ref) || taskById.has(ref);
  const artifacts = list(root, 'artifacts', '').map((v, i) => {
    const p = `artifacts[${i}].`;
    const o = record(v, p.slice(0, -1));
    const taskRef = text(o, 'taskRef', p);
    if (!refKnown(taskRef)) fail(`${p}taskRef`, `is neither an open task nor a new task ref (${JSON.stringify(taskRef)})`);
    const task = taskById.get(taskRef);
    if (task && !task.workable) fail(`${p}taskRef`, `is blocked and may not be worked this cycle (${taskRef})`);
    const citable = new Set([...signalIds, ...(task?.signals.map((s) => s.id) ?? [])]);
    const memoryIds = new Set((shown.memoryByTask.get(taskRef) ?? []).map((m) => m.id));
    return {
      taskRef, kind: oneOf(o, 'kind', p, ARTIFACT_KINDS, false), title: text(o, 'title', p, 200), content: text(o, 'content', p),
      signalIds: ids(o, 'signalIds', p, citable, 'signal'), memoryIds: ids(o, 'memoryIds', p, memoryIds, 'memory entry retrieved for this task'),
    };
  }).slice(0, Math.max(0, shown.workBudget));

  const memory: MemoryDraft[] = list(root, 'memory', '').map((v, i) => {
    const p = `memory[${i}].`;
    const o = record(v, p.slice(0, -1));
    const importance = o.importance;
    if (importance !== null && importance !== undefined && !(Number.isInteger(importance) && (importance as number) >= 1 && (importance as number) <= 10)) {
      fail(`${p}importance`, 'must be an integer 1-10 or null');
    }
    return { kind: oneOf(o, 'kind', p, MEMORY_KINDS, false), title: text(o, 'title', p, 200), content: text(o, 'content', p), tags: tags(o, 'tags', p), importance: (importance as number | null | undefined) ?? null };
  });

  const workLog = list(root, 'workLog', '').map((v, i) => {
    const p = `workLog[${i}].`;
    const o = record(v, p.slice(0, -1));
    const taskRef = text(o, 'taskRef', p);
    if (!refKnown(taskRef)) fail(`${p}taskRef`, `is neither an open task nor a new task ref (${JSON.stringify(taskRef)})`);
    const notes = new Set(taskById.get(taskRef)?.notes.map((n) => n.id) ?? []);
    const status = oneOf(o, 'status', p, TASK_STATUS_MOVES, true);
    return { taskRef, entry: text(o, 'entry', p, 2000), consumedNoteIds: ids(o, 'consumedNoteIds', p, notes, 'note of this task'), ...(status ? { status } : {}) };
  });

  // Every signal placed on a task counts as triaged; the model may also judge one noise.
  const triaged = new Set(placed.keys());
  for (const id of ids(root, 'triagedSignalIds', '', signalIds, 'new signal')) triaged.add(id);
  return { newTasks, taskUpdates, artifacts, memory, workLog, triagedSignalIds: shown.signals.map((s) => s.id).filter((id) => triaged.has(id)) };
}
