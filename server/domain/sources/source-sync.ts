import { inTransaction, type Trx } from '../../../db/transactions';
import type { Db } from '../../../db/connection';
import type { Clock } from '../../core/clock';
import { DeskError } from '../../core/errors';
import { emit } from '../events/outbox';
import { FeedError } from '../../integrations/feeds/feed-error';
import { fetchFeed, type FetchFeedOptions } from '../../integrations/feeds/fetch-feed';
import { readSignalFile, type FileRecord } from '../../integrations/feeds/file-import';
import { parseFeedText, type FeedItem } from '../../integrations/feeds/parse-feed';
import { recordActivity, SYSTEM_ACTOR, type Actor } from '../activity/activity';
import { SIGNAL_KINDS, SIGNAL_PRIORITIES, type SignalKind, type SignalPriority } from '../signals/signal-store';
import { MAX_DETAIL_LENGTH, MAX_EXTERNAL_ID_LENGTH, MAX_TITLE_LENGTH } from '../signals/signal-rules';
import type { WorkspaceService } from '../workspace/workspace-service';
import { checkHttpUrl } from '../../core/input';
import { spikePausedSourceIds } from '../cost-guard/pauses';
import { backoffMs, effectiveInterval, FEED_TYPES, isFeedType, pollGating, wrongSourceType } from './rules';
import {
  fileRecordKey,
  findSource,
  getSource,
  ingestItems,
  refreshSeen,
  updateSource,
  type IngestItem,
  type IngestResult,
  type SourceRow,
} from './source-store';

/** Signal kind of feed items by source type (feeds carry no kind of their own). */
const FEED_KIND: Record<string, SignalKind> = { rss: 'news', review_site: 'review', linkedin: 'mention' };
/** A file record without a kind. */
export const FILE_DEFAULT_KIND: SignalKind = 'other';

/** At most this many due feeds are polled per run (the rest next run), this many at once: with the 10 s timeout a run never blocks the scheduler for long. */
export const POLL_BATCH = 24;
const POLL_CONCURRENCY = 6;
const MAX_ERROR_CHARS = 500;

export interface PollOutcome {
  sourceId: string;
  /** ok: polled (with or without new items); failed: fetch or parse failed; skipped: paused or deleted meanwhile. */
  result: 'ok' | 'failed' | 'skipped';
  notModified: boolean;
  created: number;
  duplicates: number;
  filtered: number;
  error: string | null;
}

const EMPTY_OUTCOME: PollOutcome = { sourceId: '', result: 'ok', notModified: false, created: 0, duplicates: 0, filtered: 0, error: null };

export interface InvalidRecord {
  row: number;
  message: string;
}

export interface FileImportResult {
  sourceId: string;
  format: 'csv' | 'json';
  records: number;
  imported: number;
  duplicates: number;
  filtered: number;
  /** Records that could not become signals (first 50), with why. */
  invalid: InvalidRecord[];
  invalidCount: number;
}

export function feedItemsToIngest(type: string, items: FeedItem[]): IngestItem[] {
  const kind = FEED_KIND[type] ?? 'news';
  return items.map((i) => ({ key: i.key, title: i.title, detail: i.detail, sourceUrl: i.link, kind, priority: 'normal', publishedAt: i.publishedAt }));
}

/** Checks each file record with the limits of POST /signals; good ones become items, bad ones are reported by record number. */
export function fileRecordsToIngest(records: FileRecord[]): { items: IngestItem[]; invalid: InvalidRecord[] } {
  const items: IngestItem[] = [];
  const invalid: InvalidRecord[] = [];
  for (const { row, values } of records) {
    const title = values.title?.trim() ?? '';
    const detail = values.detail?.trim() ?? '';
    const kind = (values.kind?.trim().toLowerCase() || FILE_DEFAULT_KIND) as SignalKind;
    const priority = (values.priority?.trim().toLowerCase() || 'normal') as SignalPriority;
    const externalId = values.externalId?.trim() || undefined;
    let sourceUrl: string | null = values.sourceUrl?.trim() || null;
    let problem: string | null = null;
    if (!title) problem = 'title is required';
    else if (title.length > MAX_TITLE_LENGTH) problem = `title must be at most ${MAX_TITLE_LENGTH} characters`;
    else if (detail.length > MAX_DETAIL_LENGTH) problem = `detail must be at most ${MAX_DETAIL_LENGTH} characters`;
    else if (!SIGNAL_KINDS.includes(kind)) problem = `kind must be one of ${SIGNAL_KINDS.join(', ')}`;
    else if (!SIGNAL_PRIORITIES.includes(priority)) problem = `priority must be one of ${SIGNAL_PRIORITIES.join(', ')}`;
    else if (externalId && externalId.length > MAX_EXTERNAL_ID_LENGTH) problem = `externalId must be at most ${MAX_EXTERNAL_ID_LENGTH} characters`;
    else if (sourceUrl) {
      try {
        sourceUrl = checkHttpUrl('sourceUrl', sourceUrl);
      } catch {
        problem = 'sourceUrl must be an http or https URL';
      }
    }
    if (problem) invalid.push({ row, message: problem });
    else items.push({ key: fileRecordKey(externalId, title, sourceUrl), title, detail, sourceUrl, kind, priority });
  }
  return { items, invalid };
}

/** A file read and checked before any transaction; FeedErrors become 422 naming `field`. */
export async function loadFile(location: string, field = 'url') {
  try {
    const parsed = await readSignalFile(location);
    return { format: parsed.format, records: parsed.records.length, ...fileRecordsToIngest(parsed.records) };
  } catch (err) {
    if (err instanceof FeedError) throw new DeskError(422, err.code, err.message, [{ field, message: err.message }]);
    throw err;
  }
}

export function importSummary(sourceId: string, file: Awaited<ReturnType<typeof loadFile>>, r: IngestResult): FileImportResult {
  return {
    sourceId,
    format: file.format,
    records: file.records,
    imported: r.created,
    duplicates: r.duplicates,
    filtered: r.filtered,
    invalid: file.invalid.slice(0, 50),
    invalidCount: file.invalid.length,
  };
}

export async function recordImport(trx: Trx, clock: Clock, source: SourceRow, file: Awaited<ReturnType<typeof loadFile>>, actor: Actor) {
  const r = await ingestItems(trx, clock, source, file.items, actor);
  const now = clock.now().toISOString();
  await updateSource(trx, source.id, { status: 'connected', lastSyncedAt: now, lastPolledAt: now, lastErrorMessage: null, consecutiveFailures: 0, nextRetryAt: null, updatedAt: now });
  await recordActivity(trx, clock, {
    kind: 'source.imported',
    detail: `Imported ${source.label}: ${r.created} new signals from ${file.records} records (${r.duplicates} already imported, ${r.filtered} filtered, ${file.invalid.length} invalid)`,
    actor,
    entityType: 'source',
    entityId: source.id,
  });
  return importSummary(source.id, file, r);
}

/**
 * Brings signals in from sources: polls feed-style sources when due (conditional GET, parse,
 * dedupe, keyword filters, backoff on failure) and imports files on demand.
 */
export class SourceSync {
  /** Polls under way, by source id: one at a time per source (a "poll now" joins, a scheduled round skips). */
  private readonly polling = new Map<string, Promise<PollOutcome>>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly workspace: WorkspaceService,
    private readonly fetchOptions: Pick<FetchFeedOptions, 'timeoutMs' | 'maxBytes'> = {},
  ) {}

  /** Scheduler job body: polls every feed source that is due (not paused, not spike-paused), soonest due first. */
  async pollDue(): Promise<PollOutcome[]> {
    const profile = await this.workspace.profile();
    const now = this.clock.now();
    const rows = await this.rewindPolls(await this.db.selectFrom('sources').selectAll().where('type', 'in', FEED_TYPES).where('pausedAt', 'is', null).execute(), now);
    // A source a cost spike paused (issue 12) waits for its acknowledgement.
    const spikePaused = await spikePausedSourceIds(this.db, profile);
    const due = rows
      .filter((row) => !spikePaused.has(row.id))
      .map((row) => ({ row, gating: pollGating(row, profile.effectiveLoopIntervalMinutes, profile.planFloorMinutes, now)! }))
      .filter((d) => d.gating.isDueNow && !this.polling.has(d.row.id))
      .sort((a, b) => a.gating.nextPollAt!.localeCompare(b.gating.nextPollAt!))
      .slice(0, POLL_BATCH);
    const outcomes: PollOutcome[] = [];
    for (let i = 0; i < due.length; i += POLL_CONCURRENCY) {
      const batch = due.slice(i, i + POLL_CONCURRENCY);
      // A source being polled ("poll now") is skipped; one whose poll ended since the rows were read
      // is read again and polled only if still due, so no round polls a source twice.
      const started = batch.flatMap((d) => this.singleFlight(d.row.id, () => this.pollIfStillDue(d.row.id, profile)) ?? []);
      outcomes.push(...(await Promise.all(started)));
    }
    return outcomes;
  }

  /**
   * Sources polled later than the clock now reads (it went back): measured as they are, none would
   * be polled again until the clock caught up. Each last poll moves back to now, and a pending retry
   * with it, so the next poll comes one interval (or the same backoff) after the jump.
   */
  private async rewindPolls(rows: SourceRow[], now: Date): Promise<SourceRow[]> {
    const at = now.toISOString();
    const ahead = rows.filter((r) => r.lastPolledAt !== null && r.lastPolledAt > at);
    if (ahead.length === 0) return rows;
    const moved = new Map<string, SourceRow>();
    for (const r of ahead) {
      const shift = Date.parse(r.lastPolledAt!) - now.getTime();
      const nextRetryAt = r.nextRetryAt === null ? null : new Date(Date.parse(r.nextRetryAt) - shift).toISOString();
      moved.set(r.id, { ...r, lastPolledAt: at, nextRetryAt });
    }
    await inTransaction(this.db, async (trx) => {
      for (const r of moved.values()) await updateSource(trx, r.id, { lastPolledAt: r.lastPolledAt, nextRetryAt: r.nextRetryAt });
    });
    return rows.map((r) => moved.get(r.id) ?? r);
  }

  /**
   * Polls one feed source now, due or not ("poll now"); paused sources are refused by the caller.
   * While a poll of the source is under way (the first poll of a new feed, a scheduled round or
   * another "poll now"), the call joins it and answers its outcome: one fetch, one failure counted.
   */
  pollNow(sourceId: string): Promise<PollOutcome> {
    const running = this.polling.get(sourceId);
    // A scheduled round that found the source no longer due skips it: then poll it after all.
    if (running) return running.then((o) => (o.result === 'skipped' ? this.pollNow(sourceId) : o));
    return this.singleFlight(sourceId, async () => {
      const row = await getSource(this.db, sourceId);
      const profile = await this.workspace.profile();
      return this.poll(row, effectiveInterval(row.pollIntervalMinutes, profile.effectiveLoopIntervalMinutes, profile.planFloorMinutes));
    })!;
  }

  private async pollIfStillDue(sourceId: string, profile: { effectiveLoopIntervalMinutes: number; planFloorMinutes: number }): Promise<PollOutcome> {
    const row = await findSource(this.db, sourceId);
    const gating = row && row.pausedAt === null ? pollGating(row, profile.effectiveLoopIntervalMinutes, profile.planFloorMinutes, this.clock.now()) : null;
    if (!row || !gating?.isDueNow) return { ...EMPTY_OUTCOME, sourceId, result: 'skipped' };
    return this.poll(row, gating.intervalMinutes);
  }

  /**
   * Starts `run` as the one poll of the source, registered before `run` starts so any call after
   * this one sees it; null (nothing started) when a poll is already under way.
   */
  private singleFlight(sourceId: string, run: () => Promise<PollOutcome>): Promise<PollOutcome> | null {
    if (this.polling.has(sourceId)) return null;
    const promise = Promise.resolve()
      .then(run)
      .finally(() => this.polling.delete(sourceId));
    this.polling.set(sourceId, promise);
    return promise;
  }

  private async poll(row: SourceRow, intervalMinutes: number): Promise<PollOutcome> {
    const outcome: PollOutcome = { ...EMPTY_OUTCOME, sourceId: row.id };
    // The network exchange happens outside any transaction: SQLite has one writer.
    let fetched: Awaited<ReturnType<typeof fetchFeed>> | null = null;
    let items: FeedItem[] = [];
    let failure: string | null = null;
    try {
      if (!row.url || !isFeedType(row.type)) throw new FeedError('feed_unreachable', 'The source has no feed URL');
      fetched = await fetchFeed(row.url, { etag: row.etag, lastModified: row.lastModified, ...this.fetchOptions });
      if (!fetched.notModified) items = (await parseFeedText(fetched.text)).items;
    } catch (err) {
      failure = err instanceof FeedError ? err.message : `Unexpected error: ${err instanceof Error ? err.message : String(err)}`;
    }

    return inTransaction(this.db, async (trx) => {
      const current = await findSource(trx, row.id);
      if (!current || current.pausedAt !== null) return { ...outcome, result: 'skipped' as const };
      const now = this.clock.now();
      const nowIso = now.toISOString();
      if (failure !== null || fetched === null) {
        const failures = current.consecutiveFailures + 1;
        const nextRetryAt = new Date(now.getTime() + backoffMs(intervalMinutes, failures)).toISOString();
        const message = (failure ?? 'unknown failure').slice(0, MAX_ERROR_CHARS);
        await updateSource(trx, current.id, { status: 'error', lastPolledAt: nowIso, lastErrorMessage: message, consecutiveFailures: failures, nextRetryAt, updatedAt: nowIso });
        await recordActivity(trx, this.clock, {
          kind: 'source.poll_failed',
          detail: `Polling ${current.label} failed (${failures} in a row): ${message}. Next try at ${nextRetryAt}`,
          actor: SYSTEM_ACTOR,
          entityType: 'source',
          entityId: current.id,
        });
        // Subscribers hear of the failure that breaks a source, not of every retry after it.
        if (current.status !== 'error') {
          await emit(trx, this.clock, 'source.errored', { sourceId: current.id, label: current.label, message, consecutiveFailures: failures, nextRetryAt });
        }
        return { ...outcome, result: 'failed' as const, error: message };
      }

      let ingest: IngestResult = { created: 0, signalIds: [], duplicates: 0, filtered: 0 };
      if (!fetched.notModified) {
        ingest = await ingestItems(trx, this.clock, current, feedItemsToIngest(current.type, items), SYSTEM_ACTOR);
        await refreshSeen(trx, this.clock, current.id, items.map((i) => i.key));
      }
      await updateSource(trx, current.id, {
        status: 'connected',
        lastPolledAt: nowIso,
        lastSyncedAt: nowIso,
        lastErrorMessage: null,
        consecutiveFailures: 0,
        nextRetryAt: null,
        ...(fetched.notModified ? {} : { etag: fetched.etag, lastModified: fetched.lastModified }),
        updatedAt: nowIso,
      });
      if (current.status !== 'connected') {
        await recordActivity(trx, this.clock, {
          kind: current.status === 'error' ? 'source.recovered' : 'source.connected',
          detail: current.status === 'error' ? `${current.label} polls again after ${current.consecutiveFailures} failures` : `${current.label} connected: first poll succeeded`,
          actor: SYSTEM_ACTOR,
          entityType: 'source',
          entityId: current.id,
        });
        // Heard even when the poll brought no new item (no signal.created): the source's row leaves `pending`.
        await emit(trx, this.clock, current.status === 'error' ? 'source.recovered' : 'source.connected', { sourceId: current.id, label: current.label });
      }
      if (ingest.created > 0) {
        await recordActivity(trx, this.clock, {
          kind: 'source.polled',
          detail: `Polled ${current.label}: ${ingest.created} new items (${ingest.duplicates} already seen, ${ingest.filtered} filtered out)`,
          actor: SYSTEM_ACTOR,
          entityType: 'source',
          entityId: current.id,
        });
      }
      return { ...outcome, notModified: fetched.notModified, created: ingest.created, duplicates: ingest.duplicates, filtered: ingest.filtered };
    });
  }

  /** Imports a file source's file again; records imported before are skipped (dedupe). */
  async importFile(sourceId: string, actor: Actor): Promise<FileImportResult> {
    const row = await getSource(this.db, sourceId);
    if (row.type !== 'file' || !row.url) throw wrongSourceType(row, 'only file sources import files');
    const file = await loadFile(row.url);
    return inTransaction(this.db, async (trx) => {
      const current = await getSource(trx, sourceId);
      return recordImport(trx, this.clock, current, file, actor);
    });
  }
}
