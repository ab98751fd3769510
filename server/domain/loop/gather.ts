import type { Selectable } from 'kysely';
import type { Db } from '../../../db/connection';
import type { ArtifactStatus } from '../artifacts/rules';
import type { SignalTable, WorkspaceTable } from '../../../db/schema';
import type { EngineSignal, EngineTask } from '../../engine/types';
import type { TaskRow } from '../tasks/task-store';
import { spikePausedTaskIds } from '../cost-guard/pauses';
import { rankTasks } from './rank';
import { MAX_NEW_SIGNALS_PER_CYCLE, MAX_OPEN_TASKS_PER_CYCLE, MAX_TASK_SIGNALS_IN_CYCLE } from './rules';

/**
 * Gather: the workspace state one cycle hands its engine, read before the engine runs (outside
 * any transaction). New signals (never triaged, oldest first, at most MAX_NEW_SIGNALS_PER_CYCLE),
 * open tasks (queued, in_progress, needs_input; at most MAX_OPEN_TASKS_PER_CYCLE, the oldest) with
 * their newest attached signals, unconsumed notes and latest output, ranked by the cycle rules.
 */

/** What the apply step needs to know about a task it may change. */
export interface GatheredTask {
  row: TaskRow;
  tags: string[];
  sourceSignalIds: string[];
  sourceMemoryIds: string[];
  /** Unconsumed notes (the only ones the engine may mark consumed). */
  noteIds: Set<string>;
  latestArtifact: { id: string; version: number } | null;
  blocked: boolean;
}

export interface GatheredState {
  workspace: WorkspaceTable;
  focusTags: string[];
  newSignals: EngineSignal[];
  /** Ranked; `workable` false for blocked tasks. */
  tasks: EngineTask[];
  byTaskId: Map<string, GatheredTask>;
  /** Every signal the cycle saw (new and attached), by id: source ids for cost attribution. */
  signalsById: Map<string, EngineSignal>;
}

export const parseIdList = (json: string): string[] => {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
};

interface LatestArtifact {
  id: string;
  version: number;
  title: string;
  content: string;
  status: ArtifactStatus;
  createdAt: string;
}

const toEngineSignal = (s: Selectable<SignalTable>): EngineSignal => ({
  id: s.id,
  kind: s.kind,
  priority: s.priority,
  title: s.title,
  detail: s.detail,
  sourceUrl: s.sourceUrl,
  sourceId: s.sourceId,
  createdAt: s.createdAt,
});

const OPEN_STATUSES = ['queued', 'in_progress', 'needs_input'] as const;

/** (createdAt, id) ascending, as SQLite orders these ASCII texts (binary collation). */
const byCreated = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }): number =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

const chunks = <T>(items: T[], size = 500): T[][] => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

export async function gatherState(db: Db, workspace: WorkspaceTable): Promise<GatheredState> {
  const focusTags = parseIdList(workspace.focusTags);
  const newRows = await db.selectFrom('signals').selectAll().where('triagedAt', 'is', null).orderBy('createdAt').orderBy('id').limit(MAX_NEW_SIGNALS_PER_CYCLE).execute();
  const newSignals = newRows.map(toEngineSignal);
  const signalsById = new Map(newSignals.map((s) => [s.id, s]));
  // When a cycle took each attached signal in (attached in that same cycle): what is new since an output.
  const triagedAtOf = new Map<string, string | null>();

  // The oldest open tasks: one walk of tasks_status_created per open status (each in order, at most
  // the cap), merged here. `status IN (...)` ORDER BY would read and sort every open task, however
  // many the cap leaves out.
  const perStatus = await Promise.all(
    OPEN_STATUSES.map((status) => db.selectFrom('tasks').selectAll().where('status', '=', status).orderBy('createdAt').orderBy('id').limit(MAX_OPEN_TASKS_PER_CYCLE).execute()),
  );
  const rows = perStatus.flat().sort(byCreated).slice(0, MAX_OPEN_TASKS_PER_CYCLE);
  const ids = rows.map((r) => r.id);
  const tagsOf = new Map<string, string[]>();
  const notesOf = new Map<string, { id: string; text: string; createdAt: string }[]>();
  const blocked = new Set<string>();
  const latestOf = new Map<string, LatestArtifact>();
  for (const part of chunks(ids)) {
    if (part.length === 0) continue;
    const [tags, notes, blockers, artifacts] = await Promise.all([
      db.selectFrom('taskTags').select(['taskId', 'tag']).where('taskId', 'in', part).orderBy('taskId').orderBy('tag').execute(),
      db.selectFrom('taskNotes').select(['id', 'taskId', 'text', 'createdAt']).where('taskId', 'in', part).where('consumedAt', 'is', null).orderBy('createdAt').orderBy('id').execute(),
      db
        .selectFrom('taskBlockers')
        .innerJoin('tasks as b', 'b.id', 'taskBlockers.blockerTaskId')
        .select('taskBlockers.taskId')
        .where('taskBlockers.taskId', 'in', part)
        .where('b.status', '!=', 'done')
        .execute(),
      db
        .selectFrom('artifacts as a')
        .select(['a.id', 'a.taskId', 'a.version', 'a.title', 'a.content', 'a.status', 'a.createdAt'])
        .where('a.taskId', 'in', part)
        .where(({ eb, selectFrom }) => eb('a.version', '=', selectFrom('artifacts as b').select((e) => e.fn.max('b.version').as('v')).whereRef('b.taskId', '=', 'a.taskId')))
        .execute(),
    ]);
    for (const t of tags) tagsOf.set(t.taskId, [...(tagsOf.get(t.taskId) ?? []), t.tag]);
    for (const n of notes) notesOf.set(n.taskId, [...(notesOf.get(n.taskId) ?? []), { id: n.id, text: n.text, createdAt: n.createdAt }]);
    for (const b of blockers) blocked.add(b.taskId);
    // Two rows of one version cannot be written by the runner; the later id wins should one exist.
    for (const { taskId, ...a } of artifacts) if (taskId !== null && (latestOf.get(taskId)?.id ?? '') < a.id) latestOf.set(taskId, a);
  }

  // The newest attached signals of each task, read once for all tasks.
  const attachedOf = new Map<string, string[]>();
  const wanted = new Set<string>();
  for (const r of rows) {
    const attached = parseIdList(r.sourceSignalIds).slice(-MAX_TASK_SIGNALS_IN_CYCLE);
    attachedOf.set(r.id, attached);
    for (const id of attached) if (!signalsById.has(id)) wanted.add(id);
  }
  for (const part of chunks([...wanted])) {
    for (const s of await db.selectFrom('signals').selectAll().where('id', 'in', part).execute()) {
      signalsById.set(s.id, toEngineSignal(s));
      triagedAtOf.set(s.id, s.triagedAt);
    }
  }

  // Tasks a cost spike paused (issue 12): ranked last until acknowledged.
  const paused = await spikePausedTaskIds(db, workspace, ids);
  const byTaskId = new Map<string, GatheredTask>();
  const engineTasks: (EngineTask & { createdAt: string; spikePaused: boolean })[] = rows.map((r) => {
    const tags = tagsOf.get(r.id) ?? [];
    const notes = notesOf.get(r.id) ?? [];
    const latest = latestOf.get(r.id) ?? null;
    const attached = (attachedOf.get(r.id) ?? []).map((id) => signalsById.get(id)).filter((s): s is EngineSignal => s !== undefined);
    const attachedSince = (since: string) => (attachedOf.get(r.id) ?? []).some((id) => (triagedAtOf.get(id) ?? '') > since);
    byTaskId.set(r.id, {
      row: r,
      tags,
      sourceSignalIds: parseIdList(r.sourceSignalIds),
      sourceMemoryIds: parseIdList(r.sourceMemoryIds),
      noteIds: new Set(notes.map((n) => n.id)),
      latestArtifact: latest ? { id: latest.id, version: latest.version } : null,
      blocked: blocked.has(r.id),
    });
    return {
      id: r.id,
      title: r.title,
      summary: r.summary,
      goal: r.goal,
      context: r.context,
      kind: r.kind,
      deliverableType: r.deliverableType,
      priority: r.priority,
      status: r.status,
      tags,
      signals: attached,
      notes,
      latestArtifact: latest ? { id: latest.id, version: latest.version, title: latest.title, content: latest.content, status: latest.status, createdAt: latest.createdAt } : null,
      // New since the latest output: a note not read yet, or a signal attached by a later cycle.
      hasNewInput: latest === null || notes.length > 0 || attachedSince(latest.createdAt),
      workable: !blocked.has(r.id),
      createdAt: r.createdAt,
      spikePaused: paused.has(r.id),
    };
  });
  const tasks = rankTasks(engineTasks, focusTags).map(({ createdAt: _c, spikePaused: _s, ...t }) => t);
  return { workspace, focusTags, newSignals, tasks, byTaskId, signalsById };
}
