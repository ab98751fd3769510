import type { Db } from '../../../db/connection';
import { inTransaction } from '../../../db/transactions';
import { newId } from '../../core/ids';
import { afterKey, pageRequest, toPage, type CursorKey } from '../../core/lists';
import { dayWindow } from '../../core/workspace-time';
import { FOCUS_HISTORY_DAYS, FOCUS_HISTORY_LIST, checkFocusHistoryDays, normaliseFocusTags } from './rules';
import { changeWorkspace, insertFocusShift, readWorkspace, type WorkspaceContext } from './workspace-store';

/** Focus tags and their history: each different set of tags starts a focus shift. */

export interface FocusShift {
  id: string;
  /** The focus tags set by this shift; empty when the focus was cleared. */
  tags: string[];
  /** @format date-time */
  startedAt: string;
  /**
   * When the next shift replaced it; null for the current focus.
   * @format date-time
   */
  endedAt: string | null;
  /**
   * Whole minutes the focus held (until now for the current one).
   * @isInt
   */
  durationMinutes: number;
  current: boolean;
}

export interface FocusHistoryQuery {
  sinceDays?: number;
  limit?: number;
  cursor?: string;
}

/** One page of the focus history. */
export interface FocusHistory {
  /**
   * The window the shifts were taken from, in workspace days.
   * @isInt
   */
  sinceDays: number;
  /** Newest first. */
  shifts: FocusShift[];
  /** Pass as `cursor` to read the next (older) page; null on the last page. */
  nextCursor: string | null;
}

export async function focusTags(ctx: WorkspaceContext): Promise<string[]> {
  return JSON.parse((await readWorkspace(ctx.db)).focusTags) as string[];
}

/** Replaces the tags; a different set (order ignored) starts a new focus shift, the same set changes nothing. */
export async function setFocusTags(ctx: WorkspaceContext, tags: string[]): Promise<string[]> {
  const next = normaliseFocusTags(tags);
  // Compared inside the transaction, so concurrent identical requests start one shift.
  return inTransaction(ctx.db, async (trx) => {
    const before = JSON.parse((await readWorkspace(trx)).focusTags) as string[];
    if (before.length === next.length && before.every((t) => next.includes(t))) return before;
    const profile = await changeWorkspace(
      ctx,
      { focusTags: JSON.stringify(next) },
      { kind: 'workspace.focus_tags', detail: next.length ? `Focus set to ${next.join(', ')}` : 'Focus cleared' },
      async (trx) => {
        await insertFocusShift(trx, { id: newId('fcs', ctx.clock), tags: JSON.stringify(next), startedAt: ctx.clock.now().toISOString() });
      },
    );
    return profile.focusTags;
  });
}

/** Keyset order of the history: newest first, id breaking ties (index focus_shifts_started_id). */
const KEY = ['focus_shifts.started_at', 'focus_shifts.id'] as const;

/** One page of shifts that started at or after `from`, newest first (exported for the query-plan test). */
export function focusHistoryQuery(db: Db, from: string, after: CursorKey | undefined, limit: number) {
  let query = db.selectFrom('focusShifts').selectAll().where('startedAt', '>=', from);
  if (after) query = query.where(afterKey(KEY, after, 'desc'));
  return query.orderBy('startedAt', 'desc').orderBy('id', 'desc').limit(limit + 1);
}

/**
 * Focus shifts that started on the last `sinceDays` workspace days (today included), newest
 * first, one page at a time, each with how long it held.
 */
export async function focusHistory(ctx: WorkspaceContext, query: FocusHistoryQuery): Promise<FocusHistory> {
  const sinceDays = query.sinceDays ?? FOCUS_HISTORY_DAYS.default;
  checkFocusHistoryDays(sinceDays);
  const { limit, after } = pageRequest(FOCUS_HISTORY_LIST, query, KEY.length);
  const now = ctx.clock.now();
  const { timezone } = await readWorkspace(ctx.db);
  const from = dayWindow(now, timezone, sinceDays).from.toISOString();
  const page = toPage(await focusHistoryQuery(ctx.db, from, after, limit).execute(), limit, (r) => [r.startedAt, r.id]);

  // A shift ends where the next newer one starts. Within the page that is the row before it; the
  // first row's successor is off the page (on the previous page, or none for the current focus).
  const first = page.rows[0];
  const successor = first
    ? await ctx.db
        .selectFrom('focusShifts')
        .select('startedAt')
        .where(afterKey(KEY, [first.startedAt, first.id], 'asc'))
        .orderBy('startedAt', 'asc')
        .orderBy('id', 'asc')
        .limit(1)
        .executeTakeFirst()
    : undefined;

  const shifts = page.rows.map((row, i): FocusShift => {
    const endedAt = i === 0 ? (successor?.startedAt ?? null) : page.rows[i - 1].startedAt;
    const end = endedAt === null ? now : new Date(endedAt);
    return {
      id: row.id,
      tags: JSON.parse(row.tags) as string[],
      startedAt: row.startedAt,
      endedAt,
      durationMinutes: Math.max(0, Math.floor((end.getTime() - new Date(row.startedAt).getTime()) / 60_000)),
      current: endedAt === null,
    };
  });
  return { sinceDays, shifts, nextCursor: page.nextCursor };
}
