import type { Db } from '../../../db/connection';
import type { Clock } from '../../core/clock';
import { pageRequest, toPage, type ListSpec, type Page } from '../../core/lists';
import { dayOf, endOfDay } from '../../core/workspace-time';
import { readWorkspace } from '../workspace/workspace-store';
import { chronicThreshold, pausesOnChronic, pausesOnSpike, spikeFigures } from './alerts';
import { chronicAckActive, chronicAckExpiry, currentStreak, nextStreak, spikeAckActive, type GuardDimension } from './rules';
import { liveEntities, spikingOn, streakRows, watchRows } from './watch-store';

/**
 * The spike and chronic lists. Spike lists are computed from today's spend on read (the same rule
 * and live filter the detector uses), so an entity is listed the moment its spend crosses the line,
 * before the next detector run. Chronic lists read the streaks the detector keeps.
 */

/** One entity spiking today. */
export interface CostSpikeRow {
  /** The task id, source id, tag, member id or memory entry id. */
  key: string;
  /** The task title, source label, tag, member name or memory title. */
  label: string;
  todayUsd: number;
  /** @isInt */
  todayCents: number;
  /** The trailing 7-day daily average (the 7 days before today, zero days included). */
  baselineUsd: number;
  /** @isInt */
  baselineCents: number;
  /** today / baseline (2 decimals); null when nothing was spent the 7 days before. */
  spikeRatio: number | null;
  /** Consecutive workspace days spiking, today included. @isInt */
  consecutiveSpikeDays: number;
  /** Today's acknowledgement (it holds until the end of the workspace day), or null. @format date-time */
  ackedAt: string | null;
  /** When the ack ends (the next workspace midnight), or null. @format date-time */
  ackExpiresAt: string | null;
  /** Paused by the workspace spike action until acknowledged (tasks: ranked last by the loop; sources: skipped by the poller). */
  paused: boolean;
}

/** A memory entry spiking today: the row also names its ack as the memory area does. */
export interface MemoryCostSpikeRow extends CostSpikeRow {
  /** Same as ackedAt. @format date-time */
  costSpikeAckedAt: string | null;
}

export interface CostSpikeList {
  spikes: CostSpikeRow[];
  nextCursor: string | null;
}

export interface MemoryCostSpikeList {
  spikes: MemoryCostSpikeRow[];
  nextCursor: string | null;
}

export interface CostChronicList {
  chronic: CostChronicRow[];
  nextCursor: string | null;
}

/** One entity whose spike streak reached the chronic threshold. */
export interface CostChronicRow {
  key: string;
  label: string;
  /** Consecutive workspace days spiking (up to today or yesterday: today may still spike). @isInt */
  consecutiveSpikeDays: number;
  /** 3, or the workspace's sourceChronicThresholdDays for sources. @isInt */
  thresholdDays: number;
  /** Today's figures when the entity also spikes today; null otherwise. */
  todayUsd: number | null;
  /** @isInt */
  todayCents: number | null;
  baselineUsd: number | null;
  /** @isInt */
  baselineCents: number | null;
  spikeRatio: number | null;
  /** The chronic ack while it holds (7 days), or null. @format date-time */
  chronicAckedAt: string | null;
  /** @format date-time */
  chronicAckExpiresAt: string | null;
  /** Sources: paused by sourceChronicSpikeAction until the chronic warning is acknowledged. */
  paused: boolean;
}

/** Sorts in memory (the lists are small: only entities over 0.50 USD today or on a streak) and pages by position key. */
function page<T>(rows: T[], keyOf: (r: T) => [number, number, string], spec: ListSpec, query: { limit?: number; cursor?: string }): Page<T> {
  const { limit, after } = pageRequest(spec, query, ['number', 'number', 'string']);
  const cmp = (a: readonly (string | number)[], b: readonly (string | number)[]) => {
    for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
  };
  const sorted = rows.map((r) => ({ r, k: keyOf(r) })).sort((x, y) => cmp(x.k, y.k));
  const rest = after ? sorted.filter((x) => cmp(x.k, after) > 0) : sorted;
  const cut = toPage(rest.slice(0, limit + 1), limit, (x) => x.k);
  return { rows: cut.rows.map((x) => x.r), nextCursor: cut.nextCursor };
}

/** Spiking today: unacknowledged first, then the highest spend today, then key. */
export async function spikeList(db: Db, clock: Clock, dimension: GuardDimension, spec: ListSpec, query: { limit?: number; cursor?: string }): Promise<Page<CostSpikeRow>> {
  const ws = await readWorkspace(db);
  const today = dayOf(clock.now(), ws.timezone);
  const spiking = await spikingOn(db, dimension, today);
  const watch = await watchRows(
    db,
    dimension,
    spiking.map((s) => s.spend.key),
  );
  const pauses = pausesOnSpike(ws, dimension);
  const rows = spiking.map(({ spend, label }) => {
    const w = watch.get(spend.key);
    const acked = spikeAckActive(w?.spikeAckDay ?? null, today);
    const row: CostSpikeRow = {
      key: spend.key,
      label,
      ...spikeFigures(spend.todayMicro, spend.previous7SumMicro),
      consecutiveSpikeDays: nextStreak(w?.lastSpikeDay ?? null, w?.consecutiveSpikeDays ?? 0, today),
      ackedAt: acked ? (w?.spikeAckedAt ?? null) : null,
      ackExpiresAt: acked ? endOfDay(today, ws.timezone).toISOString() : null,
      paused: pauses && w?.pausedAt != null,
    };
    return { row, today: spend.todayMicro };
  });
  const p = page(rows, (x) => [x.row.ackedAt ? 1 : 0, -x.today, x.row.key], spec, query);
  return { rows: p.rows.map((x) => x.row), nextCursor: p.nextCursor };
}

/**
 * Streaks at the chronic threshold or beyond: unacknowledged first, then the longest streak.
 * `hideAcked` leaves chronic-acked entities out (the memory list, as the spec says); the other
 * lists keep them with their ack, and GET /cost/chronic-acks lists the acks themselves.
 */
export async function chronicList(db: Db, clock: Clock, dimension: GuardDimension, spec: ListSpec, query: { limit?: number; cursor?: string }, hideAcked: boolean): Promise<Page<CostChronicRow>> {
  const ws = await readWorkspace(db);
  const now = clock.now();
  const today = dayOf(now, ws.timezone);
  const threshold = chronicThreshold(ws, dimension);
  const streaks = (await streakRows(db, dimension, today)).filter((w) => currentStreak(w.lastSpikeDay, w.consecutiveSpikeDays, today) >= threshold);
  const live = await liveEntities(
    db,
    dimension,
    streaks.map((w) => w.key),
  );
  const todays = new Map((await spikingOn(db, dimension, today)).map((s) => [s.spend.key, s.spend]));
  const pauses = pausesOnChronic(ws, dimension);
  const rows: CostChronicRow[] = [];
  for (const w of streaks) {
    const entity = live.get(w.key);
    if (!entity) continue;
    const acked = chronicAckActive(w.chronicAckedAt, now);
    if (acked && hideAcked) continue;
    const spend = todays.get(w.key);
    const figures = spend ? spikeFigures(spend.todayMicro, spend.previous7SumMicro) : { todayUsd: null, todayCents: null, baselineUsd: null, baselineCents: null, spikeRatio: null };
    rows.push({
      key: w.key,
      label: entity.label,
      consecutiveSpikeDays: currentStreak(w.lastSpikeDay, w.consecutiveSpikeDays, today),
      thresholdDays: threshold,
      ...figures,
      chronicAckedAt: acked ? w.chronicAckedAt : null,
      chronicAckExpiresAt: acked ? chronicAckExpiry(w.chronicAckedAt!) : null,
      paused: pauses && w.chronicPausedAt !== null,
    });
  }
  return page(rows, (r) => [r.chronicAckedAt ? 1 : 0, -r.consecutiveSpikeDays, r.key], spec, query);
}
