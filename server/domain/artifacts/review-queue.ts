import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import { HOUR_MS } from '../../core/clock';
import { invalid } from '../../core/errors';
import { tableCache } from '../../../db/table-cache';
import type { CursorKey } from '../../core/lists';
import { REVIEWER_ROLES } from '../members/rules';
import { approvalCapacity, type ApprovalCapacity, type Reviewer } from '../review/capacity';
import { approvalAging, approvalOwnership, type ApprovalAging, type ApprovalOwnership, type WaitingReview } from '../review/queue-stats';
import { approvalThroughput, type ApprovalThroughput, type Decision } from '../review/throughput';
import { APPROVAL_ATTENTIONS, attentionAt, reviewClock, type ApprovalAttention, type ApprovalPolicy, type ArtifactStatus } from './rules';

/**
 * The review queue's reads: one light projection of the listed status (id, review clock, pin,
 * owner) is filtered, ordered and paged in memory, and the same ready projection feeds every
 * aggregate, so the aggregates never depend on the filters or the limit.
 */

export type ReviewerFilter = 'assigned' | 'unassigned';
export const REVIEWER_FILTERS = ['assigned', 'unassigned'] as const;
export type QueueSort = 'oldest' | 'recent';
export const QUEUE_SORTS = ['oldest', 'recent'] as const;

/** A list row's place in the queue: (pinned first, review clock, id); its cursor carries the same. */
export const QUEUE_CURSOR_SHAPE = ['number', 'string', 'string'] as const;

export interface QueueItem {
  id: string;
  /** The effective review clock (readyAt, else created time for older rows). */
  readyAt: string;
  inferred: boolean;
  pinned: number;
  ownerId: string | null;
}

/** The review owner's load, from the capacity aggregate (covering the oldest 200 waiting reviews). */
export interface ReviewOwnerCapacity {
  /** `available` / `away` for decision-capable members; `not_a_reviewer` for a viewer or a removed member. */
  availability: 'available' | 'away' | 'not_a_reviewer';
  /**
   * Covered waiting reviews this owner holds.
   * @isInt
   */
  load: number;
  /** Covered waiting reviews per available reviewer; null when no reviewer is available. */
  targetLoad: number | null;
  /**
   * Of the owner's covered reviews, those overdue under the approval policy.
   * @isInt
   */
  overdue: number;
}

export interface ReviewOwner {
  userId: string;
  name: string;
}

export interface QueueAggregates {
  approvalPolicy: ApprovalPolicy;
  approvalAging: ApprovalAging;
  approvalOwnership: ApprovalOwnership;
  approvalCapacity: ApprovalCapacity;
  approvalThroughput: ApprovalThroughput;
}

/**
 * One status's outputs, oldest review first (the effective clock, then id), as the aggregates and
 * the list read them: SQLite sorts, so the capacity's oldest-first pass and the list's order cost
 * no comparison sort here.
 */
async function readItems(db: Db, status: ArtifactStatus): Promise<QueueItem[]> {
  const rows = await db
    .selectFrom('artifacts')
    .leftJoin('tasks', 'tasks.id', 'artifacts.taskId')
    .select(['artifacts.id', 'artifacts.readyAt', 'artifacts.createdAt', 'artifacts.updatedAt', 'artifacts.pinned', 'tasks.assignedToUserId as ownerId'])
    .where('artifacts.status', '=', status)
    // A superseded version waits no more: the queue holds each output's newest version only.
    .where('artifacts.supersededAt', 'is', null)
    .orderBy(sql`coalesce(nullif(artifacts.ready_at, ''), artifacts.created_at)`)
    .orderBy('artifacts.id')
    .execute();
  return rows.map((r) => {
    const clock = reviewClock(r);
    return { id: r.id, readyAt: clock.readyAt, inferred: clock.inferred, pinned: r.pinned, ownerId: r.ownerId ?? null };
  });
}

/**
 * Reads kept until a committed write to artifacts or tasks (db/table-cache.ts: never served nor
 * kept inside a transaction): the queue is read far more often than it changes, and at 10k outputs
 * the projection is most of a request's time.
 */
const QUEUE_TABLES = ['artifacts', 'tasks'] as const;
const itemsCache = (db: Db) => tableCache<ArtifactStatus, QueueItem[]>(db, 'review-queue.items', QUEUE_TABLES);
const decisionsCache = (db: Db) => tableCache<'recent', { since: number; rows: Decision[] }>(db, 'review-queue.decisions', QUEUE_TABLES);

export async function queueItems(db: Db, status: ArtifactStatus): Promise<QueueItem[]> {
  const cache = itemsCache(db);
  const kept = cache?.get(status);
  if (kept) return kept;
  return cache ? cache.load(status, () => readItems(db, status)) : readItems(db, status);
}

export interface QueueFilter {
  attention?: ApprovalAttention;
  reviewer?: ReviewerFilter;
  reviewerId?: string;
  sort: QueueSort;
  after?: CursorKey;
}

export function checkAttention(value: string | undefined): ApprovalAttention | undefined {
  if (value === undefined) return undefined;
  if (!(APPROVAL_ATTENTIONS as readonly string[]).includes(value)) throw invalid('attention', `must be one of ${APPROVAL_ATTENTIONS.join(', ')}`);
  return value as ApprovalAttention;
}

export const queueKey = (item: QueueItem): CursorKey => [item.pinned, item.readyAt, item.id];

/** true when `i` comes after the cursor key in the list's order (pinned first, then by clock and id). */
function isAfter(i: QueueItem, key: CursorKey, sort: QueueSort): boolean {
  if (i.pinned !== key[0]) return i.pinned < (key[0] as number);
  const [clock, id] = [key[1] as string, key[2] as string];
  if (i.readyAt !== clock) return sort === 'oldest' ? i.readyAt > clock : i.readyAt < clock;
  return sort === 'oldest' ? i.id > id : i.id < id;
}

/**
 * Filters `items` (oldest first, as queueItems reads them) and answers at most `fetch` of them in
 * the list's order after the cursor: pinned first, then oldest (or most recent) first. One pass,
 * no sort.
 */
export function selectQueue(items: readonly QueueItem[], filter: QueueFilter, now: Date, policy: ApprovalPolicy, fetch: number): QueueItem[] {
  const keep = (i: QueueItem) =>
    (filter.attention === undefined || attentionAt(i.readyAt, now, policy) === filter.attention) &&
    (filter.reviewer === undefined || (filter.reviewer === 'assigned') === (i.ownerId !== null)) &&
    (filter.reviewerId === undefined || i.ownerId === filter.reviewerId) &&
    (filter.after === undefined || isAfter(i, filter.after, filter.sort));
  const out: QueueItem[] = [];
  for (const pinned of [1, 0]) {
    const n = items.length;
    for (let k = 0; k < n && out.length < fetch; k++) {
      const i = items[filter.sort === 'oldest' ? k : n - 1 - k];
      if (i.pinned === pinned && keep(i)) out.push(i);
    }
  }
  return out;
}

async function reviewers(db: Db): Promise<Reviewer[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'name', 'availability'])
    .where('role', 'in', [...REVIEWER_ROLES])
    .where('removedAt', 'is', null)
    .execute();
  return rows.map((r) => ({ userId: r.id, name: r.name, available: r.availability === 'available' }));
}

/**
 * Decisions whose decidedAt falls in the last 31 days (the 30 workspace days plus a timezone's
 * slack); a kept read at most an hour older serves too (a superset: throughput windows itself).
 */
async function recentDecisions(db: Db, now: Date): Promise<Decision[]> {
  const cache = decisionsCache(db);
  const sinceMs = now.getTime() - 31 * 24 * HOUR_MS;
  const kept = cache?.get('recent');
  if (kept && kept.since <= sinceMs && sinceMs - kept.since < HOUR_MS) return kept.rows;
  const load = async () => ({ since: sinceMs, rows: await readDecisions(db, sinceMs) });
  return (await (cache ? cache.load('recent', load) : load())).rows;
}

async function readDecisions(db: Db, sinceMs: number): Promise<Decision[]> {
  const since = new Date(sinceMs).toISOString();
  const rows = await db
    .selectFrom('artifacts')
    .select(['readyAt', 'createdAt', 'updatedAt', 'decidedAt', 'status'])
    .where('decidedAt', '>=', since)
    .where('status', 'in', ['approved', 'archived'])
    .execute();
  return rows.map((r) => {
    const clock = reviewClock(r);
    return { readyAt: clock.readyAt, decidedAt: r.decidedAt!, status: r.status as Decision['status'], inferred: clock.inferred };
  });
}

/** Every aggregate of the queue, over all ready outputs (never the filtered page). */
export async function queueAggregates(
  db: Db,
  ready: readonly QueueItem[],
  ctx: { now: Date; policy: ApprovalPolicy; timezone: string; viewerId: string },
): Promise<QueueAggregates> {
  const waiting: WaitingReview[] = ready.map((i) => ({ artifactId: i.id, readyAt: i.readyAt, ownerId: i.ownerId }));
  const [people, decisions] = await Promise.all([reviewers(db), recentDecisions(db, ctx.now)]);
  return {
    approvalPolicy: ctx.policy,
    approvalAging: approvalAging(waiting, ctx.now, ctx.policy),
    approvalOwnership: approvalOwnership(waiting, ctx.viewerId, ctx.now, ctx.policy),
    approvalCapacity: approvalCapacity(waiting, people, ctx.now, ctx.policy),
    approvalThroughput: approvalThroughput(decisions, ctx.now, ctx.timezone, ctx.policy),
  };
}

/** A ready row's owner context from the capacity aggregate; null without an owner or once decided. */
export function ownerCapacity(capacity: ApprovalCapacity, ownerId: string | null): ReviewOwnerCapacity | null {
  if (ownerId === null) return null;
  const r = capacity.reviewers.find((x) => x.userId === ownerId);
  if (!r) return { availability: 'not_a_reviewer', load: 0, targetLoad: capacity.targetLoad, overdue: 0 };
  return { availability: r.available ? 'available' : 'away', load: r.load, targetLoad: capacity.targetLoad, overdue: r.overdue };
}
