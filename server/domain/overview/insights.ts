import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import type { Clock } from '../../core/clock';
import { dayWindow } from '../../core/workspace-time';
import { readWorkspace } from '../workspace/workspace-store';
import { INSIGHTS_TAG_LIMIT, INSIGHTS_WINDOW_DAYS, intParam } from './rules';

/**
 * GET /insights: the most used tags of the trailing 14 workspace days (today included) on tasks,
 * outputs and memory entries created in that window (archived ones included: they were work of
 * the window). Each kind is read through its created-at index and joined to its tag table by key.
 */

export interface TagInsight {
  tag: string;
  /** tasks + artifacts + memory. */
  total: number;
  tasks: number;
  artifacts: number;
  memory: number;
}

export interface Insights {
  /** The window's days in the workspace timezone, YYYY-MM-DD (first and last, inclusive). */
  fromDay: string;
  toDay: string;
  /** @isInt */
  windowDays: number;
  /** Most used first (by total, then alphabetically), at most `limit`. */
  tags: TagInsight[];
  /** Distinct tags used in the window (all of them, not only those listed). */
  distinctTags: number;
  /** Items created in the window that carry at least one tag. */
  taggedItems: { tasks: number; artifacts: number; memory: number };
}

export async function insights(db: Db, clock: Clock, query: { limit?: number }): Promise<Insights> {
  const limit = intParam('limit', query.limit, INSIGHTS_TAG_LIMIT);
  const { timezone } = await readWorkspace(db);
  const win = dayWindow(clock.now(), timezone, INSIGHTS_WINDOW_DAYS);
  const from = win.from.toISOString();
  const to = win.to.toISOString();
  const rows = await sql<{ tag: string; kind: 'tasks' | 'artifacts' | 'memory'; n: number; items: number }>`
    WITH used AS (
      SELECT tt.tag AS tag, 'tasks' AS kind, t.id AS item FROM tasks t JOIN task_tags tt ON tt.task_id = t.id
        WHERE t.created_at >= ${from} AND t.created_at < ${to}
      UNION ALL
      SELECT at.tag, 'artifacts', a.id FROM artifacts a JOIN artifact_tags at ON at.artifact_id = a.id
        WHERE a.created_at >= ${from} AND a.created_at < ${to}
      UNION ALL
      SELECT mt.tag, 'memory', m.id FROM memory m JOIN memory_tags mt ON mt.memory_id = m.id
        WHERE m.created_at >= ${from} AND m.created_at < ${to}
    )
    SELECT tag, kind, count(*) AS n FROM used GROUP BY tag, kind`.execute(db);
  const byTag = new Map<string, TagInsight>();
  for (const r of rows.rows) {
    const entry = byTag.get(r.tag) ?? { tag: r.tag, total: 0, tasks: 0, artifacts: 0, memory: 0 };
    entry[r.kind] += Number(r.n);
    entry.total += Number(r.n);
    byTag.set(r.tag, entry);
  }
  const tagged = await sql<{ tasks: number; artifacts: number; memory: number }>`
    SELECT
      (SELECT count(*) FROM tasks t WHERE t.created_at >= ${from} AND t.created_at < ${to} AND EXISTS (SELECT 1 FROM task_tags WHERE task_id = t.id)) AS tasks,
      (SELECT count(*) FROM artifacts a WHERE a.created_at >= ${from} AND a.created_at < ${to} AND EXISTS (SELECT 1 FROM artifact_tags WHERE artifact_id = a.id)) AS artifacts,
      (SELECT count(*) FROM memory m WHERE m.created_at >= ${from} AND m.created_at < ${to} AND EXISTS (SELECT 1 FROM memory_tags WHERE memory_id = m.id)) AS memory`.execute(db);
  const t = tagged.rows[0];
  const tags = [...byTag.values()].sort((a, b) => b.total - a.total || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  return {
    fromDay: win.days[0],
    toDay: win.days[win.days.length - 1],
    windowDays: INSIGHTS_WINDOW_DAYS,
    tags: tags.slice(0, limit),
    distinctTags: tags.length,
    taggedItems: { tasks: Number(t?.tasks ?? 0), artifacts: Number(t?.artifacts ?? 0), memory: Number(t?.memory ?? 0) },
  };
}
