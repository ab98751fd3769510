import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import type { CursorKey } from '../../core/lists';
import type { SignalKind, SignalPriority } from '../../core/vocabulary';
import { type ReactionEmoji } from '../reactions/reactions';
import { reactionSummaries } from '../reactions/reaction-store';

/** Signals as the API shows them, and the queries that read them. */

export type { SignalKind, SignalPriority };

export interface SignalReactionSummary {
  emoji: ReactionEmoji;
  /** @isInt */
  count: number;
  /** Members who reacted with this emoji, earliest first. */
  userIds: string[];
  /** Whether the viewer (asUserId, else the workspace owner) reacted with this emoji. */
  reacted: boolean;
}

export interface Signal {
  id: string;
  kind: SignalKind;
  priority: SignalPriority;
  title: string;
  detail: string;
  sourceUrl: string | null;
  /** The source that produced the signal; null for signals created by hand, or pushed in without a sourceId. */
  sourceId: string | null;
  /** That source's label, when the signal has a source. */
  sourceLabel: string | null;
  /** The sender's id of a signal pushed through the inbound webhook. */
  externalId: string | null;
  pinned: boolean;
  /** One entry per emoji that has at least one reaction, in the order 👍 👀 🎯 ❤️ 🚀. */
  reactions: SignalReactionSummary[];
  /** When Desk received the signal. */
  createdAt: string;
  /**
   * When the feed item says it was published (never later than createdAt); null when the item
   * gave no date, or the signal did not come from a feed. "Newest first" orders by it, falling
   * back to createdAt.
   */
  publishedAt: string | null;
}

export function selectSignals(db: Db) {
  return db
    .selectFrom('signals')
    .leftJoin('sources', 'sources.id', 'signals.sourceId')
    .select([
      'signals.id',
      'signals.kind',
      'signals.priority',
      'signals.title',
      'signals.detail',
      'signals.sourceUrl',
      'signals.sourceId',
      'sources.label as sourceLabel',
      'signals.externalId',
      'signals.pinned',
      'signals.createdAt',
      'signals.publishedAt',
      sql<string>`coalesce(signals.published_at, signals.created_at)`.as('listedAt'),
      // the tie-break of the list order and the second half of its cursor
      sql<number>`signals.rowid`.as('rowid'),
    ]);
}

export type SignalRow = Awaited<ReturnType<ReturnType<typeof selectSignals>['execute']>>[number];

/** The sort key of a list row, as its cursor carries it: (published time, else received time; rowid). */
export const signalCursorKey = (row: SignalRow): CursorKey => [row.listedAt, row.rowid];
const LISTED_AT = sql`coalesce(signals.published_at, signals.created_at)`;
export const SIGNAL_CURSOR_SHAPE = ['string', 'number'] as const;

export interface SignalListFilter {
  /** Rows to fetch (a page's limit + 1, to know whether another page follows). */
  fetch: number;
  since?: string;
  sourceId?: string;
  /** The cursor position: only rows after it. */
  after?: CursorKey;
}

/**
 * The list query: newest first by published time (a feed item's own date), else received time,
 * served by signals_newest, or signals_source_newest when filtered by source (expression indexes
 * of migration 0021); both carry rowid, which breaks ties (insertion order), so neither the order
 * nor the cursor range needs a sort step. `since` is on the received time (a script polling for
 * what arrived since must not miss an old item that arrived late). Exported so a test can check
 * the query plan.
 */
export function signalListQuery(db: Db, filter: SignalListFilter) {
  let sel = selectSignals(db);
  if (filter.sourceId !== undefined) sel = sel.where('signals.sourceId', '=', filter.sourceId);
  if (filter.since !== undefined) sel = sel.where('signals.createdAt', '>=', filter.since);
  if (filter.after !== undefined) {
    // Spelled out rather than as a row value: SQLite takes `expr <= ?` as a range of the expression index.
    const [at, rowid] = filter.after;
    sel = sel.where(sql<boolean>`${LISTED_AT} <= ${at} AND (${LISTED_AT} < ${at} OR signals.rowid < ${rowid})`);
  }
  return sel.orderBy(LISTED_AT, 'desc').orderBy(sql`signals.rowid`, 'desc').limit(filter.fetch);
}

/** Rows as the API shows them to `viewerId` (whose `reacted` flags are set). */
export async function toSignals(db: Db, rows: SignalRow[], viewerId: string): Promise<Signal[]> {
  const reactions = await reactionSummaries(db, 'signal', rows.map((r) => r.id), viewerId);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    priority: r.priority,
    title: r.title,
    detail: r.detail,
    sourceUrl: r.sourceUrl,
    sourceId: r.sourceId,
    sourceLabel: r.sourceLabel,
    externalId: r.externalId ?? null,
    pinned: r.pinned === 1,
    reactions: reactions.get(r.id) ?? [],
    createdAt: r.createdAt,
    publishedAt: r.publishedAt ?? null,
  }));
}

