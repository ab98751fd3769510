import type { Insertable } from 'kysely';
import { insertRow } from '../../../db/compiled';
import type { SignalTable } from '../../../db/schema';
import type { Trx } from '../../../db/transactions';
import type { Clock } from '../../core/clock';
import { newId } from '../../core/ids';
import type { SignalOrigin } from '../catalog/events';
import { emit } from '../events/outbox';
import { SIGNAL_KINDS, SIGNAL_PRIORITIES, type SignalKind, type SignalPriority } from '../../core/vocabulary';

export { SIGNAL_KINDS, type SignalKind, SIGNAL_PRIORITIES, type SignalPriority };
export const isSignalKind = (value: unknown): value is SignalKind => (SIGNAL_KINDS as readonly unknown[]).includes(value);
export const isSignalPriority = (value: unknown): value is SignalPriority => (SIGNAL_PRIORITIES as readonly unknown[]).includes(value);

export interface NewSignal {
  kind: SignalKind;
  priority: SignalPriority;
  title: string;
  detail: string;
  sourceUrl?: string | null;
  sourceId?: string | null;
  /** Defaults to now. */
  createdAt?: string;
  /** The sender's own id (inbound webhook); unique among signals, checked by the caller. */
  externalId?: string | null;
  /** When the item says it was published (a feed item's date); kept no later than createdAt. */
  publishedAt?: string | null;
  /** How it reached the desk (the `origin` of its `signal.created` event). */
  origin: SignalOrigin;
}

/** Stamps a source with a fresh signal's time (written by the sources area, which owns the row). */
export type FreshSignalStamp = (trx: Trx, sourceId: string, at: string) => Promise<void>;

/**
 * Inserts one signal inside the caller's transaction, the one way every path creates a signal
 * (by hand, webhook, feed poll, file import), so each emits `signal.created` in that transaction.
 * A signal from a source is fresh signal: `stampSource` (the sources area's stampFreshSignal,
 * handed down because sources sit above signals) stamps the source's lastSignalAt and ends any
 * quietness acknowledgement (spec: a fresh signal ends an ack). Callers write their own activity
 * row (its detail and actor differ per path).
 */
export async function insertSignal(trx: Trx, clock: Clock, input: NewSignal, stampSource: FreshSignalStamp): Promise<string> {
  const id = newId('sig', clock);
  const createdAt = input.createdAt ?? clock.now().toISOString();
  await insertRow(trx, 'signals', {
    id,
    kind: input.kind,
    priority: input.priority,
    title: input.title,
    detail: input.detail,
    sourceUrl: input.sourceUrl ?? null,
    sourceId: input.sourceId ?? null,
    pinned: 0,
    createdAt,
    ...(input.externalId ? { externalId: input.externalId } : {}),
    // A date in the future (a wrong clock at the sender) would pin the item on top: it is received now at the latest.
    ...(input.publishedAt ? { publishedAt: input.publishedAt < createdAt ? input.publishedAt : createdAt } : {}),
  });
  if (input.sourceId) await stampSource(trx, input.sourceId, createdAt);
  await emit(trx, clock, 'signal.created', {
    signalId: id,
    kind: input.kind,
    priority: input.priority,
    title: input.title,
    sourceId: input.sourceId ?? null,
    origin: input.origin,
  });
  return id;
}

/** Inserts whole signal rows as given (import, the bench and fixtures: explicit ids and times), one statement. */
export async function insertSignalRows(trx: Trx, rows: Insertable<SignalTable>[]): Promise<void> {
  await trx.insertInto('signals').values(rows).execute();
}

export async function deleteSignals(trx: Trx, ids: string[]): Promise<void> {
  await trx.deleteFrom('signals').where('id', 'in', ids).execute();
}

export async function setSignalsPinned(trx: Trx, ids: string[], pinned: boolean): Promise<void> {
  await trx.updateTable('signals').set({ pinned: pinned ? 1 : 0 }).where('id', 'in', ids).execute();
}

/** Signals a cycle took in stop being new (those already triaged keep their time). */
export async function markSignalsTriaged(trx: Trx, ids: string[], at: string): Promise<void> {
  await trx.updateTable('signals').set({ triagedAt: at }).where('id', 'in', ids).where('triagedAt', 'is', null).execute();
}
