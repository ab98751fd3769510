import crypto from 'node:crypto';
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../../db/connection';
import type { Trx } from '../../../db/transactions';
import type { SourceTable } from '../../../db/schema';
import { DAY_MS, type Clock } from '../../core/clock';
import { notFound } from '../../core/errors';
import { recordActivity, type Actor } from '../activity/activity';
import { insertSignal, type FreshSignalStamp, type SignalKind, type SignalPriority } from '../signals/signal-store';
import { passesKeywords, pollGating, quietnessAckActive, QUIETNESS_ACK_MS, type PollGating, type SourceStatus, type SourceType } from './rules';

/** SQL of the sources and feed_items_seen tables (their one writer), and the row shape the API shows. */

export type SourceRow = Selectable<SourceTable>;

/** A source as the API shows it. */
export interface SourceView {
  id: string;
  type: SourceType;
  label: string;
  /** Feed URL (feed types), file location (file), optional reference link (manual). */
  url: string | null;
  notes: string | null;
  status: SourceStatus;
  /** True while paused (bulk pause, or a scheduled pause until pausedUntilAt). Paused sources are not polled. */
  paused: boolean;
  pausedAt: string | null;
  pausedUntilAt: string | null;
  /** Own poll interval in minutes; null = workspace cadence. */
  pollIntervalMinutes: number | null;
  /** Null for types that are not polled (manual, file). */
  pollGating: PollGating | null;
  lastSyncedAt: string | null;
  lastPolledAt: string | null;
  lastErrorMessage: string | null;
  consecutiveFailures: number;
  lastSignalAt: string | null;
  /** Set while a quietness ack holds (7 days, ended early by a fresh signal or an unack). */
  quietnessAckedAt: string | null;
  quietnessAckExpiresAt: string | null;
  includeKeywords: string[];
  excludeKeywords: string[];
  createdAt: string;
  updatedAt: string;
}

export interface Cadence {
  workspaceCadence: number;
  planFloor: number;
  now: Date;
}

export function toView(row: SourceRow, c: Cadence): SourceView {
  const acked = quietnessAckActive(row.quietnessAckedAt, c.now);
  return {
    id: row.id,
    type: row.type,
    label: row.label,
    url: row.url,
    notes: row.notes,
    status: row.status,
    paused: row.pausedAt !== null,
    pausedAt: row.pausedAt,
    pausedUntilAt: row.pausedUntilAt,
    pollIntervalMinutes: row.pollIntervalMinutes,
    pollGating: pollGating(row, c.workspaceCadence, c.planFloor, c.now),
    lastSyncedAt: row.lastSyncedAt,
    lastPolledAt: row.lastPolledAt,
    lastErrorMessage: row.lastErrorMessage,
    consecutiveFailures: row.consecutiveFailures,
    lastSignalAt: row.lastSignalAt,
    quietnessAckedAt: acked ? row.quietnessAckedAt : null,
    quietnessAckExpiresAt: acked ? new Date(new Date(row.quietnessAckedAt!).getTime() + QUIETNESS_ACK_MS).toISOString() : null,
    includeKeywords: JSON.parse(row.includeKeywords) as string[],
    excludeKeywords: JSON.parse(row.excludeKeywords) as string[],
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function findSource(db: Db, id: string): Promise<SourceRow | undefined> {
  return db.selectFrom('sources').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function getSource(db: Db, id: string): Promise<SourceRow> {
  const row = await findSource(db, id);
  if (!row) throw notFound('source', id);
  return row;
}

/**
 * The rows of a bulk call's ids, in the order asked, and the ids that matched nothing (the bulk
 * policy in core/errors.ts: unknown ids are listed, the action applies to the rest).
 */
export async function findSources(db: Db, ids: string[]): Promise<{ rows: SourceRow[]; notFound: string[] }> {
  const found = await db.selectFrom('sources').selectAll().where('id', 'in', ids).execute();
  const byId = new Map(found.map((r) => [r.id, r]));
  return { rows: ids.flatMap((id) => byId.get(id) ?? []), notFound: ids.filter((id) => !byId.has(id)) };
}

/** What makes a new source; the rest of its row is that of a source never polled. */
export interface NewSourceRow {
  id: string;
  type: SourceType;
  label: string;
  url: string | null;
  notes: string | null;
  pollIntervalMinutes: number | null;
  includeKeywords: string[];
  excludeKeywords: string[];
  filePath: string | null;
  createdAt: string;
  /** An imported source whose imported signals are newer than it. */
  lastSignalAt?: string | null;
}

/** The whole row of a new source, spelled once: feeds and files wait for their first poll or import; manual ones take pushes at once. */
export function newSourceRow(s: NewSourceRow): Insertable<SourceTable> {
  return {
    id: s.id,
    type: s.type,
    label: s.label,
    url: s.url,
    notes: s.notes,
    status: s.type === 'manual' ? 'connected' : 'pending',
    pausedAt: null,
    pausedUntilAt: null,
    pollIntervalMinutes: s.pollIntervalMinutes,
    includeKeywords: JSON.stringify(s.includeKeywords),
    excludeKeywords: JSON.stringify(s.excludeKeywords),
    lastSyncedAt: null,
    lastPolledAt: null,
    lastErrorMessage: null,
    lastSignalAt: s.lastSignalAt ?? null,
    consecutiveFailures: 0,
    nextRetryAt: null,
    etag: null,
    lastModified: null,
    quietnessAckedAt: null,
    quietnessWarnedAt: null,
    createdAt: s.createdAt,
    updatedAt: s.createdAt,
    filePath: s.filePath,
  };
}

/** Rows per multi-row insert: 24 columns each stay far below SQLite's bound on parameters. */
const INSERT_CHUNK = 200;

/** Inserts source rows (newSourceRow's, or a fixture's with explicit ids and states). */
export async function insertSources(trx: Trx, rows: Insertable<SourceTable>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) await trx.insertInto('sources').values(rows.slice(i, i + INSERT_CHUNK)).execute();
}

/** Sets columns of one source (its state changes: polls, pauses, acks, configuration). */
export async function updateSource(trx: Trx, id: string, change: Updateable<SourceTable>): Promise<void> {
  await trx.updateTable('sources').set(change).where('id', '=', id).execute();
}

export async function deleteSourceRow(trx: Trx, id: string): Promise<void> {
  await trx.deleteFrom('sources').where('id', '=', id).execute();
}

const hash = (value: string) => crypto.createHash('sha256').update(value).digest('base64url').slice(0, 32);

/** Dedupe key of a file record: its externalId, else title + sourceUrl. */
export function fileRecordKey(externalId: string | undefined, title: string, sourceUrl: string | null): string {
  return externalId ? `ext:${hash(externalId)}` : `ts:${hash(`${title}\n${sourceUrl ?? ''}`)}`;
}

export interface IngestItem {
  key: string;
  title: string;
  detail: string;
  sourceUrl: string | null;
  kind: SignalKind;
  priority: SignalPriority;
  /** The item's own publication time (feeds), when it gives one. */
  publishedAt?: string | null;
}

export interface IngestResult {
  created: number;
  signalIds: string[];
  /** Items seen before (in an earlier poll or import, or twice in this batch). */
  duplicates: number;
  /** New items kept out by the source's keyword filters. */
  filtered: number;
}

const CHUNK = 400;

/**
 * Turns new items of a source into signals inside the caller's transaction: items already seen
 * are skipped, keyword filters applied, every new key remembered (filtered ones too, so a
 * filter applies to items as they arrive), and one `signal.received` activity row written per signal.
 */
/** A fresh signal names this source: its lastSignalAt, and the end of any quietness acknowledgement or warning. */
export const stampFreshSignal: FreshSignalStamp = async (trx, sourceId, at) => {
  await trx.updateTable('sources').set({ lastSignalAt: at, quietnessAckedAt: null, quietnessWarnedAt: null }).where('id', '=', sourceId).execute();
};

export async function ingestItems(trx: Trx, clock: Clock, source: SourceRow, items: IngestItem[], actor: Actor): Promise<IngestResult> {
  const include = JSON.parse(source.includeKeywords) as string[];
  const exclude = JSON.parse(source.excludeKeywords) as string[];
  const seen = new Set<string>();
  const keys = [...new Set(items.map((i) => i.key))];
  for (let i = 0; i < keys.length; i += CHUNK) {
    const rows = await trx
      .selectFrom('feedItemsSeen')
      .select('itemKey')
      .where('sourceId', '=', source.id)
      .where('itemKey', 'in', keys.slice(i, i + CHUNK))
      .execute();
    rows.forEach((r) => seen.add(r.itemKey));
  }
  const now = clock.now().toISOString();
  const result: IngestResult = { created: 0, signalIds: [], duplicates: 0, filtered: 0 };
  for (const item of items) {
    if (seen.has(item.key)) {
      result.duplicates += 1;
      continue;
    }
    seen.add(item.key);
    await trx.insertInto('feedItemsSeen').values({ sourceId: source.id, itemKey: item.key, seenAt: now }).onConflict((oc) => oc.doNothing()).execute();
    if (!passesKeywords(`${item.title}\n${item.detail}`, include, exclude)) {
      result.filtered += 1;
      continue;
    }
    const id = await insertSignal(trx, clock, {
      kind: item.kind,
      priority: item.priority,
      title: item.title,
      detail: item.detail,
      sourceUrl: item.sourceUrl,
      sourceId: source.id,
      origin: source.type === 'file' ? 'file' : 'feed',
      publishedAt: item.publishedAt ?? null,
    }, stampFreshSignal);
    await recordActivity(trx, clock, {
      kind: 'signal.received',
      detail: `Signal from ${source.label}: ${item.title}`,
      actor,
      entityType: 'signal',
      entityId: id,
    });
    result.created += 1;
    result.signalIds.push(id);
  }
  return result;
}

/** Keys of items no longer in a feed for this long are forgotten (keys still in the feed are refreshed each poll). */
export const SEEN_RETENTION_MS = 90 * DAY_MS;

/** Refreshes the keys a feed still lists and forgets the ones it dropped long ago, keeping the table bounded. */
export async function refreshSeen(trx: Trx, clock: Clock, sourceId: string, keys: string[]): Promise<void> {
  const now = clock.now();
  for (let i = 0; i < keys.length; i += CHUNK) {
    await trx
      .updateTable('feedItemsSeen')
      .set({ seenAt: now.toISOString() })
      .where('sourceId', '=', sourceId)
      .where('itemKey', 'in', keys.slice(i, i + CHUNK))
      .execute();
  }
  await trx
    .deleteFrom('feedItemsSeen')
    .where('sourceId', '=', sourceId)
    .where('seenAt', '<', new Date(now.getTime() - SEEN_RETENTION_MS).toISOString())
    .execute();
}
