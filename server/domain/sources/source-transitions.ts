import type { Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { recordActivity, type Actor } from '../activity/activity';
import type { ActivityKind } from '../catalog/activity-kinds';
import { emit } from '../events/outbox';
import { deleteSourceRow, updateSource, type SourceRow } from './source-store';

/**
 * The state changes of a source that more than one endpoint or job makes, written once each.
 * Each runs inside the caller's transaction and writes its activity row (and event) there.
 */

const entity = (row: SourceRow) => ({ entityType: 'source', entityId: row.id });

/**
 * The one pause transition (PATCH `{status: 'paused'}`, pause-until, bulk pause): `until` null is
 * an indefinite pause (it replaces a scheduled one), a time is a scheduled pause. An already
 * paused source keeps its pausedAt. Returns false, writing nothing, when the source is already
 * paused exactly so. The health status, failures and retry schedule are left as they are.
 */
export async function pauseSource(trx: Trx, clock: Clock, row: SourceRow, until: string | null, actor: Actor): Promise<boolean> {
  if (row.pausedAt !== null && row.pausedUntilAt === until) return false;
  const now = clock.now().toISOString();
  await updateSource(trx, row.id, { pausedAt: row.pausedAt ?? now, pausedUntilAt: until, updatedAt: now });
  await recordActivity(trx, clock, {
    ...(until === null
      ? { kind: 'source.paused' as const, detail: `Source ${row.label} paused` }
      : { kind: 'source.pause_scheduled' as const, detail: `Source ${row.label} paused until ${until}` }),
    actor,
    ...entity(row),
  });
  await emit(trx, clock, 'source.paused', { sourceId: row.id, label: row.label, pausedUntilAt: until });
  return true;
}

/**
 * The one resume transition (PATCH `{status: 'connected'}` on a paused source, pause-until null,
 * bulk resume, the scheduled-pause expiry): clears the pause and nothing else. The source keeps the
 * status its polls gave it: a failing feed stays `error` with its backoff, since only a poll can
 * tell that it works again. `reason` ends the activity detail. False (nothing written) when not paused.
 */
export async function resumeSource(trx: Trx, clock: Clock, row: SourceRow, actor: Actor, reason: string): Promise<boolean> {
  if (row.pausedAt === null) return false;
  const now = clock.now().toISOString();
  await updateSource(trx, row.id, { pausedAt: null, pausedUntilAt: null, updatedAt: now });
  await recordActivity(trx, clock, { kind: 'source.resumed', detail: `Source ${row.label} resumed (${reason})`, actor, ...entity(row) });
  await emit(trx, clock, 'source.resumed', { sourceId: row.id, label: row.label });
  return true;
}

/** Deletes a source (its signals stay, unlinked by the foreign key) with its activity row and event. */
export async function deleteSource(trx: Trx, clock: Clock, row: SourceRow, actor: Actor): Promise<void> {
  await deleteSourceRow(trx, row.id);
  await recordActivity(trx, clock, { kind: 'source.deleted', detail: `Source ${row.label} (${row.type}) deleted`, actor, ...entity(row) });
  await emit(trx, clock, 'source.deleted', { sourceId: row.id, label: row.label });
}

/** A configuration change (label, status, cadence, keywords): written with its activity row unless it changes nothing. */
export async function changeSource(
  trx: Trx,
  clock: Clock,
  row: SourceRow,
  change: Partial<Pick<SourceRow, 'label' | 'status' | 'pollIntervalMinutes' | 'includeKeywords' | 'excludeKeywords'>>,
  activity: { kind: ActivityKind; detail: string; actor: Actor },
): Promise<boolean> {
  if (!Object.entries(change).some(([k, v]) => row[k as keyof SourceRow] !== v)) return false;
  await updateSource(trx, row.id, { ...change, updatedAt: clock.now().toISOString() });
  await recordActivity(trx, clock, { ...activity, ...entity(row) });
  return true;
}

/** The activity detail of a cadence change (single and bulk). */
export const cadenceDetail = (label: string, minutes: number | null) =>
  minutes === null ? `${label} follows the workspace cadence` : `${label} polls every ${minutes} minutes`;
