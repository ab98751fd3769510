import type { Db } from '../../../db/connection';
import type { Clock } from '../../core/clock';
import { newId } from '../../core/ids';

/**
 * Queues an outbound event in the same transaction as the change that caused it
 * (a transactional outbox): it is delivered after commit, or never if the change rolls back.
 */
export async function emit(trx: Db, clock: Clock, event: string, payload: Record<string, unknown>): Promise<string> {
  const id = newId('evt', clock);
  const createdAt = clock.now().toISOString();
  await trx
    .insertInto('outboxEvents')
    .values({ id, event, payload: JSON.stringify({ id, event, createdAt, data: payload }), createdAt, deliveredAt: null })
    .execute();
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
