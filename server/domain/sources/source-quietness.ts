import { inTransaction, type Trx } from '../../../db/transactions';
import { DAY_MS } from '../../core/clock';
import { recordActivity, SYSTEM_ACTOR, type Actor } from '../activity/activity';
import { emit } from '../events/outbox';
import { resolveActor } from '../members/resolve-actor';
import {
  checkIds,
  effectiveInterval,
  FEED_TYPES,
  isFeedType,
  QUIETNESS_ACK_DAYS,
  QUIETNESS_ACK_MS,
  QUIETNESS_MAX_FLOOR_DAYS,
  quietnessAckActive,
  quietnessFloorMs,
  wrongSourceType,
  type SourceType,
} from './rules';
import { readCadence, type SourceDeps } from './source-context';
import { findSources, getSource, toView, updateSource, type Cadence, type SourceRow, type SourceView } from './source-store';

export interface QuietSource {
  sourceId: string;
  label: string;
  type: SourceType;
  intervalMinutes: number;
  lastSyncedAt: string | null;
  lastSignalAt: string | null;
  /** Last signal, or when the source was added if it never produced one. */
  quietSince: string;
  quietForDays: number;
  /** This source's floor: 14 days, or 2x its cadence when longer, at most 90. */
  floorDays: number;
  acked: boolean;
  quietnessAckedAt: string | null;
  quietnessAckExpiresAt: string | null;
}

export interface QuietnessReport {
  /** The workspace cadence: the effective loop interval, already at least the plan floor. */
  workspaceCadenceMinutes: number;
  /** The plan's floor under every cadence (free 15, pro 5, team 1 minutes). */
  planFloorMinutes: number;
  /** The quietness floor at the workspace cadence (sources with their own interval may have a longer one). */
  cadenceFloorDays: number;
  maxFloorDays: number;
  ackDays: number;
  /** Quiet feeds, unacknowledged first, then the longest quiet first. Acknowledged ones stay listed with their ack. */
  sources: QuietSource[];
}

export interface QuietnessAckResult {
  /** The named feed sources after the call, in the order asked. */
  sources: SourceView[];
  /** How many acks this call set (ack) or revoked (unack). */
  affected: number;
  /** Sources whose ack this call set (ack) or revoked (unack); one event each. */
  changed: string[];
  /** Named sources that are not feeds (manual, file): quietness does not apply to them. */
  skipped: string[];
  /** Ids that matched no source. */
  notFound: string[];
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Quietness: feeds that poll fine but bring no signal beyond their floor; the report, the 7-day
 * ack (single and bulk) and the warning sweep. Single-source calls answer 404 for an unknown id and
 * 409 `wrong_source_type` for a non-feed; bulk calls follow the bulk policy (`notFound`, `skipped`).
 */
export class SourceQuietness {
  constructor(private readonly d: SourceDeps) {}

  /**
   * Feeds whose polls succeed (at least one did and the last one did), are not paused, and produced
   * no signal beyond their floor. A feed whose polls fail is not quiet but broken: it shows as
   * status `error` with lastErrorMessage instead, and comes back here once a poll succeeds.
   */
  private async quietRows(c: Cadence): Promise<{ row: SourceRow; quiet: QuietSource }[]> {
    const rows = await this.d.db
      .selectFrom('sources')
      .selectAll()
      .where('type', 'in', FEED_TYPES)
      .where('lastSyncedAt', 'is not', null)
      .where('consecutiveFailures', '=', 0)
      .where('pausedAt', 'is', null)
      .execute();
    const now = c.now.getTime();
    const out: { row: SourceRow; quiet: QuietSource }[] = [];
    for (const row of rows) {
      const intervalMinutes = effectiveInterval(row.pollIntervalMinutes, c.workspaceCadence, c.planFloor);
      const floor = quietnessFloorMs(intervalMinutes);
      const quietSince = row.lastSignalAt ?? row.createdAt;
      // Elapsed time, not calendar days: the floor is a duration (14 x 24 h), whatever the timezone.
      const quietMs = now - new Date(quietSince).getTime();
      if (quietMs <= floor) continue;
      const acked = quietnessAckActive(row.quietnessAckedAt, c.now);
      out.push({
        row,
        quiet: {
          sourceId: row.id,
          label: row.label,
          type: row.type,
          intervalMinutes,
          lastSyncedAt: row.lastSyncedAt,
          lastSignalAt: row.lastSignalAt,
          quietSince,
          quietForDays: Math.floor(quietMs / DAY_MS),
          floorDays: round2(floor / DAY_MS),
          acked,
          quietnessAckedAt: acked ? row.quietnessAckedAt : null,
          quietnessAckExpiresAt: acked ? new Date(new Date(row.quietnessAckedAt!).getTime() + QUIETNESS_ACK_MS).toISOString() : null,
        },
      });
    }
    return out;
  }

  async quietness(): Promise<QuietnessReport> {
    const c = await readCadence(this.d);
    const rows = (await this.quietRows(c)).map((r) => r.quiet);
    rows.sort((a, b) => Number(a.acked) - Number(b.acked) || a.quietSince.localeCompare(b.quietSince) || a.label.localeCompare(b.label));
    return {
      workspaceCadenceMinutes: c.workspaceCadence,
      planFloorMinutes: c.planFloor,
      cadenceFloorDays: round2(quietnessFloorMs(effectiveInterval(null, c.workspaceCadence, c.planFloor)) / DAY_MS),
      maxFloorDays: QUIETNESS_MAX_FLOOR_DAYS,
      ackDays: QUIETNESS_ACK_DAYS,
      sources: rows,
    };
  }

  /**
   * Mutes the quietness alarm of feed sources for 7 days (whether quiet now or not); a fresh
   * signal ends it sooner. Acking again restarts the 7 days. One event per acked source.
   */
  async ackQuietness(sourceIds: string[]): Promise<QuietnessAckResult> {
    return this.bulk(checkIds(sourceIds), (trx, row, actor) => this.ack(trx, row, actor));
  }

  /** Revokes acks early; sources without a holding ack are silent no-ops (no event, no activity). */
  async unackQuietness(sourceIds: string[]): Promise<QuietnessAckResult> {
    return this.bulk(checkIds(sourceIds), (trx, row, actor) => this.unack(trx, row, actor));
  }

  /** One source: 404 when unknown, 409 `wrong_source_type` when not a feed. */
  async ackOne(sourceId: string): Promise<SourceView> {
    return this.one(sourceId, (trx, row, actor) => this.ack(trx, row, actor));
  }

  async unackOne(sourceId: string): Promise<SourceView> {
    return this.one(sourceId, (trx, row, actor) => this.unack(trx, row, actor));
  }

  private async one(sourceId: string, change: (trx: Trx, row: SourceRow, actor: Actor) => Promise<boolean>): Promise<SourceView> {
    return inTransaction(this.d.db, async (trx) => {
      const row = await getSource(trx, sourceId);
      if (!isFeedType(row.type)) throw wrongSourceType(row, 'quietness applies to feed sources only');
      await change(trx, row, await resolveActor(trx));
      return toView(await getSource(trx, sourceId), await readCadence(this.d));
    });
  }

  private async bulk(ids: string[], change: (trx: Trx, row: SourceRow, actor: Actor) => Promise<boolean>): Promise<QuietnessAckResult> {
    return inTransaction(this.d.db, async (trx) => {
      const actor = await resolveActor(trx);
      const { rows, notFound } = await findSources(trx, ids);
      const feeds = rows.filter((r) => isFeedType(r.type));
      const changed: string[] = [];
      for (const row of feeds) if (await change(trx, row, actor)) changed.push(row.id);
      const c = await readCadence(this.d);
      const after = (await findSources(trx, feeds.map((r) => r.id))).rows;
      return {
        sources: after.map((r) => toView(r, c)),
        affected: changed.length,
        changed,
        skipped: rows.filter((r) => !isFeedType(r.type)).map((r) => r.id),
        notFound,
      };
    });
  }

  private async ack(trx: Trx, row: SourceRow, actor: Actor): Promise<boolean> {
    const { clock } = this.d;
    const now = clock.now();
    const at = now.toISOString();
    const expiresAt = new Date(now.getTime() + QUIETNESS_ACK_MS).toISOString();
    await updateSource(trx, row.id, { quietnessAckedAt: at, updatedAt: at });
    await recordActivity(trx, clock, { kind: 'source.quietness_acked', detail: `Quietness alarm of ${row.label} muted until ${expiresAt}`, actor, entityType: 'source', entityId: row.id });
    await emit(trx, clock, 'source.quietness_acked', { sourceId: row.id, label: row.label, quietnessAckedAt: at, expiresAt });
    return true;
  }

  private async unack(trx: Trx, row: SourceRow, actor: Actor): Promise<boolean> {
    const { clock } = this.d;
    const now = clock.now();
    if (!quietnessAckActive(row.quietnessAckedAt, now)) return false;
    await updateSource(trx, row.id, { quietnessAckedAt: null, updatedAt: now.toISOString() });
    await recordActivity(trx, clock, { kind: 'source.quietness_unacked', detail: `Quietness alarm of ${row.label} unmuted`, actor, entityType: 'source', entityId: row.id });
    await emit(trx, clock, 'source.quietness_unacked', { sourceId: row.id, label: row.label });
    return true;
  }

  /**
   * Scheduler job: one `source.quietness_warning` per quiet period of each quiet feed, skipped
   * while an ack holds. A fresh signal starts a new period (insertSignal clears the stamp);
   * an ack that ran out with the source still quiet warns once more.
   */
  async warnQuietSources(): Promise<string[]> {
    const { clock } = this.d;
    return inTransaction(this.d.db, async (trx) => {
      const warned: string[] = [];
      for (const { row, quiet } of await this.quietRows(await readCadence(this.d))) {
        if (quiet.acked) continue;
        const warnedAt = row.quietnessWarnedAt;
        if (warnedAt !== null && !(row.quietnessAckedAt !== null && warnedAt <= row.quietnessAckedAt)) continue;
        await updateSource(trx, row.id, { quietnessWarnedAt: clock.now().toISOString() });
        await recordActivity(trx, clock, {
          kind: 'source.quietness_warning',
          detail: `${row.label} has produced no signal for ${quiet.quietForDays} days (floor ${quiet.floorDays} days)`,
          actor: SYSTEM_ACTOR,
          entityType: 'source',
          entityId: row.id,
        });
        await emit(trx, clock, 'source.quietness_warning', {
          sourceId: row.id,
          label: row.label,
          quietSince: quiet.quietSince,
          quietForDays: quiet.quietForDays,
          floorDays: quiet.floorDays,
        });
        warned.push(row.id);
      }
      return warned;
    });
  }
}
