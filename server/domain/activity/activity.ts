import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import type { Trx } from '../../../db/transactions';
import type { ActivityKind } from '../catalog/activity-kinds';
import type { Clock } from '../../core/clock';
import { newId } from '../../core/ids';

/** Who made a change: a member (the owner when the API does not say) or the desk itself. */
export interface Actor {
  userId: string | null;
  label: string;
}

export const SYSTEM_ACTOR: Actor = { userId: null, label: 'system' };

export interface ActivityEntry {
  kind: ActivityKind;
  detail: string;
  actor: Actor;
  entityType?: string;
  entityId?: string;
}

/** Writes one activity row. Call it inside the transaction of the change it describes. */
export async function recordActivity(trx: Trx, clock: Clock, entry: ActivityEntry): Promise<void> {
  await trx
    .insertInto('activity')
    .values({
      id: newId('act', clock),
      kind: entry.kind,
      detail: entry.detail,
      actorUserId: entry.actor.userId,
      actorLabel: entry.actor.label,
      entityType: entry.entityType ?? null,
      entityId: entry.entityId ?? null,
      createdAt: clock.now().toISOString(),
    })
    .execute();
}

/** One row of the activity log (the spec leaves its fields open; these are Desk's). */
export interface ActivityRecord {
  id: string;
  /** What happened, as `area.event`, e.g. `workspace.loop_state`, `signal.created`. */
  kind: string;
  /** A sentence for people, e.g. "Loop set to paused". Never holds a secret. */
  detail: string;
  /** The member who made the change; null when the desk did it. */
  actorUserId: string | null;
  /** The member's name, or `system`. */
  actorLabel: string;
  /** The kind of thing changed, e.g. `workspace`, `signal`, `source`. */
  entityType: string | null;
  entityId: string | null;
  /** @format date-time */
  createdAt: string;
}

export interface ActivityQuery {
  limit: number;
  since?: string;
  kinds?: string[];
  q?: string;
}

/** Newest first; served from the created_at and (kind, created_at) indexes. */
export async function listActivity(db: Db, query: ActivityQuery): Promise<ActivityRecord[]> {
  let sel = db.selectFrom('activity').selectAll();
  if (query.since) sel = sel.where('createdAt', '>=', query.since);
  if (query.kinds && query.kinds.length > 0) sel = sel.where('kind', 'in', query.kinds);
  if (query.q) {
    const pattern = `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    sel = sel.where((eb) =>
      eb.or([
        eb(sql`detail`, 'like', sql`${pattern} ESCAPE '\\'`),
        eb(sql`kind`, 'like', sql`${pattern} ESCAPE '\\'`),
      ]),
    );
  }
  return sel.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(query.limit).execute();
}
