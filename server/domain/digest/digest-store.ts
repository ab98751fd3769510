import type { Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { newId } from '../../core/ids';
import type { DigestDelivery, DigestOutcome, DigestReason, DigestTrigger } from './rules';

/** The one writer of the digest_state and digest_audit tables. */

/** Claims today's scheduled run: the state row remembers when it ran and for which workspace day. */
export async function markDigestRun(trx: Trx, at: string, day: string): Promise<void> {
  await trx.updateTable('digestState').set({ lastRunAt: at, lastRunDay: day }).where('id', '=', 1).execute();
}

/**
 * The clock went back past the last run: it counts as having run `at` (the day it ran for stays), so
 * the 22-hour gate opens 22 hours after the jump instead of once the clock has caught up.
 */
export async function rewindDigestRun(trx: Trx, at: string): Promise<void> {
  await trx.updateTable('digestState').set({ lastRunAt: at }).where('id', '=', 1).where('lastRunAt', '>', at).execute();
}

export interface AuditRow {
  trigger: DigestTrigger;
  userId: string;
  recipientLabel: string;
  recipientEmail: string | null;
  outcome: DigestOutcome;
  reason: DigestReason;
  delivery: DigestDelivery | null;
  subject: string | null;
  detail: string;
}

export async function insertAudit(trx: Trx, clock: Clock, row: AuditRow): Promise<string> {
  const id = newId('dga', clock);
  await trx.insertInto('digestAudit').values({ id, createdAt: clock.now().toISOString(), ...row }).execute();
  return id;
}

/** The audit answers a bounded span back: older rows go. */
export async function pruneAudit(trx: Trx, before: string): Promise<void> {
  await trx.deleteFrom('digestAudit').where('createdAt', '<', before).execute();
}
