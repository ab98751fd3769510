import type { Db } from '../../../db/connection';
import type { WorkspaceTable } from '../../../db/schema';
import { inTransaction, type Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { addDays, dayOf, type Day } from '../../core/workspace-time';
import { recordActivity, SYSTEM_ACTOR } from '../activity/activity';
import { emit } from '../events/outbox';
import { readWorkspace } from '../workspace/workspace-store';
import { CHRONIC_EVENTS, chronicThreshold, pausesOnChronic, pausesOnSpike, SPIKE_EVENTS, spikeData, type CostAlert } from './alerts';
import { chronicAckActive, GUARD_DIMENSIONS, hasChronic, MAX_CATCH_UP_DAYS, nextStreak, spikeAckActive, type GuardDimension } from './rules';
import { breakStreaksBefore, closedThroughDay, setClosedThroughDay, spikingOn, upsertWatch, watchRows, type DaySpend, type WatchRow } from './watch-store';

/**
 * The one cost-spike detector, parameterised by dimension (task, source, tag, assignee, memory).
 *
 * A run evaluates, in order, every closed workspace day after its high-water mark (at most
 * MAX_CATCH_UP_DAYS back: the days a stopped desk missed, once each) and then today. A closed day
 * alerts only for spikes first seen on it now (spend after the last look of that day); the first
 * run of a desk seeds streaks from past days without alerting for them. For each day
 * and dimension it reads the entities that spent at least 0.50 USD that day with their 7 previous
 * days (cost_daily), keeps the live ones that meet the spike rule, and in one transaction per day:
 * counts the day into each one's streak (once: a day already counted is not counted again), raises
 * `<dimension>.cost_spike` unless raised that day already or acked that day (and applies the
 * pause action), raises `<dimension>.chronic_warning` once a day while the streak is at the chronic
 * threshold or beyond unless chronic-acked, and, for a closed day, ends the streaks that did not
 * spike on it and moves the high-water mark. Spend within a day only grows and the 7 days before
 * it are closed, so a spike seen during the day stands: today is evaluated on every run.
 *
 * A run writes only when something changes (a day counted, an alert raised, a streak ended, the
 * first high-water mark): the repeated looks after cycles are reads, and a day that changes nothing
 * moves the mark in memory only (it is saved with the next write; re-reading such days changes
 * nothing). Other jobs, such as the online backup, do not then meet a write at every look.
 */

export interface DetectorDeps {
  db: Db;
  clock: Clock;
  /** Called after commit with the alerts a run raised (none: not called). The desktop shows them as notifications. */
  onAlert?: (alerts: CostAlert[]) => void;
}

interface Finding {
  dimension: GuardDimension;
  spend: DaySpend;
  label: string;
}

export class CostSpikeDetector {
  private running: Promise<unknown> = Promise.resolve();
  /** The last closed day evaluated by this process (the saved mark may lag behind it). */
  private evaluatedThrough: Day | null = null;

  constructor(private readonly d: DetectorDeps) {}

  /** One detector run (serialised: concurrent calls run one after the other). Returns the new alerts. */
  detect(): Promise<CostAlert[]> {
    const run = this.running.then(() => this.detectNow());
    this.running = run.catch(() => undefined);
    return run;
  }

  private async detectNow(): Promise<CostAlert[]> {
    const { db, clock } = this.d;
    const ws = await readWorkspace(db);
    const today = dayOf(clock.now(), ws.timezone);
    const saved = await closedThroughDay(db);
    const newest = [saved, this.evaluatedThrough].reduce<Day | null>((a, b) => (b !== null && (a === null || b > a) ? b : a), null);
    // Never past yesterday: today is always evaluated, even when the day moved back (a timezone change).
    const through = newest !== null && newest >= today ? addDays(today, -1) : newest;
    const earliest = addDays(today, -MAX_CATCH_UP_DAYS);
    let day = through !== null && through >= earliest ? addDays(through, 1) : earliest;
    const alerts: CostAlert[] = [];
    for (; day <= today; day = addDays(day, 1)) {
      const findings = await this.findings(day);
      const closed = day < today;
      const ctx: DayContext = { ws, day, closed, now: clock.now(), silent: closed && through === null };
      // Reads first: a day that changes nothing opens no transaction.
      const write = (saved === null && day === addDays(today, -1)) || (await this.anyChange(ctx, findings)) || (closed && (await this.streaksEndingOn(day)));
      if (write) {
        const d = day;
        alerts.push(...(await inTransaction(db, (trx) => this.apply(trx, ctx, findings, d))));
      }
      if (closed) this.evaluatedThrough = day;
    }
    if (alerts.length > 0) this.d.onAlert?.(alerts);
    return alerts;
  }

  /** The live entities of every dimension that spiked on `day` (reads only). */
  private async findings(day: Day): Promise<Finding[]> {
    const out: Finding[] = [];
    for (const dimension of GUARD_DIMENSIONS) for (const { spend, label } of await spikingOn(this.d.db, dimension, day)) out.push({ dimension, spend, label });
    return out;
  }

  private async anyChange(ctx: DayContext, findings: Finding[]): Promise<boolean> {
    for (const dimension of GUARD_DIMENSIONS) {
      const mine = findings.filter((f) => f.dimension === dimension);
      if (mine.length === 0) continue;
      const watch = await watchRows(
        this.d.db,
        dimension,
        mine.map((f) => f.spend.key),
      );
      if (mine.some((f) => plan(ctx, f, watch.get(f.spend.key)) !== null)) return true;
    }
    return false;
  }

  /** Whether some streak did not reach `day` (it ends when the day closes). */
  private async streaksEndingOn(day: Day): Promise<boolean> {
    const row = await this.d.db.selectFrom('costWatch').select('key').where('consecutiveSpikeDays', '>', 0).where('lastSpikeDay', '<', day).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  private async apply(trx: Trx, ctx: DayContext, findings: Finding[], day: Day): Promise<CostAlert[]> {
    const { clock } = this.d;
    const alerts: CostAlert[] = [];
    for (const dimension of GUARD_DIMENSIONS) {
      const mine = findings.filter((f) => f.dimension === dimension);
      if (mine.length === 0) continue;
      const watch = await watchRows(
        trx,
        dimension,
        mine.map((f) => f.spend.key),
      );
      for (const f of mine) {
        const p = plan(ctx, f, watch.get(f.spend.key));
        if (p === null) continue;
        for (const a of p.alerts) {
          await recordActivity(trx, clock, {
            kind: a.kind === 'cost_spike' ? 'cost.spike' : 'cost.chronic_warning',
            detail:
              a.kind === 'cost_spike'
                ? `${a.label} (${dimension}) spent ${a.todayUsd.toFixed(2)} USD on ${day}, against a 7-day average of ${a.baselineUsd.toFixed(2)} USD${a.paused ? '; paused until acknowledged' : ''}`
                : `${a.label} (${dimension}) has spiked ${a.consecutiveSpikeDays} days in a row${a.paused ? '; paused until the chronic warning is acknowledged' : ''}`,
            actor: SYSTEM_ACTOR,
            entityType: dimension,
            entityId: f.spend.key,
          });
          if (a.kind === 'cost_spike') {
            const { kind: _k, ...data } = a;
            await emit(trx, clock, SPIKE_EVENTS[dimension], data);
          } else {
            const { kind: _k, ...data } = a;
            await emit(trx, clock, CHRONIC_EVENTS[dimension as keyof typeof CHRONIC_EVENTS], data);
          }
          alerts.push(a);
        }
        await upsertWatch(trx, dimension, f.spend.key, p.set);
      }
    }
    if (ctx.closed) {
      // The day is over: a streak that did not reach it is broken.
      await breakStreaksBefore(trx, day);
      await setClosedThroughDay(trx, day);
    }
    return alerts;
  }
}

interface DayContext {
  ws: WorkspaceTable;
  day: Day;
  closed: boolean;
  now: Date;
  /** The first run of a desk: past days seed streaks without alerts. */
  silent: boolean;
}

type WatchSet = Partial<Pick<WatchRow, 'lastSpikeDay' | 'consecutiveSpikeDays' | 'spikeEventDay' | 'chronicEventDay' | 'pausedAt' | 'chronicPausedAt'>>;

/**
 * What one spiking entity changes on `day` (pure): the streak, the alerts due and the pauses they
 * apply; null when nothing changes (the day was counted and its alerts raised or muted already).
 */
function plan(ctx: DayContext, f: Finding, w: WatchRow | undefined): { set: WatchSet; alerts: CostAlert[] } | null {
  const { ws, day, closed, now } = ctx;
  const { dimension, spend, label } = f;
  // A later day was already counted (cannot happen in order; never count backwards).
  if (w?.lastSpikeDay != null && w.lastSpikeDay > day) return null;
  const at = now.toISOString();
  const counted = w?.lastSpikeDay === day;
  const streak = nextStreak(w?.lastSpikeDay ?? null, w?.consecutiveSpikeDays ?? 0, day);
  const set: WatchSet = { lastSpikeDay: day, consecutiveSpikeDays: streak };
  const alerts: CostAlert[] = [];
  // A closed day whose spike was already seen while it was today had its alerts then (raised, or
  // muted by an ack that held that day): only a spike first seen on catch-up alerts now.
  const mayAlert = !ctx.silent && (!closed || !counted);
  if (mayAlert && (w?.spikeEventDay ?? '') < day && !spikeAckActive(w?.spikeAckDay ?? null, day)) {
    const pause = pausesOnSpike(ws, dimension);
    set.spikeEventDay = day;
    if (pause && !w?.pausedAt) set.pausedAt = at;
    alerts.push({ kind: 'cost_spike', ...spikeData(dimension, spend.key, label, day, spend.todayMicro, spend.previous7SumMicro, streak, pause) });
  }
  if (hasChronic(dimension)) {
    const threshold = chronicThreshold(ws, dimension);
    if (mayAlert && streak >= threshold && (w?.chronicEventDay ?? '') < day && !chronicAckActive(w?.chronicAckedAt ?? null, now)) {
      const pause = pausesOnChronic(ws, dimension);
      set.chronicEventDay = day;
      if (pause && !w?.chronicPausedAt) set.chronicPausedAt = at;
      alerts.push({ kind: 'chronic_warning', ...spikeData(dimension, spend.key, label, day, spend.todayMicro, spend.previous7SumMicro, streak, pause), thresholdDays: threshold });
    }
  }
  return counted && alerts.length === 0 ? null : { set, alerts };
}
