import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import type { TaskStatus } from '../../core/vocabulary';
import { microToUsd, UNASSIGNED_KEY, UNASSIGNED_NAME, UNTAGGED_KEY } from './rules';

/**
 * Cost by assignee, source and tag, from the tasks' running totals (tasks.cost_micro_usd and the
 * token totals the ledger keeps), so `includeDone` can choose which tasks count. Each breakdown
 * is one grouped query over the tasks, never a loop per task.
 */

/** The tasks still in the queue: what counts when `includeDone` is false. */
export const OPEN_TASK_STATUSES: readonly TaskStatus[] = ['queued', 'in_progress', 'needs_input'];
/** Every status: done and archived (by the stale sweep) tasks count too. */
export const ALL_TASK_STATUSES: readonly TaskStatus[] = ['queued', 'in_progress', 'needs_input', 'done', 'archived'];

export const countedStatuses = (includeDone: boolean): readonly TaskStatus[] => (includeDone ? ALL_TASK_STATUSES : OPEN_TASK_STATUSES);

/** One group's sums, exact (micro-USD). */
export interface GroupTotals {
  key: string;
  taskCount: number;
  inputTokens: number;
  outputTokens: number;
  costMicroUsd: number;
  sessionCount: number;
}

interface RawGroup {
  k: string;
  n: number | bigint;
  inp: number | bigint | null;
  outp: number | bigint | null;
  cost: number | bigint | null;
  sessions: number | bigint | null;
}

const num = (v: number | bigint | null | undefined): number => Number(v ?? 0);
const toGroup = (r: RawGroup): GroupTotals => ({ key: r.k, taskCount: num(r.n), inputTokens: num(r.inp), outputTokens: num(r.outp), costMicroUsd: num(r.cost), sessionCount: num(r.sessions) });
/** The counted tasks: of these statuses, and charged something (a task without cost adds nothing to any group, nor to its taskCount). */
const statusIn = (statuses: readonly TaskStatus[]) =>
  sql`t.status IN (${sql.join(statuses.map((s) => sql`${s}`))}) AND (t.cost_micro_usd > 0 OR t.total_input_tokens > 0 OR t.total_output_tokens > 0)`;

/** Groups with any cost or tokens, most expensive first (ties: key); equal keys (a tag literally named `untagged`) merged. */
function ranked(groups: GroupTotals[]): GroupTotals[] {
  const merged = new Map<string, GroupTotals>();
  for (const g of groups) {
    const m = merged.get(g.key);
    if (!m) merged.set(g.key, { ...g });
    else {
      m.taskCount += g.taskCount;
      m.inputTokens += g.inputTokens;
      m.outputTokens += g.outputTokens;
      m.costMicroUsd += g.costMicroUsd;
      m.sessionCount += g.sessionCount;
    }
  }
  return [...merged.values()]
    .filter((g) => g.costMicroUsd > 0 || g.inputTokens + g.outputTokens > 0)
    .sort((a, b) => b.costMicroUsd - a.costMicroUsd || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Each task's full cost to its assignee (`__unassigned__` when none). */
export async function assigneeGroups(db: Db, statuses: readonly TaskStatus[]): Promise<GroupTotals[]> {
  const { rows } = await sql<RawGroup>`
    SELECT coalesce(t.assigned_to_user_id, ${UNASSIGNED_KEY}) AS k, count(*) AS n, sum(t.total_input_tokens) AS inp,
           sum(t.total_output_tokens) AS outp, sum(t.cost_micro_usd) AS cost, sum(t.session_count) AS sessions
    FROM tasks t WHERE ${statusIn(statuses)} GROUP BY k`.execute(db);
  return ranked(rows.map(toGroup));
}

/** Each task's full cost to every tag it carries; tasks without tags to `untagged`. */
export async function tagGroups(db: Db, statuses: readonly TaskStatus[]): Promise<GroupTotals[]> {
  const { rows } = await sql<RawGroup>`
    SELECT tt.tag AS k, count(*) AS n, sum(t.total_input_tokens) AS inp, sum(t.total_output_tokens) AS outp,
           sum(t.cost_micro_usd) AS cost, sum(t.session_count) AS sessions
    FROM task_tags tt JOIN tasks t ON t.id = tt.task_id WHERE ${statusIn(statuses)} GROUP BY tt.tag
    UNION ALL
    SELECT ${UNTAGGED_KEY} AS k, count(*) AS n, sum(t.total_input_tokens) AS inp, sum(t.total_output_tokens) AS outp,
           sum(t.cost_micro_usd) AS cost, sum(t.session_count) AS sessions
    FROM tasks t WHERE ${statusIn(statuses)} AND NOT EXISTS (SELECT 1 FROM task_tags x WHERE x.task_id = t.id)`.execute(db);
  return ranked(rows.map(toGroup));
}

/**
 * Each task's cost split equally across its originating sources (the distinct sources of the
 * signals it was built from; a deleted source no longer counts, its signals keep no source). The
 * split is the ledger's `equalSplit`, done in SQL: sources sorted by id, each gets the integer
 * floor share and the first (total mod n) get one unit more, so a task's shares sum to its total
 * exactly. Tasks without a source are in no row. `sessionCount` is not split (0).
 */
export async function sourceGroups(db: Db, statuses: readonly TaskStatus[]): Promise<GroupTotals[]> {
  const share = (col: string) => sql`sum(${sql.ref(`t.${col}`)} / p.n + (p.r < ${sql.ref(`t.${col}`)} % p.n))`;
  const { rows } = await sql<RawGroup>`
    WITH pairs AS (
      SELECT DISTINCT t.id AS task_id, s.source_id AS source_id
      FROM tasks t
      JOIN json_each(CASE WHEN json_valid(t.source_signal_ids) THEN t.source_signal_ids ELSE '[]' END) j
      JOIN signals s ON s.id = j.value
      WHERE ${statusIn(statuses)} AND s.source_id IS NOT NULL
    ),
    p AS (
      SELECT task_id, source_id,
             row_number() OVER (PARTITION BY task_id ORDER BY source_id) - 1 AS r,
             count(*) OVER (PARTITION BY task_id) AS n
      FROM pairs
    )
    SELECT p.source_id AS k, count(*) AS n, ${share('total_input_tokens')} AS inp, ${share('total_output_tokens')} AS outp,
           ${share('cost_micro_usd')} AS cost, 0 AS sessions
    FROM p JOIN tasks t ON t.id = p.task_id GROUP BY p.source_id`.execute(db);
  return ranked(rows.map(toGroup));
}

/** Names of assignee keys: the member's name (removed members keep theirs), `Unassigned` for the bucket. */
export async function assigneeNames(db: Db, keys: readonly string[]): Promise<Map<string, { displayName: string; removed: boolean }>> {
  const ids = keys.filter((k) => k !== UNASSIGNED_KEY);
  const users = ids.length ? await db.selectFrom('users').select(['id', 'name', 'removedAt']).where('id', 'in', ids).execute() : [];
  const out = new Map(users.map((u) => [u.id, { displayName: u.name, removed: u.removedAt !== null }]));
  out.set(UNASSIGNED_KEY, { displayName: UNASSIGNED_NAME, removed: false });
  return out;
}

/** USD of a group (6 decimals). */
export const groupUsd = (g: GroupTotals): number => microToUsd(g.costMicroUsd);
