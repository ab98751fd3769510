import { sql, type Selectable } from 'kysely';
import type { Db } from '../../../db/connection';
import type { CostWatchTable } from '../../../db/schema';
import type { Trx } from '../../../db/transactions';
import { addDays, type Day } from '../../core/workspace-time';
import { BASELINE_DAYS, isSpiking, SPIKE_MIN_MICRO_USD, UNWATCHED_KEYS, type GuardDimension } from './rules';

/**
 * SQL of the cost guard: the daily spend it judges (cost_daily, read by (dimension, day) and by
 * primary key), the entities it may alert on (live ones, with a label), and cost_watch rows.
 */

export type WatchRow = Selectable<CostWatchTable>;

/** One entity's spend on a day and over the 7 days before it, in micro-USD. */
export interface DaySpend {
  key: string;
  todayMicro: number;
  previous7SumMicro: number;
}

const chunks = <T>(items: readonly T[], size = 500): T[][] => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/**
 * Keys of a dimension that spent at least `minMicro` on `day` (served by the (dimension, day)
 * index), with the sum of their 7 previous days. Buckets that name no entity are left out.
 */
export async function spendOn(db: Db, dimension: GuardDimension, day: Day, minMicro: number): Promise<DaySpend[]> {
  const rows = await db.selectFrom('costDaily').select(['key', 'costMicroUsd']).where('dimension', '=', dimension).where('day', '=', day).where('costMicroUsd', '>=', minMicro).execute();
  const unwatched = new Set(UNWATCHED_KEYS[dimension]);
  const today = rows.filter((r) => !unwatched.has(r.key));
  const sums = await previousSums(
    db,
    dimension,
    today.map((r) => r.key),
    day,
  );
  return today.map((r) => ({ key: r.key, todayMicro: r.costMicroUsd, previous7SumMicro: sums.get(r.key) ?? 0 }));
}

/** Sum of each key's spend over the 7 days before `day`. */
async function previousSums(db: Db, dimension: GuardDimension, keys: readonly string[], day: Day): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const part of chunks(keys)) {
    if (part.length === 0) continue;
    const rows = await db
      .selectFrom('costDaily')
      .select(['key', sql<number>`sum(cost_micro_usd)`.as('total')])
      .where('dimension', '=', dimension)
      .where('key', 'in', part)
      .where('day', '>=', addDays(day, -BASELINE_DAYS))
      .where('day', '<=', addDays(day, -1))
      .groupBy('key')
      .execute();
    for (const r of rows) out.set(r.key, Number(r.total));
  }
  return out;
}

/** An entity the guard may alert on, with what a person reads it by. */
export interface LiveEntity {
  key: string;
  label: string;
}

/**
 * The live entities among `keys`: open tasks (queued, in progress, needs input), existing sources,
 * tags some task carries (`untagged` never), current members (not the unassigned bucket), memory
 * entries not archived and not exempt (pinned, importance 9 or higher). The detector and the
 * spike lists use the same filter, so what is listed is what alerts.
 */
export async function liveEntities(db: Db, dimension: GuardDimension, keys: readonly string[]): Promise<Map<string, LiveEntity>> {
  const out = new Map<string, LiveEntity>();
  const unwatched = new Set(UNWATCHED_KEYS[dimension]);
  const wanted = [...new Set(keys)].filter((k) => !unwatched.has(k));
  for (const part of chunks(wanted)) {
    if (part.length === 0) continue;
    let rows: LiveEntity[];
    switch (dimension) {
      case 'task':
        rows = await db.selectFrom('tasks').select(['id as key', 'title as label']).where('id', 'in', part).where('status', 'in', ['queued', 'in_progress', 'needs_input']).execute();
        break;
      case 'source':
        rows = await db.selectFrom('sources').select(['id as key', 'label']).where('id', 'in', part).execute();
        break;
      case 'tag':
        rows = (await db.selectFrom('taskTags').select('tag').distinct().where('tag', 'in', part).execute()).map((r) => ({ key: r.tag, label: r.tag }));
        break;
      case 'assignee':
        rows = await db.selectFrom('users').select(['id as key', 'name as label']).where('id', 'in', part).where('removedAt', 'is', null).execute();
        break;
      case 'memory':
        rows = await db
          .selectFrom('memory')
          .select(['id as key', 'title as label'])
          .where('id', 'in', part)
          .where('archivedAt', 'is', null)
          .where('pinned', '=', 0)
          .where((eb) => eb.or([eb('importance', 'is', null), eb('importance', '<', 9)]))
          .execute();
        break;
    }
    for (const r of rows) out.set(r.key, r);
  }
  return out;
}

/**
 * The entities among `keys` that exist at all (what an ack may name): any task, source or memory
 * entry, a tag some task carries or that has spent, any member (removed ones too: their queue
 * still has a history). Returns each with its label.
 */
export async function knownEntities(db: Db, dimension: GuardDimension, keys: readonly string[]): Promise<Map<string, LiveEntity>> {
  const out = new Map<string, LiveEntity>();
  const unwatched = new Set(UNWATCHED_KEYS[dimension]);
  const wanted = [...new Set(keys)].filter((k) => !unwatched.has(k));
  for (const part of chunks(wanted)) {
    if (part.length === 0) continue;
    let rows: LiveEntity[];
    switch (dimension) {
      case 'task':
        rows = await db.selectFrom('tasks').select(['id as key', 'title as label']).where('id', 'in', part).execute();
        break;
      case 'source':
        rows = await db.selectFrom('sources').select(['id as key', 'label']).where('id', 'in', part).execute();
        break;
      case 'tag': {
        const carried = await db.selectFrom('taskTags').select('tag').distinct().where('tag', 'in', part).execute();
        const spent = await db.selectFrom('costDaily').select('key').distinct().where('dimension', '=', 'tag').where('key', 'in', part).execute();
        rows = [...new Set([...carried.map((r) => r.tag), ...spent.map((r) => r.key)])].map((tag) => ({ key: tag, label: tag }));
        break;
      }
      case 'assignee':
        rows = await db.selectFrom('users').select(['id as key', 'name as label']).where('id', 'in', part).execute();
        break;
      case 'memory':
        rows = await db.selectFrom('memory').select(['id as key', 'title as label']).where('id', 'in', part).execute();
        break;
    }
    for (const r of rows) out.set(r.key, r);
  }
  return out;
}

/** The live entities of a dimension that spike on `day`, with their spend: what the detector alerts on and the lists show. */
export async function spikingOn(db: Db, dimension: GuardDimension, day: Day): Promise<{ spend: DaySpend; label: string }[]> {
  const spiking = (await spendOn(db, dimension, day, SPIKE_MIN_MICRO_USD)).filter((s) => isSpiking(s.todayMicro, s.previous7SumMicro));
  const live = await liveEntities(
    db,
    dimension,
    spiking.map((s) => s.key),
  );
  return spiking.flatMap((spend) => {
    const e = live.get(spend.key);
    return e ? [{ spend, label: e.label }] : [];
  });
}

/** cost_watch rows of a dimension's keys. */
export async function watchRows(db: Db, dimension: GuardDimension, keys: readonly string[]): Promise<Map<string, WatchRow>> {
  const out = new Map<string, WatchRow>();
  for (const part of chunks([...new Set(keys)])) {
    if (part.length === 0) continue;
    for (const r of await db.selectFrom('costWatch').selectAll().where('dimension', '=', dimension).where('key', 'in', part).execute()) out.set(r.key, r);
  }
  return out;
}

/** Writes (creating when absent) the given columns of one entity's watch row. */
export async function upsertWatch(trx: Trx, dimension: GuardDimension, key: string, set: Partial<Omit<WatchRow, 'dimension' | 'key'>>): Promise<void> {
  await trx
    .insertInto('costWatch')
    .values({ dimension, key, ...set })
    .onConflict((oc) => oc.columns(['dimension', 'key']).doUpdateSet(set))
    .execute();
}

/** At the end of a day: a streak whose last spike is older is broken. */
export async function breakStreaksBefore(trx: Trx, day: Day): Promise<void> {
  await trx.updateTable('costWatch').set({ consecutiveSpikeDays: 0 }).where('consecutiveSpikeDays', '>', 0).where('lastSpikeDay', '<', day).execute();
}

/** Rows whose streak may still count on `today` (the last spike today or yesterday). */
export async function streakRows(db: Db, dimension: GuardDimension, today: Day): Promise<WatchRow[]> {
  return db.selectFrom('costWatch').selectAll().where('dimension', '=', dimension).where('consecutiveSpikeDays', '>', 0).where('lastSpikeDay', '>=', addDays(today, -1)).execute();
}

/** The detector's high-water mark: the last closed workspace day it evaluated (null: never ran). */
export async function closedThroughDay(db: Db): Promise<Day | null> {
  const row = await db.selectFrom('costGuardState').select('closedThroughDay').where('id', '=', 1).executeTakeFirst();
  return row?.closedThroughDay ?? null;
}

export async function setClosedThroughDay(trx: Trx, day: Day): Promise<void> {
  await trx.insertInto('costGuardState').values({ id: 1, closedThroughDay: day }).onConflict((oc) => oc.column('id').doUpdateSet({ closedThroughDay: day })).execute();
}
