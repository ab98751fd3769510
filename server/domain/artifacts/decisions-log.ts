import type { Db } from '../../../db/connection';
import { HOUR_MS, type Clock } from '../../core/clock';
import { invalid } from '../../core/errors';
import { afterKey, pageRequest, toPage } from '../../core/lists';
import {
  approvalAgeHours,
  DECISIONS_LIST,
  DECISIONS_WINDOW_DEFAULT_DAYS,
  DECISIONS_WINDOW_MAX_DAYS,
  EXPORT_MAX_ROWS,
  reviewClock,
  type ArtifactKind,
} from './rules';

/** The decisions log: approved and archived outputs, brief-type ones excluded (the spec). */

export interface DecisionRecord {
  artifactId: string;
  title: string;
  kind: ArtifactKind;
  status: 'approved' | 'archived';
  taskId: string | null;
  taskTitle: string | null;
  /** The review owner (the task's assignee) now; null without one. */
  reviewOwner: { userId: string; name: string } | null;
  tags: string[];
  readyAt: string;
  decidedAt: string;
  /** Hours from readyAt to decidedAt, two decimals. */
  waitHours: number;
}

export interface DecisionsList {
  /** @isInt */
  windowDays: number;
  /** The window's start: decisions at or after it are listed. */
  since: string;
  /** Newest decision first. */
  decisions: DecisionRecord[];
  /** Pass as `cursor` (with the same windowDays) for the next, older decisions; null on the last page. */
  nextCursor: string | null;
}

export interface DecisionsExport {
  /** Newest decision first, at most 5000. */
  rows: DecisionRecord[];
  /**
   * Every approved or archived non-brief output.
   * @isInt
   */
  total: number;
  /** true when total is above the 5000-row cap (the oldest decisions are left out). */
  capped: boolean;
}

function decided(db: Db) {
  return db
    .selectFrom('artifacts')
    .leftJoin('tasks', 'tasks.id', 'artifacts.taskId')
    .leftJoin('users as owner', 'owner.id', 'tasks.assignedToUserId')
    .where('artifacts.status', 'in', ['approved', 'archived'])
    .where('artifacts.decidedAt', 'is not', null)
    .where('artifacts.kind', '!=', 'brief');
}

async function records(db: Db, query: ReturnType<typeof decided>, limit: number): Promise<DecisionRecord[]> {
  const rows = await query
    .select([
      'artifacts.id',
      'artifacts.title',
      'artifacts.kind',
      'artifacts.status',
      'artifacts.taskId',
      'tasks.title as taskTitle',
      'tasks.assignedToUserId as ownerId',
      'owner.name as ownerName',
      'artifacts.readyAt',
      'artifacts.createdAt',
      'artifacts.updatedAt',
      'artifacts.decidedAt',
    ])
    .orderBy('artifacts.decidedAt', 'desc')
    .orderBy('artifacts.id', 'desc')
    .limit(limit)
    .execute();
  const tags = new Map<string, string[]>();
  const ids = rows.map((r) => r.id);
  for (let i = 0; i < ids.length; i += 500) {
    const part = await db.selectFrom('artifactTags').select(['artifactId', 'tag']).where('artifactId', 'in', ids.slice(i, i + 500)).orderBy('tag').execute();
    for (const t of part) tags.set(t.artifactId, [...(tags.get(t.artifactId) ?? []), t.tag]);
  }
  return rows.map((r) => {
    const { readyAt } = reviewClock(r);
    return {
      artifactId: r.id,
      title: r.title,
      kind: r.kind,
      status: r.status as DecisionRecord['status'],
      taskId: r.taskId,
      taskTitle: r.taskTitle ?? null,
      reviewOwner: r.ownerId ? { userId: r.ownerId, name: r.ownerName ?? r.ownerId } : null,
      tags: tags.get(r.id) ?? [],
      readyAt,
      decidedAt: r.decidedAt!,
      waitHours: approvalAgeHours(readyAt, new Date(r.decidedAt!)),
    };
  });
}

export async function listDecisions(db: Db, clock: Clock, query: { windowDays?: number; limit?: number; cursor?: string }): Promise<DecisionsList> {
  const windowDays = query.windowDays ?? DECISIONS_WINDOW_DEFAULT_DAYS;
  if (!Number.isInteger(windowDays) || windowDays < 1 || windowDays > DECISIONS_WINDOW_MAX_DAYS) throw invalid('windowDays', `must be an integer 1-${DECISIONS_WINDOW_MAX_DAYS}`);
  const { limit, after } = pageRequest(DECISIONS_LIST, query, ['string', 'string']);
  const since = new Date(clock.now().getTime() - windowDays * 24 * HOUR_MS).toISOString();
  let q = decided(db).where('artifacts.decidedAt', '>=', since);
  if (after !== undefined) q = q.where(afterKey(['artifacts.decided_at', 'artifacts.id'], after, 'desc'));
  const page = toPage(await records(db, q, limit + 1), limit, (r) => [r.decidedAt, r.artifactId]);
  return { windowDays, since, decisions: page.rows, nextCursor: page.nextCursor };
}

export async function exportDecisions(db: Db, cap = EXPORT_MAX_ROWS): Promise<DecisionsExport> {
  const { n } = await decided(db).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const total = Number(n);
  return { rows: await records(db, decided(db), cap), total, capped: total > cap };
}

const CSV_COLUMNS = ['artifactId', 'title', 'kind', 'status', 'taskId', 'taskTitle', 'reviewOwnerId', 'reviewOwnerName', 'tags', 'readyAt', 'decidedAt', 'waitHours'] as const;

/** RFC 4180 cell: quoted when it holds a comma, quote or line break; a leading = + - @ is prefixed with ' so spreadsheets never run it. */
export function cell(value: string | number | null): string {
  if (value === null) return '';
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The export as CSV: a header row, then one row per decision (tags joined by spaces). */
export function decisionsCsv(rows: readonly DecisionRecord[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const r of rows) {
    lines.push(
      [r.artifactId, r.title, r.kind, r.status, r.taskId, r.taskTitle, r.reviewOwner?.userId ?? null, r.reviewOwner?.name ?? null, r.tags.join(' '), r.readyAt, r.decidedAt, r.waitHours]
        .map(cell)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
