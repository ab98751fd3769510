import { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import type { Day } from '../../core/workspace-time';
import { csvStream, EXPORT_PAGE_ROWS, type CsvColumn } from '../../core/csv';
import type { TaskStatus } from '../../core/vocabulary';
import { assigneeGroups, assigneeNames, ALL_TASK_STATUSES, sourceGroups, type GroupTotals } from './cost-breakdowns';
import { readKeySeries } from './cost-series';
import { COST_EXPORT_MAX_ROWS, microToCents, microToUsd, WORKSPACE_KEY } from './rules';

/**
 * GET /workspace/cost-export: daily spend (trailing 30 workspace days), every task with cost, and
 * the breakdowns by source (equal split) and by assignee, over all tasks (done and archived ones
 * included: an export is the whole record). At most 5000 data rows in all: the sections are filled
 * in the order daily, byAssignee, bySource, byTask (the short summaries first, the long per-task
 * list takes what is left, most expensive first); `capped` tells when rows were left out.
 */

export interface CostExportDay {
  /** A workspace-timezone day, YYYY-MM-DD. */
  date: string;
  /** @isInt */
  inputTokens: number;
  /** @isInt */
  outputTokens: number;
  /** USD, 6 decimals. */
  estimatedCostUsd: number;
  /** @isInt */
  costCents: number;
}

export interface CostExportTask {
  taskId: string;
  title: string;
  status: TaskStatus;
  /** null: unassigned. */
  assigneeId: string | null;
  assigneeName: string | null;
  tags: string[];
  /** @isInt */
  totalInputTokens: number;
  /** @isInt */
  totalOutputTokens: number;
  estimatedCostUsd: number;
  /** @isInt */
  sessionCount: number;
  costPerSessionUsd: number;
}

export interface CostExportSource {
  sourceId: string;
  label: string;
  /** @isInt */
  taskCount: number;
  /** @isInt */
  totalInputTokens: number;
  /** @isInt */
  totalOutputTokens: number;
  /** The source's equal share of each of its tasks' cost, USD 6 decimals. */
  estimatedCostUsd: number;
}

export interface CostExportAssignee {
  /** The member's user id, or `__unassigned__`. */
  assigneeId: string;
  displayName: string;
  /** @isInt */
  taskCount: number;
  /** @isInt */
  totalInputTokens: number;
  /** @isInt */
  totalOutputTokens: number;
  estimatedCostUsd: number;
  /** @isInt */
  sessionCount: number;
}

export interface CostExport {
  /** The trailing 30 workspace days, oldest first, today last, zero-filled. */
  daily: CostExportDay[];
  /** Tasks with any cost, most expensive first (ties: id). */
  byTask: CostExportTask[];
  /** Sources by the equal split of their tasks' cost, most first. */
  bySource: CostExportSource[];
  /** Assignees (and the unassigned bucket) by their tasks' full cost, most first. */
  byAssignee: CostExportAssignee[];
  /** true when rows were left out to keep the export at 5000 data rows. */
  capped: boolean;
}

/** The export with its per-task rows read a page at a time as the answer is written (the other sections are short). */
export type StreamedCostExport = Omit<CostExport, 'byTask'> & { byTask: AsyncIterable<CostExportTask> };

export async function buildCostExport(db: Db, window: readonly Day[], cap = COST_EXPORT_MAX_ROWS): Promise<StreamedCostExport> {
  const series = await readKeySeries(db, 'workspace', WORKSPACE_KEY, window);
  const daily = series.slice(0, cap).map((d) => ({ date: d.day, inputTokens: d.inputTokens, outputTokens: d.outputTokens, estimatedCostUsd: microToUsd(d.costMicroUsd), costCents: microToCents(d.costMicroUsd) }));
  let left = cap - daily.length;
  const [assignees, sources] = await Promise.all([assigneeGroups(db, ALL_TASK_STATUSES), sourceGroups(db, ALL_TASK_STATUSES)]);
  const byAssignee = await assigneeRows(db, assignees.slice(0, left));
  left -= byAssignee.length;
  const bySource = await sourceRows(db, sources.slice(0, left));
  left -= bySource.length;
  const { rows: byTask, exported, total: taskTotal } = await taskRows(db, left);
  const capped = daily.length < series.length || byAssignee.length < assignees.length || bySource.length < sources.length || exported < taskTotal;
  return { daily, byTask, bySource, byAssignee, capped };
}

async function assigneeRows(db: Db, groups: readonly GroupTotals[]): Promise<CostExportAssignee[]> {
  const names = await assigneeNames(db, groups.map((g) => g.key));
  return groups.map((g) => ({
    assigneeId: g.key,
    displayName: names.get(g.key)?.displayName ?? g.key,
    taskCount: g.taskCount,
    totalInputTokens: g.inputTokens,
    totalOutputTokens: g.outputTokens,
    estimatedCostUsd: microToUsd(g.costMicroUsd),
    sessionCount: g.sessionCount,
  }));
}

async function sourceRows(db: Db, groups: readonly GroupTotals[]): Promise<CostExportSource[]> {
  const labels = new Map<string, string>();
  const ids = groups.map((g) => g.key);
  for (let i = 0; i < ids.length; i += 500) {
    for (const s of await db.selectFrom('sources').select(['id', 'label']).where('id', 'in', ids.slice(i, i + 500)).execute()) labels.set(s.id, s.label);
  }
  return groups.flatMap((g) => {
    const label = labels.get(g.key);
    return label === undefined ? [] : [{ sourceId: g.key, label, taskCount: g.taskCount, totalInputTokens: g.inputTokens, totalOutputTokens: g.outputTokens, estimatedCostUsd: microToUsd(g.costMicroUsd) }];
  });
}

/**
 * Tasks with cost, most expensive first (ties: id), at most `limit`: the order is read once as ids
 * (no index sorts tasks by cost), then each page's rows and tags by primary key as the answer is
 * written (server/domain/exports/paged.ts: the whole list held while it was written grew the old space).
 */
async function taskRows(db: Db, limit: number): Promise<{ rows: AsyncIterable<CostExportTask>; exported: number; total: number }> {
  const withCost = db.selectFrom('tasks').where((eb) => eb.or([eb('tasks.costMicroUsd', '>', 0), eb('tasks.totalInputTokens', '>', 0), eb('tasks.totalOutputTokens', '>', 0)]));
  const { n } = await withCost.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
  const order = limit <= 0 ? [] : (await withCost.select('tasks.id').orderBy('tasks.costMicroUsd', 'desc').orderBy('tasks.id').limit(limit).execute()).map((r) => r.id);
  const readPage = async (ids: string[]): Promise<CostExportTask[]> => {
    const found = await db
      .selectFrom('tasks')
      .leftJoin('users', 'users.id', 'tasks.assignedToUserId')
      .select(['tasks.id', 'tasks.title', 'tasks.status', 'tasks.assignedToUserId', 'users.name as assigneeName', 'tasks.totalInputTokens', 'tasks.totalOutputTokens', 'tasks.costMicroUsd', 'tasks.sessionCount'])
      .where('tasks.id', 'in', ids)
      .execute();
    const byId = new Map(found.map((r) => [r.id, r]));
    const tags = new Map<string, string[]>();
    for (const t of await db.selectFrom('taskTags').select(['taskId', 'tag']).where('taskId', 'in', ids).orderBy('taskId').orderBy('tag').execute()) tags.set(t.taskId, [...(tags.get(t.taskId) ?? []), t.tag]);
    return ids.flatMap((id) => {
      const r = byId.get(id);
      if (r === undefined) return []; // deleted since the order was read
      return [
        {
          taskId: r.id,
          title: r.title,
          status: r.status,
          assigneeId: r.assignedToUserId,
          assigneeName: r.assignedToUserId === null ? null : (r.assigneeName ?? r.assignedToUserId),
          tags: tags.get(r.id) ?? [],
          totalInputTokens: r.totalInputTokens,
          totalOutputTokens: r.totalOutputTokens,
          estimatedCostUsd: microToUsd(r.costMicroUsd),
          sessionCount: r.sessionCount,
          costPerSessionUsd: r.sessionCount > 0 ? microToUsd(r.costMicroUsd / r.sessionCount) : 0,
        },
      ];
    });
  };
  async function* rows(): AsyncGenerator<CostExportTask> {
    for (let i = 0; i < order.length; i += EXPORT_PAGE_ROWS) yield* await readPage(order.slice(i, i + EXPORT_PAGE_ROWS));
  }
  return { rows: rows(), exported: order.length, total: Number(n) };
}

/** The export's tables: each is one CSV of its own (`table=`), a standard CSV parser reads it whole. */
export const COST_EXPORT_TABLES = ['daily', 'byTask', 'bySource', 'byAssignee'] as const;
export type CostExportTable = (typeof COST_EXPORT_TABLES)[number];

/** One table of the cost export: its rows, how many exist, and whether the 5000-row cap left some out. */
export interface CostTableExport {
  table: CostExportTable;
  /** The table's rows, in the order of the whole export's section. */
  rows: (CostExportDay | CostExportTask | CostExportSource | CostExportAssignee)[];
  /** Rows the table has. @isInt */
  total: number;
  capped: boolean;
}

export type StreamedCostTable = Omit<CostTableExport, 'rows'> & { rows: AsyncIterable<CostTableExport['rows'][number]> | Iterable<CostTableExport['rows'][number]> };

/** One table on its own, up to `cap` rows of it (the whole export shares its cap across the four). */
export async function buildCostTable(db: Db, window: readonly Day[], table: CostExportTable, cap = COST_EXPORT_MAX_ROWS): Promise<StreamedCostTable> {
  const whole = <T>(rows: T[], total: number) => ({ table, rows, total, capped: total > rows.length });
  switch (table) {
    case 'daily': {
      const series = await readKeySeries(db, 'workspace', WORKSPACE_KEY, window);
      const rows = series.slice(0, cap).map((d) => ({ date: d.day, inputTokens: d.inputTokens, outputTokens: d.outputTokens, estimatedCostUsd: microToUsd(d.costMicroUsd), costCents: microToCents(d.costMicroUsd) }));
      return whole(rows, series.length);
    }
    case 'byAssignee': {
      const groups = await assigneeGroups(db, ALL_TASK_STATUSES);
      return whole(await assigneeRows(db, groups.slice(0, cap)), groups.length);
    }
    case 'bySource': {
      const groups = await sourceGroups(db, ALL_TASK_STATUSES);
      return whole(await sourceRows(db, groups.slice(0, cap)), groups.length);
    }
    case 'byTask': {
      const { rows, exported, total } = await taskRows(db, cap);
      return { table, rows, total, capped: exported < total };
    }
  }
}

type Row<K extends keyof CostExport> = CostExport[K] extends readonly (infer T)[] ? T : never;
const col = <T>(header: string, value: CsvColumn<T>['value']): CsvColumn<T> => ({ header, value });

const DAILY: CsvColumn<Row<'daily'>>[] = [col('date', (d) => d.date), col('inputTokens', (d) => d.inputTokens), col('outputTokens', (d) => d.outputTokens), col('estimatedCostUsd', (d) => d.estimatedCostUsd), col('costCents', (d) => d.costCents)];
const BY_TASK: CsvColumn<Row<'byTask'>>[] = [
  col('taskId', (t) => t.taskId),
  col('title', (t) => t.title),
  col('status', (t) => t.status),
  col('assigneeId', (t) => t.assigneeId),
  col('assigneeName', (t) => t.assigneeName),
  col('tags', (t) => t.tags.join(' ')),
  col('totalInputTokens', (t) => t.totalInputTokens),
  col('totalOutputTokens', (t) => t.totalOutputTokens),
  col('estimatedCostUsd', (t) => t.estimatedCostUsd),
  col('sessionCount', (t) => t.sessionCount),
  col('costPerSessionUsd', (t) => t.costPerSessionUsd),
];
const BY_SOURCE: CsvColumn<Row<'bySource'>>[] = [col('sourceId', (s) => s.sourceId), col('label', (s) => s.label), col('taskCount', (s) => s.taskCount), col('totalInputTokens', (s) => s.totalInputTokens), col('totalOutputTokens', (s) => s.totalOutputTokens), col('estimatedCostUsd', (s) => s.estimatedCostUsd)];
const BY_ASSIGNEE: CsvColumn<Row<'byAssignee'>>[] = [
  col('assigneeId', (a) => a.assigneeId),
  col('displayName', (a) => a.displayName),
  col('taskCount', (a) => a.taskCount),
  col('totalInputTokens', (a) => a.totalInputTokens),
  col('totalOutputTokens', (a) => a.totalOutputTokens),
  col('estimatedCostUsd', (a) => a.estimatedCostUsd),
  col('sessionCount', (a) => a.sessionCount),
];

/** The CSV columns of each table (tags joined by spaces). */
export const COST_TABLE_COLUMNS = { daily: DAILY, byTask: BY_TASK, bySource: BY_SOURCE, byAssignee: BY_ASSIGNEE } as const;

/**
 * One table as CSV, written a record at a time as the response reads it (server/core/csv.ts: a
 * header row, RFC 4180 cells, formulas guarded). Before issue 30 the four tables went into one file
 * separated by `# <name>` lines, which no standard CSV parser reads.
 */
export function costTableCsvStream(data: StreamedCostTable): Readable {
  return csvStream(COST_TABLE_COLUMNS[data.table] as readonly CsvColumn<CostTableExport['rows'][number]>[], data.rows);
}
