import { sql } from 'kysely';
import { DateTime } from 'luxon';
import type { Db } from '../../../db/connection';
import { decodeCursor, listLimit, toPage } from '../../core/lists';
import { addDays, dayOf, lastDays, startOfDay, type Day } from '../../core/workspace-time';
import { resolveActor } from '../members/resolve-actor';
import { checkTag } from '../tasks/rules';
import type { MemoryDeps } from './memory-crud';
import { getMemoryRow, toEntries, type MemoryEntry, type MemoryRow } from './memory-store';
import { readKeySeries, toPoints, type CostPoint } from '../cost/cost-series';
import { checkIntParam, EXEMPT_IMPORTANCE, STALE_MEMORY_LIST, STALE_MEMORY_THRESHOLD, TOP_LIMIT, TRAJECTORY_DAYS } from './rules';

export type { CostPoint };

export interface StaleMemoryEntry extends MemoryEntry {
  /** Workspace-timezone calendar days since the last retrieval (0 = today); null when never retrieved. @isInt */
  daysSinceRetrieved: number | null;
  /** Workspace-timezone calendar days since the entry was created (0 = today). @isInt */
  daysSinceCreated: number;
}

export interface StaleMemoryList {
  /** Stalest first: by last retrieval (creation for never-retrieved entries), oldest first. */
  memory: StaleMemoryEntry[];
  /** @isInt */
  thresholdDays: number;
  includeNeverRetrieved: boolean;
  nextCursor: string | null;
}

export interface RetrievalPoint {
  /** A workspace-timezone day, YYYY-MM-DD. */
  date: string;
  /** @isInt */
  count: number;
}

export interface RetrievalTrajectory {
  memoryId: string;
  /** @isInt */
  days: number;
  /** One point per workspace day, oldest first, today last; days without retrievals are 0. */
  points: RetrievalPoint[];
}

export interface CostTrajectory {
  memoryId: string;
  /** @isInt */
  days: number;
  /** One point per workspace day, oldest first, today last; days without cost are 0. */
  points: CostPoint[];
}

export interface TopRetrievedEntry extends MemoryEntry {
  /** Retrievals within the requested `days` window (the ranking key). @isInt */
  retrievalsInWindow: number;
  /** Daily retrievals over the last 7 workspace days, oldest first, zero-filled. */
  trajectory7d: RetrievalPoint[];
}

export interface TopRetrievedList {
  /** @isInt */
  days: number;
  memory: TopRetrievedEntry[];
}

export interface TopCostList {
  memory: MemoryEntry[];
}

/** Whole calendar days from `from` to `to` (both workspace days). */
export const daysBetween = (from: Day, to: Day) => Math.round(DateTime.fromISO(to, { zone: 'UTC' }).diff(DateTime.fromISO(from, { zone: 'UTC' }), 'days').days);

/**
 * The first instant of the window "within the last n days": the start of the workspace day n-1
 * days before today. An entry last retrieved before it was not retrieved within n days, so its
 * daysSinceRetrieved is at least n (a day-based rule, right across DST changes).
 */
export function withinCutoff(now: Date, timezone: string, n: number): string {
  return startOfDay(addDays(dayOf(now, timezone), -(n - 1)), timezone).toISOString();
}

/** The stale-list condition on `memory` rows (also the sweep's): live, not exempt, not retrieved since `cutoff`. */
export function staleRows(db: Db, cutoff: string, includeNeverRetrieved: boolean) {
  return db
    .selectFrom('memory')
    .selectAll()
    .where('archivedAt', 'is', null)
    .where('pinned', '=', 0)
    .where((eb) => eb.or([eb('importance', 'is', null), eb('importance', '<', EXEMPT_IMPORTANCE)]))
    .where((eb) =>
      includeNeverRetrieved
        ? eb.or([eb('lastRetrievedAt', '<', cutoff), eb.and([eb('lastRetrievedAt', 'is', null), eb('createdAt', '<', cutoff)])])
        : eb('lastRetrievedAt', '<', cutoff),
    );
}

const staleKey = sql<string>`coalesce(memory.last_retrieved_at, memory.created_at)`;

/** Staleness, trajectories and the top lists: read-only views over the counters the AI cycles keep. */
export class MemoryUsage {
  constructor(private readonly d: MemoryDeps) {}

  /**
   * Entries not retrieved within thresholdDays (7-365, default 30) workspace days; pinned entries
   * and importance 9 or higher excluded. includeNeverRetrieved (default true) adds entries never
   * retrieved and created before the window.
   */
  async stale(query: { thresholdDays?: number; includeNeverRetrieved?: boolean; tag?: string; asUserId?: string; limit?: number; cursor?: string } = {}): Promise<StaleMemoryList> {
    const thresholdDays = checkIntParam('thresholdDays', query.thresholdDays, STALE_MEMORY_THRESHOLD);
    const limit = listLimit(STALE_MEMORY_LIST, query.limit);
    const after = decodeCursor(query.cursor, ['string', 'string']);
    const tag = query.tag === undefined ? undefined : checkTag(query.tag, 'tag');
    const includeNeverRetrieved = query.includeNeverRetrieved ?? true;
    const { db, clock } = this.d;
    const viewer = await resolveActor(db, query.asUserId);
    const { timezone } = await this.d.workspace.profile();
    const now = clock.now();
    let q = staleRows(db, withinCutoff(now, timezone, thresholdDays), includeNeverRetrieved);
    if (tag !== undefined) q = q.where(({ exists, selectFrom }) => exists(selectFrom('memoryTags').select('memoryTags.memoryId').whereRef('memoryTags.memoryId', '=', 'memory.id').where('memoryTags.tag', '=', tag)));
    if (after) q = q.where(sql<boolean>`(${staleKey}, memory.id) > (${after[0]}, ${after[1]})`);
    const rows = await q.orderBy(staleKey, 'asc').orderBy('id', 'asc').limit(limit + 1).execute();
    const page = toPage(rows, limit, (r) => [r.lastRetrievedAt ?? r.createdAt, r.id]);
    const today = dayOf(now, timezone);
    const entries = await toEntries(db, page.rows, viewer.userId, now, timezone);
    return {
      memory: entries.map((e) => ({
        ...e,
        daysSinceRetrieved: e.lastRetrievedAt === null ? null : daysBetween(dayOf(new Date(e.lastRetrievedAt), timezone), today),
        daysSinceCreated: daysBetween(dayOf(new Date(e.createdAt), timezone), today),
      })),
      thresholdDays,
      includeNeverRetrieved,
      nextCursor: page.nextCursor,
    };
  }

  /** Daily retrievals of one entry (archived ones too) over the last `days` (1-30, default 7) workspace days. */
  async retrievalTrajectory(id: string, daysIn?: number): Promise<RetrievalTrajectory> {
    const days = checkIntParam('days', daysIn, TRAJECTORY_DAYS);
    const { db } = this.d;
    await getMemoryRow(db, id);
    const window = await this.window(days);
    const points = (await retrievalPoints(db, [id], window)).get(id) ?? zeroPoints(window);
    return { memoryId: id, days, points };
  }

  /** Daily attributed tokens and cost of one entry over the last `days` (1-30, default 7) workspace days. */
  async costTrajectory(id: string, daysIn?: number): Promise<CostTrajectory> {
    const days = checkIntParam('days', daysIn, TRAJECTORY_DAYS);
    const { db } = this.d;
    await getMemoryRow(db, id);
    const window = await this.window(days);
    return { memoryId: id, days, points: toPoints(await readKeySeries(db, 'memory', id, window)) };
  }

  /**
   * Live entries with the most retrievals within the last `days` (1-30, default 7) workspace days,
   * most first (ties: more retrievals all time, then id); entries without retrievals in the window are left out.
   */
  async topRetrieved(query: { limit?: number; days?: number; asUserId?: string } = {}): Promise<TopRetrievedList> {
    const limit = checkIntParam('limit', query.limit, TOP_LIMIT);
    const days = checkIntParam('days', query.days, TRAJECTORY_DAYS);
    const { db, clock } = this.d;
    const viewer = await resolveActor(db, query.asUserId);
    const { timezone } = await this.d.workspace.profile();
    const window = lastDays(clock.now(), timezone, days);
    // Candidates come from memory_retrieved (archived_at, last_retrieved_at): only entries used since
    // the window began can have retrievals in it; each sums its own days by primary key. The cost
    // follows the entries used lately, never the length of the retrieval history.
    const inWindow = sql<number>`(SELECT coalesce(sum(d.count), 0) FROM memory_retrieval_daily d WHERE d.memory_id = memory.id AND d.day >= ${window[0]})`;
    const ranked = await db
      .selectFrom('memory')
      .selectAll()
      .select(inWindow.as('retrievalsInWindow'))
      .where('archivedAt', 'is', null)
      .where('lastRetrievedAt', '>=', startOfDay(window[0], timezone).toISOString())
      .where(inWindow, '>', 0)
      .orderBy('retrievalsInWindow', 'desc')
      .orderBy('retrievalCount', 'desc')
      .orderBy('id')
      .limit(limit)
      .execute();
    const ordered: MemoryRow[] = ranked.map(({ retrievalsInWindow: _n, ...row }) => row);
    const ids = ordered.map((r) => r.id);
    const entries = await toEntries(db, ordered, viewer.userId, clock.now(), timezone);
    const week = lastDays(clock.now(), timezone, 7);
    const trajectories = await retrievalPoints(db, ids, week);
    const counts = new Map(ranked.map((r) => [r.id, Number(r.retrievalsInWindow)]));
    return {
      days,
      memory: entries.map((e) => ({ ...e, retrievalsInWindow: counts.get(e.id) ?? 0, trajectory7d: trajectories.get(e.id) ?? zeroPoints(week) })),
    };
  }

  /** Live entries with the most attributed cost, most first (ties: id); entries without cost are left out. */
  async topCost(query: { limit?: number; asUserId?: string } = {}): Promise<TopCostList> {
    const limit = checkIntParam('limit', query.limit, TOP_LIMIT);
    const { db, clock } = this.d;
    const viewer = await resolveActor(db, query.asUserId);
    const { timezone } = await this.d.workspace.profile();
    // Served by memory_cost (archived_at, cost_micro_usd).
    const rows = await db.selectFrom('memory').selectAll().where('archivedAt', 'is', null).where('costMicroUsd', '>', 0).orderBy('costMicroUsd', 'desc').orderBy('id').limit(limit).execute();
    return { memory: await toEntries(db, rows, viewer.userId, clock.now(), timezone) };
  }

  private async window(days: number): Promise<Day[]> {
    const { timezone } = await this.d.workspace.profile();
    return lastDays(this.d.clock.now(), timezone, days);
  }
}

const zeroPoints = (window: readonly Day[]): RetrievalPoint[] => window.map((date) => ({ date, count: 0 }));

/** Zero-filled daily retrievals of entries over `window` (oldest first), in one query. */
async function retrievalPoints(db: Db, ids: readonly string[], window: readonly Day[]): Promise<Map<string, RetrievalPoint[]>> {
  const out = new Map<string, RetrievalPoint[]>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('memoryRetrievalDaily')
    .select(['memoryId', 'day', 'count'])
    .where('memoryId', 'in', ids)
    .where('day', '>=', window[0])
    .where('day', '<=', window[window.length - 1])
    .execute();
  const counts = new Map(rows.map((r) => [`${r.memoryId} ${r.day}`, r.count]));
  for (const id of ids) out.set(id, window.map((date) => ({ date, count: counts.get(`${id} ${date}`) ?? 0 })));
  return out;
}
