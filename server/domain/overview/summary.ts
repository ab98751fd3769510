import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import { ARTIFACT_STATUSES, type ArtifactStatus } from '../artifacts/rules';
import { RUN_STATUSES, type RunStatus } from '../loop/rules';
import { SOURCE_STATUSES, type SourceStatus } from '../sources/rules';
import { TASK_STATUSES, type TaskStatus } from '../tasks/rules';
import { readWorkspace } from '../workspace/workspace-store';

/**
 * GET /workspace/summary: all-time counts and anchor times. Every count is one aggregate over an
 * index (grouped counts read the status indexes; max/min read the time indexes' ends), so the answer
 * costs the same few milliseconds at 100k signals as at 10.
 */

export interface WorkspaceSummary {
  /** Signals ever received; untriaged: not yet taken in by a cycle. */
  signals: { total: number; untriaged: number };
  /**
   * Outputs by status (ready = waiting for a decision). superseded: versions a newer version of
   * the same output replaced while they waited (status ready, out of the queue; not in `ready`).
   */
  artifacts: { total: number; ready: number; approved: number; archived: number; superseded: number };
  /** Outputs approved, all time (the same figure as artifacts.approved). */
  approvedArtifacts: number;
  /** Memory entries; active: not archived by the stale sweep. */
  memory: { total: number; active: number; archived: number };
  /** Sources by status; paused counts sources paused now (whatever their status). */
  sources: { total: number; pending: number; connected: number; error: number; paused: number };
  /** Tasks by status. */
  tasks: { total: number; queued: number; in_progress: number; needs_input: number; done: number; archived: number };
  /** Loop cycles by outcome (skipped: a scheduled cycle the cost cap stopped). */
  cycles: { total: number; running: number; completed: number; failed: number; skipped: number };
  anchors: SummaryAnchors;
}

/** When things first and last happened; null until they have. @format date-time throughout. */
export interface SummaryAnchors {
  workspaceCreatedAt: string;
  firstSignalAt: string | null;
  lastSignalAt: string | null;
  /** The start of the newest cycle of any outcome. */
  lastCycleAt: string | null;
  /** The end of the newest completed cycle. */
  lastCompletedCycleAt: string | null;
  lastOutputAt: string | null;
  /** The newest approve or archive decision on an output. */
  lastDecisionAt: string | null;
  lastTaskAt: string | null;
  lastMemoryAt: string | null;
  lastActivityAt: string | null;
}

const n = (v: unknown) => Number(v ?? 0);

/** Counts per value of an enum, zeros included, with their total. */
function byValue<K extends string>(values: readonly K[], rows: readonly { k: K; n: unknown }[]): { counts: Record<K, number>; total: number } {
  const counts = Object.fromEntries(values.map((v) => [v, 0])) as Record<K, number>;
  let total = 0;
  for (const r of rows) {
    if (r.k in counts) counts[r.k] += n(r.n);
    total += n(r.n);
  }
  return { counts, total };
}

export async function workspaceSummary(db: Db): Promise<WorkspaceSummary> {
  const count = sql<number>`count(*)`.as('n');
  const [ws, signals, untriaged, artifacts, superseded, memory, sources, paused, tasks, runs, anchors] = await Promise.all([
    readWorkspace(db),
    // count, min and max apart: each alone is answered from the index's ends or its b-tree counts;
    // together they make SQLite walk all 100k entries.
    sql<{ n: number; first: string | null; last: string | null }>`SELECT
        (SELECT count(*) FROM signals) AS n,
        (SELECT min(created_at) FROM signals) AS first,
        (SELECT max(created_at) FROM signals) AS last`
      .execute(db)
      .then((r) => r.rows[0]),
    db.selectFrom('signals').select(count).where('triagedAt', 'is', null).executeTakeFirstOrThrow(),
    db.selectFrom('artifacts').select(['status as k', count]).groupBy('status').execute(),
    db.selectFrom('artifacts').select(count).where('supersededAt', 'is not', null).executeTakeFirstOrThrow(),
    db.selectFrom('memory').select([count, sql<number>`coalesce(sum(archived_at IS NOT NULL), 0)`.as('archived')]).executeTakeFirstOrThrow(),
    db.selectFrom('sources').select(['status as k', count]).groupBy('status').execute(),
    db.selectFrom('sources').select(count).where('pausedAt', 'is not', null).executeTakeFirstOrThrow(),
    db.selectFrom('tasks').select(['status as k', count]).groupBy('status').execute(),
    db.selectFrom('runs').select(['status as k', count]).groupBy('status').execute(),
    // One row of maxima, each from the end of its time index.
    sql<{
      lastCycleAt: string | null;
      lastCompletedCycleAt: string | null;
      lastOutputAt: string | null;
      lastDecisionAt: string | null;
      lastTaskAt: string | null;
      lastMemoryAt: string | null;
      lastActivityAt: string | null;
    }>`SELECT
        (SELECT max(started_at) FROM runs) AS last_cycle_at,
        (SELECT finished_at FROM runs WHERE status = 'completed' ORDER BY started_at DESC LIMIT 1) AS last_completed_cycle_at,
        (SELECT max(created_at) FROM artifacts) AS last_output_at,
        (SELECT max(decided_at) FROM artifacts WHERE decided_at IS NOT NULL) AS last_decision_at,
        (SELECT max(created_at) FROM tasks) AS last_task_at,
        (SELECT max(created_at) FROM memory) AS last_memory_at,
        (SELECT max(created_at) FROM activity) AS last_activity_at`
      .execute(db)
      .then((r) => r.rows[0]),
  ]);
  const { counts: art, total: artTotal } = byValue<ArtifactStatus>(ARTIFACT_STATUSES, artifacts);
  const { counts: src, total: srcTotal } = byValue<SourceStatus>(SOURCE_STATUSES, sources);
  const { counts: tsk, total: tskTotal } = byValue<TaskStatus>(TASK_STATUSES, tasks);
  const { counts: run, total: runTotal } = byValue<RunStatus>(RUN_STATUSES, runs);
  return {
    signals: { total: n(signals.n), untriaged: n(untriaged.n) },
    artifacts: { total: artTotal, ready: art.ready - n(superseded.n), approved: art.approved, archived: art.archived, superseded: n(superseded.n) },
    approvedArtifacts: art.approved,
    memory: { total: n(memory.n), active: n(memory.n) - n(memory.archived), archived: n(memory.archived) },
    sources: { total: srcTotal, pending: src.pending, connected: src.connected, error: src.error, paused: n(paused.n) },
    tasks: { total: tskTotal, queued: tsk.queued, in_progress: tsk.in_progress, needs_input: tsk.needs_input, done: tsk.done, archived: tsk.archived },
    cycles: { total: runTotal, running: run.running, completed: run.completed, failed: run.failed, skipped: run.skipped },
    anchors: {
      workspaceCreatedAt: ws.createdAt,
      firstSignalAt: signals.first ?? null,
      lastSignalAt: signals.last ?? null,
      lastCycleAt: anchors.lastCycleAt ?? null,
      lastCompletedCycleAt: anchors.lastCompletedCycleAt ?? null,
      lastOutputAt: anchors.lastOutputAt ?? null,
      lastDecisionAt: anchors.lastDecisionAt ?? null,
      lastTaskAt: anchors.lastTaskAt ?? null,
      lastMemoryAt: anchors.lastMemoryAt ?? null,
      lastActivityAt: anchors.lastActivityAt ?? null,
    },
  };
}
