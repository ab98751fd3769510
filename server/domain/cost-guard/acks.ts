import type { Db } from '../../../db/connection';
import { inTransaction } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { DeskError, memoryNotFound, notFound } from '../../core/errors';
import { checkIdList } from '../../core/input';
import { dayOf, endOfDay } from '../../core/workspace-time';
import { recordActivity } from '../activity/activity';
import { emit } from '../events/outbox';
import { resolveActor } from '../members/resolve-actor';
import { readWorkspace } from '../workspace/workspace-store';
import { CHRONIC_ACK_EVENTS, SPIKE_ACK_EVENTS } from './alerts';
import { CHRONIC_ACK_MS, chronicAckActive, chronicAckExpiry, hasChronic, type GuardDimension } from './rules';
import { knownEntities, upsertWatch } from './watch-store';

/**
 * Acknowledgements. A cost-spike ack mutes the entity's spike alerts for the rest of the workspace
 * day and lifts its spike pause at once; a chronic ack mutes chronic warnings for 7 days and lifts a
 * source's chronic pause. Acking an entity that is not spiking is allowed and harmless (it mutes a
 * spike expected later that day, e.g. a task known to be costly today); acking again restamps.
 * Single calls answer 404 for an unknown entity; bulk calls list unknown ids in `notFound`. One
 * activity row per acked entity and one event per call (the spec's rule for memory, kept for all).
 */

export type AckKind = 'spike' | 'chronic';

/** One acknowledgement as answered. */
export interface CostAck {
  /** The task id, source id, tag, member id or memory entry id. */
  key: string;
  /** @format date-time */
  ackedAt: string;
  /** Spike acks: the next workspace midnight; chronic acks: 7 days after ackedAt. @format date-time */
  expiresAt: string;
}

export interface CostAckBulkResult {
  /** The keys acknowledged, in the order asked (duplicates folded). */
  acked: string[];
  /** How many were acknowledged. @isInt */
  affected: number;
  /** Ids that name nothing. */
  notFound: string[];
  /** @format date-time */
  ackedAt: string;
  /** @format date-time */
  expiresAt: string;
}

/** The 404 of a single ack naming nothing. */
export function unknownEntity(dimension: GuardDimension, key: string): DeskError {
  switch (dimension) {
    case 'task':
      return notFound('task', key);
    case 'source':
      return notFound('source', key);
    case 'assignee':
      return notFound('member', key);
    case 'memory':
      return memoryNotFound(key);
    case 'tag':
      return new DeskError(404, 'not_found', `No tag ${key} (no task carries it and it never spent)`);
  }
}

export async function acknowledge(db: Db, clock: Clock, dimension: GuardDimension, kind: AckKind, keys: readonly string[]): Promise<CostAckBulkResult> {
  if (kind === 'chronic' && !hasChronic(dimension)) throw new Error(`${dimension} has no chronic warning`);
  return inTransaction(db, async (trx) => {
    const actor = await resolveActor(trx);
    const ws = await readWorkspace(trx);
    const now = clock.now();
    const ackedAt = now.toISOString();
    const expiresAt = kind === 'spike' ? endOfDay(dayOf(now, ws.timezone), ws.timezone).toISOString() : chronicAckExpiry(ackedAt);
    const known = await knownEntities(trx, dimension, keys);
    const acked = keys.filter((k) => known.has(k));
    for (const key of acked) {
      const set = kind === 'spike' ? { spikeAckedAt: ackedAt, spikeAckDay: dayOf(now, ws.timezone), pausedAt: null } : { chronicAckedAt: ackedAt, chronicPausedAt: null };
      await upsertWatch(trx, dimension, key, set);
      await recordActivity(trx, clock, {
        kind: kind === 'spike' ? 'cost.spike_acked' : 'cost.chronic_acked',
        detail: `${kind === 'spike' ? 'Cost spike' : 'Chronic cost warning'} of ${known.get(key)!.label} (${dimension}) acknowledged until ${expiresAt}`,
        actor,
        entityType: dimension,
        entityId: key,
      });
    }
    if (acked.length > 0) {
      const event = kind === 'spike' ? SPIKE_ACK_EVENTS[dimension] : CHRONIC_ACK_EVENTS[dimension as keyof typeof CHRONIC_ACK_EVENTS];
      await emit(trx, clock, event, { dimension, keys: acked, ackedAt, expiresAt });
    }
    return { acked, affected: acked.length, notFound: keys.filter((k) => !known.has(k)), ackedAt, expiresAt };
  });
}

/** A single ack: 404 when the entity is unknown. */
export async function acknowledgeOne(db: Db, clock: Clock, dimension: GuardDimension, kind: AckKind, key: string): Promise<CostAck> {
  const r = await acknowledge(db, clock, dimension, kind, [key]);
  if (r.affected === 0) throw unknownEntity(dimension, key);
  return { key, ackedAt: r.ackedAt, expiresAt: r.expiresAt };
}

/** A bulk ack: 1-50 ids (422 naming the field otherwise), unknown ones in `notFound`. */
export function acknowledgeMany(db: Db, clock: Clock, dimension: GuardDimension, kind: AckKind, ids: unknown, field: string): Promise<CostAckBulkResult> {
  return acknowledge(db, clock, dimension, kind, checkIdList(ids, field));
}

/** A chronic ack that holds. */
export interface ChronicAckRow {
  dimension: 'tag' | 'source' | 'assignee';
  key: string;
  label: string;
  /** @format date-time */
  chronicAckedAt: string;
  /** @format date-time */
  expiresAt: string;
}

/**
 * GET /cost/chronic-acks: the chronic acks of tags, sources and assignees that still hold (stamps
 * older than 7 days are left out), newest first. Bounded by the entities that exist.
 */
export async function activeChronicAcks(db: Db, clock: Clock): Promise<ChronicAckRow[]> {
  const now = clock.now();
  const since = new Date(now.getTime() - CHRONIC_ACK_MS).toISOString();
  const rows = await db
    .selectFrom('costWatch')
    .select(['dimension', 'key', 'chronicAckedAt'])
    .where('dimension', 'in', ['tag', 'source', 'assignee'])
    .where('chronicAckedAt', '>', since)
    .orderBy('chronicAckedAt', 'desc')
    .orderBy('dimension')
    .orderBy('key')
    .execute();
  const out: ChronicAckRow[] = [];
  for (const dimension of ['tag', 'source', 'assignee'] as const) {
    const mine = rows.filter((r) => r.dimension === dimension && chronicAckActive(r.chronicAckedAt, now));
    const known = await knownEntities(
      db,
      dimension,
      mine.map((r) => r.key),
    );
    for (const r of mine) {
      const e = known.get(r.key);
      if (e) out.push({ dimension, key: r.key, label: e.label, chronicAckedAt: r.chronicAckedAt!, expiresAt: chronicAckExpiry(r.chronicAckedAt!) });
    }
  }
  return out.sort((a, b) => b.chronicAckedAt.localeCompare(a.chronicAckedAt) || a.dimension.localeCompare(b.dimension) || a.key.localeCompare(b.key));
}
