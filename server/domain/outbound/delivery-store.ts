import type { Insertable, Updateable } from 'kysely';
import type { OutboundAttemptTable, OutboundDeliveryTable } from '../../../db/schema';
import type { Trx } from '../../../db/transactions';

/** The one writer of the outbound_deliveries and outbound_attempts tables (the delivery log). */

/** Inserts deliveries (pendingDelivery's rows), one statement. */
export async function insertDeliveries(trx: Trx, rows: Insertable<OutboundDeliveryTable>[]): Promise<void> {
  await trx.insertInto('outboundDeliveries').values(rows).execute();
}

export async function updateDelivery(trx: Trx, id: string, change: Updateable<OutboundDeliveryTable>): Promise<void> {
  await trx.updateTable('outboundDeliveries').set(change).where('id', '=', id).execute();
}

/** Gives up the pending deliveries of a subscription that was disabled. */
export async function giveUpPending(trx: Trx, subscriptionId: string, at: string): Promise<void> {
  await trx.updateTable('outboundDeliveries').set({ state: 'given_up', nextAttemptAt: null, finishedAt: at }).where('subscriptionId', '=', subscriptionId).where('state', '=', 'pending').execute();
}

/**
 * Pending deliveries last tried (or queued) later than `now`: the clock went back. Each next attempt
 * keeps its wait but counts it from now, so a retry is not held back until the clock catches up.
 */
export async function rewindPendingDeliveries(trx: Trx, now: Date): Promise<number> {
  const at = now.toISOString();
  const ahead = await trx
    .selectFrom('outboundDeliveries')
    .select(['id', 'lastAttemptAt', 'createdAt', 'nextAttemptAt'])
    .where('state', '=', 'pending')
    .where('nextAttemptAt', 'is not', null)
    .where((eb) => eb(eb.fn.coalesce('lastAttemptAt', 'createdAt'), '>', at))
    .execute();
  for (const d of ahead) {
    const wait = Date.parse(d.nextAttemptAt!) - Date.parse(d.lastAttemptAt ?? d.createdAt);
    await trx.updateTable('outboundDeliveries').set({ nextAttemptAt: new Date(now.getTime() + Math.max(0, wait)).toISOString() }).where('id', '=', d.id).execute();
  }
  return ahead.length;
}

export async function insertAttempt(trx: Trx, row: Insertable<OutboundAttemptTable>): Promise<void> {
  await trx.insertInto('outboundAttempts').values(row).execute();
}

/** Drops attempts and finished deliveries older than `cutoff`; answers how many of each went. */
export async function pruneDeliveryLog(trx: Trx, cutoff: string): Promise<{ attempts: number; deliveries: number }> {
  const attempts = await trx.deleteFrom('outboundAttempts').where('createdAt', '<', cutoff).executeTakeFirst();
  const deliveries = await trx.deleteFrom('outboundDeliveries').where('state', '!=', 'pending').where('finishedAt', '<', cutoff).executeTakeFirst();
  return { attempts: Number(attempts.numDeletedRows), deliveries: Number(deliveries.numDeletedRows) };
}
