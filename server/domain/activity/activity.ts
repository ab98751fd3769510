import type { Insertable } from 'kysely';
import { insertRow } from '../../../db/compiled';
import type { ActivityTable } from '../../../db/schema';
import type { Trx } from '../../../db/transactions';
import type { ActivityKind } from '../catalog/activity-kinds';
import type { Clock } from '../../core/clock';
import { idTime, newId, raiseIdFloor } from '../../core/ids';
import type { Db } from '../../../db/connection';

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
  // Compiled once per shape (db/compiled.ts): every change writes one of these.
  await insertRow(trx, 'activity', {
    id: newId('act', clock),
    kind: entry.kind,
    detail: entry.detail,
    actorUserId: entry.actor.userId,
    actorLabel: entry.actor.label,
    entityType: entry.entityType ?? null,
    entityId: entry.entityId ?? null,
    createdAt: clock.now().toISOString(),
  });
}

/** Inserts whole activity rows as given (the bench: explicit ids and times), one statement. */
export async function insertActivityRows(trx: Trx, rows: Insertable<ActivityTable>[]): Promise<void> {
  await trx.insertInto('activity').values(rows).execute();
}

/**
 * Raises this thread's id floor (server/core/ids.ts) to the newest activity row's id: every change
 * writes one, so new ids sort after everything stored even when the clock now reads earlier (a desk
 * restarted after the clock went back; the cycle worker's own thread).
 */
export async function raiseIdFloorToStored(db: Db | Trx): Promise<void> {
  const newest = await db.selectFrom('activity').select('id').orderBy('id', 'desc').limit(1).executeTakeFirst();
  const at = newest ? idTime(newest.id) : null;
  // The next millisecond: an id of the same one would sort by its random part, before or after.
  if (at !== null) raiseIdFloor(at + 1);
}
