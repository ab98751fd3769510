import { insertRow } from '../../../db/compiled';
import type { Db } from '../../../db/connection';
import type { Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { newId } from '../../core/ids';
import type { EventEnvelope, EventName, EventPayloads } from '../catalog/events';

/**
 * Queues an outbound event in the same transaction as the change that caused it
 * (a transactional outbox): it is delivered after commit, or never if the change rolls back.
 */
export async function emit<E extends EventName>(trx: Trx, clock: Clock, event: E, data: EventPayloads[E]): Promise<string> {
  const id = newId('evt', clock);
  const createdAt = clock.now().toISOString();
  const envelope: EventEnvelope<E> = { id, event, createdAt, data };
  await insertRow(trx, 'outboxEvents', { id, event, payload: JSON.stringify(envelope), createdAt, deliveredAt: null });
  return id;
}

export async function pendingEvents(db: Db, limit = 100) {
  return db
    .selectFrom('outboxEvents')
    .selectAll()
    .where('deliveredAt', 'is', null)
    .orderBy('createdAt')
    .limit(limit)
    .execute();
}

/** Events handed to the delivery worker (their deliveries are queued in the same transaction). */
export async function markEventsDelivered(trx: Trx, ids: string[], at: string): Promise<void> {
  await trx.updateTable('outboxEvents').set({ deliveredAt: at }).where('id', 'in', ids).execute();
}

/** Drops events delivered before `cutoff`; answers how many went. */
export async function pruneDeliveredEvents(trx: Trx, cutoff: string): Promise<number> {
  const gone = await trx.deleteFrom('outboxEvents').where('deliveredAt', '<', cutoff).executeTakeFirst();
  return Number(gone.numDeletedRows);
}
