import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import { inTransaction } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { DeskError } from '../../core/errors';
import { dayOf, startOfDay } from '../../core/workspace-time';
import { recordActivity } from '../activity/activity';
import { resolveActor } from '../members/resolve-actor';
import { ROADMAP, ROADMAP_ITEMS } from './items';
import { TREND_DAYS, type RoadmapPhaseKey, type RoadmapStatus } from './rules';
import { itemFigures, topLists, trendDays, type TrendPoint } from './vote-math';

export interface RoadmapItem {
  /** Stable key (votes refer to it). */
  key: string;
  title: string;
  description: string;
  status: RoadmapStatus;
  phase: RoadmapPhaseKey;
}

export interface RoadmapPhase {
  key: RoadmapPhaseKey;
  name: string;
  description: string;
  /** @isInt */
  count: number;
  items: RoadmapItem[];
}

export interface RoadmapItems {
  /** @format date-time */
  generatedAt: string;
  /** Items across all phases. @isInt */
  total: number;
  /** Now, Next, Later, in that order; items in display order. */
  phases: RoadmapPhase[];
}

export interface RoadmapItemVotes {
  key: string;
  title: string;
  phase: RoadmapPhaseKey;
  status: RoadmapStatus;
  /** Standing votes (cumulative: every vote not taken back). @isInt */
  votes: number;
  /** Standing votes cast on each of the last 14 UTC days, oldest first, today last (empty days count 0). */
  trend: TrendPoint[];
  /** Standing votes cast in the trailing 7 UTC days, today included (the sum of the last 7 trend points). @isInt */
  momentum7d: number;
}

export interface RoadmapVoteRank {
  key: string;
  title: string;
  /** @isInt */
  votes: number;
  /** @isInt */
  momentum7d: number;
}

export interface RoadmapVotes {
  /** @format date-time */
  generatedAt: string;
  /** The UTC day the trend ends on (today by the desk's clock). */
  today: string;
  /** Length of every trend (14). @isInt */
  trendDays: number;
  /** Standing votes across all items. @isInt */
  totalVotes: number;
  /** Every roadmap item in roadmap order, voted or not. */
  items: RoadmapItemVotes[];
  /** Top 5 by votes (then momentum7d, then roadmap order); items without votes are left out. */
  mostRequested: RoadmapVoteRank[];
  /** Top 5 by momentum7d (then votes, then roadmap order), excluding mostRequested and items with no vote in 7 days. */
  mostTrending: RoadmapVoteRank[];
}

export interface MyRoadmapVotes {
  userId: string;
  /** Keys of the items this member votes for, in roadmap order. */
  itemKeys: string[];
}

export interface RoadmapVoteResult {
  itemKey: string;
  userId: string;
  /** Whether the member votes for the item after this call. */
  voted: boolean;
  /** False when the call found the vote already as asked (voting twice, taking back a vote never cast): nothing was written. */
  changed: boolean;
  /** The item's standing votes after the call. @isInt */
  votes: number;
}

const itemOf = (key: string) => {
  const item = ROADMAP_ITEMS.find((i) => i.key === key);
  if (!item) throw new DeskError(404, 'not_found', `No roadmap item with key ${key}`);
  return item;
};
const n = (v: unknown) => Number(v ?? 0);

/** The roadmap (content) and its votes (one per member and item, in roadmap_votes). */
export class RoadmapService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  items(): RoadmapItems {
    const phases = ROADMAP.map((p) => ({ key: p.key, name: p.name, description: p.description, count: p.items.length, items: p.items.map((i) => ({ ...i, phase: p.key })) }));
    return { generatedAt: this.clock.now().toISOString(), total: ROADMAP_ITEMS.length, phases };
  }

  async votes(): Promise<RoadmapVotes> {
    const now = this.clock.now();
    const today = dayOf(now, 'UTC');
    const from = startOfDay(trendDays(today)[0], 'UTC').toISOString();
    const [totals, daily] = await Promise.all([
      this.db.selectFrom('roadmapVotes').select(['itemKey', sql<number>`count(*)`.as('n')]).groupBy('itemKey').execute(),
      this.db
        .selectFrom('roadmapVotes')
        .select(['itemKey', sql<string>`substr(voted_at, 1, 10)`.as('day'), sql<number>`count(*)`.as('n')])
        .where('votedAt', '>=', from)
        .groupBy(['itemKey', 'day'])
        .execute(),
    ]);
    const totalMap = new Map(totals.map((t) => [t.itemKey, n(t.n)]));
    const perDay = new Map<string, Map<string, number>>();
    for (const d of daily) {
      const byDay = perDay.get(d.itemKey) ?? new Map<string, number>();
      byDay.set(d.day, n(d.n));
      perDay.set(d.itemKey, byDay);
    }
    const figures = itemFigures(
      ROADMAP_ITEMS.map((i) => i.key),
      today,
      totalMap,
      perDay,
    );
    const items = figures.map((f, i) => ({ key: f.key, title: ROADMAP_ITEMS[i].title, phase: ROADMAP_ITEMS[i].phase, status: ROADMAP_ITEMS[i].status, votes: f.votes, trend: f.trend, momentum7d: f.momentum7d }));
    const byKey = new Map(items.map((i) => [i.key, i]));
    const rank = (key: string): RoadmapVoteRank => {
      const i = byKey.get(key)!;
      return { key, title: i.title, votes: i.votes, momentum7d: i.momentum7d };
    };
    const { mostRequested, mostTrending } = topLists(figures);
    return {
      generatedAt: now.toISOString(),
      today,
      trendDays: TREND_DAYS,
      // Votes for items that left the roadmap are not counted anywhere.
      totalVotes: items.reduce((sum, i) => sum + i.votes, 0),
      items,
      mostRequested: mostRequested.map(rank),
      mostTrending: mostTrending.map(rank),
    };
  }

  async myVotes(asUserId?: string): Promise<MyRoadmapVotes> {
    const actor = await resolveActor(this.db, asUserId);
    const rows = await this.db.selectFrom('roadmapVotes').select('itemKey').where('userId', '=', actor.userId).execute();
    const mine = new Set(rows.map((r) => r.itemKey));
    return { userId: actor.userId, itemKeys: ROADMAP_ITEMS.filter((i) => mine.has(i.key)).map((i) => i.key) };
  }

  /** One vote per member and item: voting again changes nothing (changed: false). */
  async vote(key: string, asUserId?: string): Promise<RoadmapVoteResult> {
    const item = itemOf(key);
    return inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx, asUserId);
      const inserted = await trx
        .insertInto('roadmapVotes')
        .values({ itemKey: item.key, userId: actor.userId, votedAt: this.clock.now().toISOString() })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      const changed = n(inserted.numInsertedOrUpdatedRows ?? 0n) > 0;
      if (changed) {
        await recordActivity(trx, this.clock, { kind: 'roadmap.voted', detail: `Voted for the roadmap item “${item.title}”`, actor, entityType: 'roadmap_item', entityId: item.key });
      }
      return { itemKey: item.key, userId: actor.userId, voted: true, changed, votes: await countFor(trx, item.key) };
    });
  }

  /** Takes the member's vote back; taking back a vote never cast changes nothing (changed: false). */
  async unvote(key: string, asUserId?: string): Promise<RoadmapVoteResult> {
    const item = itemOf(key);
    return inTransaction(this.db, async (trx) => {
      const actor = await resolveActor(trx, asUserId);
      const deleted = await trx.deleteFrom('roadmapVotes').where('itemKey', '=', item.key).where('userId', '=', actor.userId).executeTakeFirst();
      const changed = n(deleted.numDeletedRows) > 0;
      if (changed) {
        await recordActivity(trx, this.clock, { kind: 'roadmap.vote_removed', detail: `Took back the vote for the roadmap item “${item.title}”`, actor, entityType: 'roadmap_item', entityId: item.key });
      }
      return { itemKey: item.key, userId: actor.userId, voted: false, changed, votes: await countFor(trx, item.key) };
    });
  }
}

async function countFor(db: Db, key: string): Promise<number> {
  const row = await db.selectFrom('roadmapVotes').select(sql<number>`count(*)`.as('n')).where('itemKey', '=', key).executeTakeFirstOrThrow();
  return n(row.n);
}
