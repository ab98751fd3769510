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
import { closedThroughDay, setClosedThroughDay, spikingOn, watchRows, type DaySpend } from './watch-store';

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
    const through = await closedThroughDay(db);
    const earliest = addDays(today, -MAX_CATCH_UP_DAYS);
    let day = through !== null && through >= earliest ? addDays(through, 1) : earliest;
    const alerts: CostAlert[] = [];
    for (; day <= today; day = addDays(day, 1)) {
      const findings = await this.findings(day);
      const closed = day < today;
      // The very first run only seeds streaks from the history it finds: no alerts for past days.
      const silent = closed && through === null;
      alerts.push(...(await inTransaction(db, (trx) => this.apply(trx, ws, day, findings, closed, silent))));
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

  private async apply(trx: Trx, ws: WorkspaceTable, day: Day, findings: Finding[], closed: boolean, silent: boolean): Promise<CostAlert[]> {
    const { clock } = this.d;
    const now = clock.now();
    const at = now.toISOString();
    const alerts: CostAlert[] = [];
    for (const dimension of GUARD_DIMENSIONS) {
      const mine = findings.filter((f) => f.dimension === dimension);
      if (mine.length === 0) continue;
      const watch = await watchRows(
        trx,
        dimension,
        mine.map((f) => f.spend.key),
      );
      for (const { spend, label } of mine) {
        const w = watch.get(spend.key);
        // A later day was already counted (cannot happen in order; never count backwards).
        if (w?.lastSpikeDay != null && w.lastSpikeDay > day) continue;
        const streak = nextStreak(w?.lastSpikeDay ?? null, w?.consecutiveSpikeDays ?? 0, day);
        const set: Record<string, string | number | null> = { lastSpikeDay: day, consecutiveSpikeDays: streak };
        // A closed day whose spike was already seen while it was today had its alerts then (raised,
        // or muted by an ack that held that day): only a spike first seen on catch-up alerts now.
        const mayAlert = !silent && (!closed || (w?.lastSpikeDay ?? '') < day);
        const spikeAlert = mayAlert && (w?.spikeEventDay ?? '') < day && !spikeAckActive(w?.spikeAckDay ?? null, day);
        if (spikeAlert) {
          const pause = pausesOnSpike(ws, dimension);
          set.spikeEventDay = day;
          if (pause && !w?.pausedAt) set.pausedAt = at;
          const data = spikeData(dimension, spend.key, label, day, spend.todayMicro, spend.previous7SumMicro, streak, pause);
          await recordActivity(trx, clock, {
            kind: 'cost.spike',
            detail: `${label} (${dimension}) spent ${data.todayUsd.toFixed(2)} USD on ${day}, against a 7-day average of ${data.baselineUsd.toFixed(2)} USD${pause ? '; paused until acknowledged' : ''}`,
            actor: SYSTEM_ACTOR,
            entityType: dimension,
            entityId: spend.key,
          });
          await emit(trx, clock, SPIKE_EVENTS[dimension], data);
          alerts.push({ kind: 'cost_spike', ...data });
        }
        if (hasChronic(dimension)) {
          const threshold = chronicThreshold(ws, dimension);
          const chronicAlert = mayAlert && streak >= threshold && (w?.chronicEventDay ?? '') < day && !chronicAckActive(w?.chronicAckedAt ?? null, now);
          if (chronicAlert) {
            const pause = pausesOnChronic(ws, dimension);
            set.chronicEventDay = day;
            if (pause && !w?.chronicPausedAt) set.chronicPausedAt = at;
            const data = { ...spikeData(dimension, spend.key, label, day, spend.todayMicro, spend.previous7SumMicro, streak, pause), thresholdDays: threshold };
            await recordActivity(trx, clock, {
              kind: 'cost.chronic_warning',
              detail: `${label} (${dimension}) has spiked ${streak} days in a row${pause ? '; paused until the chronic warning is acknowledged' : ''}`,
              actor: SYSTEM_ACTOR,
              entityType: dimension,
              entityId: spend.key,
            });
            await emit(trx, clock, CHRONIC_EVENTS[dimension as keyof typeof CHRONIC_EVENTS], data);
            alerts.push({ kind: 'chronic_warning', ...data });
          }
        }
        await trx
          .insertInto('costWatch')
          .values({ dimension, key: spend.key, ...set })
          .onConflict((oc) => oc.columns(['dimension', 'key']).doUpdateSet(set))
          .execute();
      }
    }
    if (closed) {
      // The day is over: a streak that did not reach it is broken.
      await trx.updateTable('costWatch').set({ consecutiveSpikeDays: 0 }).where('consecutiveSpikeDays', '>', 0).where('lastSpikeDay', '<', day).execute();
      await setClosedThroughDay(trx, day);
    }
    return alerts;
  }
}
