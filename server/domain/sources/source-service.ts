import { inTransaction } from '../../../db/transactions';
import type { ActivityKind } from '../catalog/activity-kinds';
import path from 'node:path';
import type { Db } from '../../../db/connection';
import { DAY_MS, HOUR_MS, type Clock } from '../../core/clock';
import { conflict, DeskError, invalid } from '../../core/errors';
import { newId } from '../../core/ids';
import { FeedError } from '../../integrations/feeds/feed-error';
import { fetchFeed, type FetchFeedOptions } from '../../integrations/feeds/fetch-feed';
import { clip } from '../../integrations/feeds/html-text';
import { parseFeedText } from '../../integrations/feeds/parse-feed';
import { recordActivity, SYSTEM_ACTOR, type Actor } from '../activity/activity';
import { emit } from '../events/outbox';
import type { WorkspaceService } from '../workspace/workspace-service';
import { checkRange, checkScheduledPause } from '../workspace/rules';
import {
  checkIds,
  checkLabel,
  checkNotes,
  checkPollInterval,
  checkSourceUrl,
  checkStatus,
  checkType,
  effectiveInterval,
  isFeedType,
  MAX_LABEL_CHARS,
  normaliseKeywords,
  pollGating,
  QUIETNESS_ACK_DAYS,
  QUIETNESS_ACK_MS,
  QUIETNESS_MAX_FLOOR_DAYS,
  quietnessAckActive,
  quietnessFloorMs,
  replaceInLabel,
  type PollGating,
  type SourceStatusChange,
  type SourceType,
} from './rules';
import { getSource, getSources, toView, type Cadence, type SourceRow, type SourceView } from './source-store';
import { loadFile, recordImport, type FileImportResult, type PollOutcome, type SourceSync } from './source-sync';

export interface CreateSourceInput {
  type: string;
  label: string;
  url?: string | null;
  notes?: string | null;
  pollIntervalMinutes?: number | null;
  includeKeywords?: string[];
  excludeKeywords?: string[];
}

export interface CreatedSource extends SourceView {
  /** What the first import of a file source brought in; null for other types. */
  import: FileImportResult | null;
}

export interface SourcePatch {
  status?: SourceStatusChange;
  label?: string;
  pollIntervalMinutes?: number | null;
}

export interface SourceList {
  sources: SourceView[];
  /** All sources in the workspace (the list holds at most `limit`). */
  total: number;
}

export interface PreviewItem {
  title: string;
  detail: string;
  link: string | null;
  publishedAt: string | null;
}

export interface SourcePreview {
  url: string;
  type: SourceType;
  /** rss, atom, rdf, json (JSON Feed), csv or json (signal file). */
  format: string;
  title: string | null;
  itemCount: number;
  /** Up to 5 items as they would become signals (detail cut to 280 characters). */
  sample: PreviewItem[];
}

export type BulkAction = 'pause' | 'resume' | 'delete';

export interface BulkResult {
  action: BulkAction;
  /** Sources the action changed. */
  changed: string[];
  /** Sources already in the asked state (pause of a paused source, resume of a running one). */
  unchanged: string[];
}

export interface BulkCadenceResult {
  pollIntervalMinutes: number | null;
  /** Feed sources whose interval changed. */
  updated: string[];
  /** Feed sources that already had this interval. */
  unchanged: string[];
}

export interface RenameMatch {
  sourceId: string;
  oldLabel: string;
  newLabel: string;
}

export interface RenameSkip extends RenameMatch {
  reason: string;
}

export interface BulkRenameResult {
  preview: boolean;
  /** Renames applied (or, with preview, that would be applied). */
  matches: RenameMatch[];
  /** Matches left alone because the new label would be empty or longer than 80 characters. */
  skipped: RenameSkip[];
}

export interface CadenceRow extends PollGating {
  sourceId: string;
  label: string;
  type: SourceType;
  paused: boolean;
}

export interface CadenceOverview {
  /** The workspace's effective loop interval: the cadence of sources without their own interval. */
  workspaceCadenceMinutes: number;
  /** The plan's floor: no source is polled more often than this. */
  planFloorMinutes: number;
  plan: string;
  /** Feed sources, soonest due first; paused sources without an end come last. */
  perSource: CadenceRow[];
}

export interface QuietSource {
  sourceId: string;
  label: string;
  type: SourceType;
  intervalMinutes: number;
  lastSyncedAt: string | null;
  lastSignalAt: string | null;
  /** Last signal, or when the source was added if it never produced one. */
  quietSince: string;
  quietForDays: number;
  /** This source's floor: 14 days, or 2x its cadence when longer, at most 90. */
  floorDays: number;
  acked: boolean;
  quietnessAckedAt: string | null;
  quietnessAckExpiresAt: string | null;
}

export interface QuietnessReport {
  /** The workspace cadence: the effective loop interval, already at least the plan floor. */
  workspaceCadenceMinutes: number;
  /** The plan's floor under every cadence (free 15, pro 5, team 1 minutes). */
  planFloorMinutes: number;
  /** The quietness floor at the workspace cadence (sources with their own interval may have a longer one). */
  cadenceFloorDays: number;
  maxFloorDays: number;
  ackDays: number;
  /** Quiet feeds, unacknowledged first, then the longest quiet first. Acknowledged ones stay listed with their ack. */
  sources: QuietSource[];
}

export interface QuietnessAckResult {
  sources: SourceView[];
  /** Sources whose ack this call set (ack) or revoked (unack); one event each. */
  changed: string[];
}

export interface ScheduledPauseRow {
  sourceId: string;
  label: string;
  type: SourceType;
  pausedUntilAt: string;
  /** Hours until the source resumes, one decimal. */
  hoursUntilResume: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Sources: configuration, pauses, cadence, quietness. Every change writes activity (and events) in its transaction. */
export class SourceService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly workspace: WorkspaceService,
    private readonly sync: SourceSync,
    private readonly fetchOptions: Pick<FetchFeedOptions, 'timeoutMs' | 'maxBytes'> = {},
  ) {}

  private async cadence(): Promise<Cadence> {
    const p = await this.workspace.profile();
    return { workspaceCadence: p.effectiveLoopIntervalMinutes, planFloor: p.planFloorMinutes, now: this.clock.now() };
  }

  /** Inside a transaction pass the cadence read before it: the one SQLite connection is held by the transaction. */
  private async view(id: string, db: Db = this.db, c?: Cadence): Promise<SourceView> {
    return toView(await getSource(db, id), c ?? (await this.cadence()));
  }

  async list(limit = 50): Promise<SourceList> {
    checkRange('limit', limit, 1, 200);
    const c = await this.cadence();
    const rows = await this.db.selectFrom('sources').selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(limit).execute();
    const { n } = await this.db.selectFrom('sources').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { sources: rows.map((r) => toView(r, c)), total: Number(n) };
  }

  async get(id: string): Promise<SourceView> {
    return this.view(id);
  }

  async create(input: CreateSourceInput): Promise<CreatedSource> {
    const type = checkType(input.type);
    const label = checkLabel(input.label);
    const url = checkSourceUrl(type, input.url);
    const notes = checkNotes(input.notes);
    const pollIntervalMinutes = checkPollInterval(input.pollIntervalMinutes ?? null);
    if (pollIntervalMinutes !== null && !isFeedType(type)) throw invalid('pollIntervalMinutes', `applies to feed sources only, not ${type}`);
    const include = normaliseKeywords(input.includeKeywords, 'includeKeywords');
    const exclude = normaliseKeywords(input.excludeKeywords, 'excludeKeywords');
    if (url !== null && type !== 'manual') {
      const same = await this.db.selectFrom('sources').select('id').where('type', '=', type).where('url', '=', url).executeTakeFirst();
      if (same) throw conflict('source_exists', `Source ${same.id} already reads ${url}`);
    }
    // A file source is read before anything is written: an unreadable file rejects the request.
    const file = type === 'file' ? await loadFile(url!) : null;
    const actor = await this.workspace.ownerActor();
    const c = await this.cadence();
    return inTransaction(this.db, async (trx) => {
      const now = this.clock.now().toISOString();
      const id = newId('src', this.clock);
      await trx
        .insertInto('sources')
        .values({
          id,
          type,
          label,
          url,
          notes,
          status: type === 'manual' ? 'connected' : 'pending',
          pausedAt: null,
          pausedUntilAt: null,
          pollIntervalMinutes,
          includeKeywords: JSON.stringify(include),
          excludeKeywords: JSON.stringify(exclude),
          lastSyncedAt: null,
          lastPolledAt: null,
          lastErrorMessage: null,
          lastSignalAt: null,
          consecutiveFailures: 0,
          nextRetryAt: null,
          etag: null,
          lastModified: null,
          quietnessAckedAt: null,
          quietnessWarnedAt: null,
          createdAt: now,
          updatedAt: now,
        })
        .execute();
      await recordActivity(trx, this.clock, {
        kind: 'source.created',
        detail: `Source ${label} (${type}${url ? `, ${url}` : ''}) added`,
        actor,
        entityType: 'source',
        entityId: id,
      });
      const imported = file ? await recordImport(trx, this.clock, await getSource(trx, id), file, actor) : null;
      return { ...(await this.view(id, trx, c)), import: imported };
    });
  }

  /**
   * One change per request: status, label or pollIntervalMinutes (null = workspace cadence).
   * The spec has pause and resume use `{ status }`: `paused` pauses indefinitely (as bulk pause
   * does, replacing a scheduled pause) and keeps the stored status; `connected` on a paused source
   * resumes it (as the schedule expiry sweep does). `pending` and `error` leave a pause alone.
   */
  async update(id: string, patch: SourcePatch): Promise<SourceView> {
    const given = (['status', 'label', 'pollIntervalMinutes'] as const).filter((k) => patch[k] !== undefined);
    if (given.length === 0) throw invalid('body', 'must set exactly one of status, label or pollIntervalMinutes');
    if (given.length > 1) {
      const message = `only one of ${given.join(', ')} may be set per request`;
      throw new DeskError(422, 'validation_failed', `PATCH /sources/{id} takes exactly one field: ${message}`, given.map((field) => ({ field, message })));
    }
    const row = await getSource(this.db, id);
    const actor = await this.workspace.ownerActor();
    let change: Partial<SourceRow>;
    let activity: { kind: ActivityKind; detail: string };
    if (patch.status !== undefined) {
      const status = checkStatus(patch.status);
      if (status === 'paused') {
        change = { pausedAt: row.pausedAt ?? this.clock.now().toISOString(), pausedUntilAt: null };
        activity = { kind: 'source.paused', detail: `Source ${row.label} paused` };
      } else if (status === 'connected' && row.pausedAt !== null) {
        change = { status, pausedAt: null, pausedUntilAt: null };
        activity = { kind: 'source.resumed', detail: `Source ${row.label} resumed (status set to connected)` };
      } else {
        change = { status };
        activity = { kind: 'source.status', detail: `Status of ${row.label} set to ${status}` };
      }
    } else if (patch.label !== undefined) {
      const label = checkLabel(patch.label);
      change = { label };
      activity = { kind: 'source.renamed', detail: `Source ${row.label} renamed to ${label}` };
    } else {
      const minutes = checkPollInterval(patch.pollIntervalMinutes ?? null);
      if (!isFeedType(row.type)) throw invalid('pollIntervalMinutes', `applies to feed sources only; ${row.label} is a ${row.type} source`);
      change = { pollIntervalMinutes: minutes };
      activity = {
        kind: 'source.cadence',
        detail: minutes === null ? `${row.label} follows the workspace cadence` : `${row.label} polls every ${minutes} minutes`,
      };
    }
    return this.applyChange(row, change, { ...activity, actor });
  }

  private async applyChange(row: SourceRow, change: Partial<SourceRow>, activity: { kind: ActivityKind; detail: string; actor: Actor }): Promise<SourceView> {
    const changed = Object.entries(change).some(([k, v]) => row[k as keyof SourceRow] !== v);
    const c = await this.cadence();
    if (!changed) return this.view(row.id, this.db, c);
    return inTransaction(this.db, async (trx) => {
      await trx.updateTable('sources').set({ ...change, updatedAt: this.clock.now().toISOString() }).where('id', '=', row.id).execute();
      await recordActivity(trx, this.clock, { ...activity, entityType: 'source', entityId: row.id });
      return this.view(row.id, trx, c);
    });
  }

  /** Replaces both keyword lists; they apply to items that arrive from now on. */
  async setKeywords(id: string, includeKeywords: string[], excludeKeywords: string[]): Promise<SourceView> {
    const include = normaliseKeywords(includeKeywords, 'includeKeywords');
    const exclude = normaliseKeywords(excludeKeywords, 'excludeKeywords');
    const row = await getSource(this.db, id);
    const describe = (l: string[]) => (l.length ? l.join(', ') : 'none');
    return this.applyChange(
      row,
      { includeKeywords: JSON.stringify(include), excludeKeywords: JSON.stringify(exclude) },
      { kind: 'source.keywords', detail: `Keywords of ${row.label}: include ${describe(include)}; exclude ${describe(exclude)}`, actor: await this.workspace.ownerActor() },
    );
  }

  /** Fetches and parses a feed (or reads a signal file) without saving anything. */
  async preview(url: string, type: string = 'rss'): Promise<SourcePreview> {
    const sourceType = checkType(type);
    if (sourceType === 'manual') throw invalid('type', 'manual sources have no feed or file to preview');
    const location = checkSourceUrl(sourceType, url)!;
    if (sourceType === 'file') {
      const file = await loadFile(location);
      return {
        url: location,
        type: sourceType,
        format: file.format,
        title: path.basename(location),
        itemCount: file.items.length,
        sample: file.items.slice(0, 5).map((i) => ({ title: i.title, detail: clip(i.detail, 280), link: i.sourceUrl, publishedAt: null })),
      };
    }
    try {
      const fetched = await fetchFeed(location, this.fetchOptions);
      if (fetched.notModified) throw new FeedError('feed_http_error', 'The server answered 304 Not Modified to an unconditional request');
      const feed = parseFeedText(fetched.text);
      return {
        url: location,
        type: sourceType,
        format: feed.format,
        title: feed.title,
        itemCount: feed.items.length,
        sample: feed.items.slice(0, 5).map((i) => ({ title: i.title, detail: clip(i.detail, 280), link: i.link, publishedAt: i.publishedAt })),
      };
    } catch (err) {
      if (err instanceof FeedError) throw new DeskError(422, err.code, err.message, [{ field: 'url', message: err.message }]);
      throw err;
    }
  }

  /** Polls one feed source now, whether due or not. Paused sources are refused (409). */
  async pollNow(id: string): Promise<{ outcome: PollOutcome; source: SourceView }> {
    const row = await getSource(this.db, id);
    if (!isFeedType(row.type)) throw conflict('wrong_source_type', `${row.label} is a ${row.type} source; only feed sources are polled`);
    if (row.pausedAt !== null) throw conflict('source_paused', `${row.label} is paused; resume it first`);
    const outcome = await this.sync.pollNow(id);
    return { outcome, source: await this.view(id) };
  }

  async importFile(id: string): Promise<FileImportResult> {
    return this.sync.importFile(id, await this.workspace.ownerActor());
  }

  /**
   * Bulk pause (indefinite: it replaces a scheduled pause), resume (clears any pause) or delete.
   * Every id must exist, or nothing changes.
   */
  async bulk(action: BulkAction, sourceIds: string[]): Promise<BulkResult> {
    if (!['pause', 'resume', 'delete'].includes(action)) throw invalid('action', 'must be pause, resume or delete');
    const ids = checkIds(sourceIds);
    const actor = await this.workspace.ownerActor();
    return inTransaction(this.db, async (trx) => {
      const rows = await getSources(trx, ids);
      const now = this.clock.now().toISOString();
      const result: BulkResult = { action, changed: [], unchanged: [] };
      for (const row of rows) {
        if (action === 'delete') {
          await trx.deleteFrom('sources').where('id', '=', row.id).execute();
          await recordActivity(trx, this.clock, { kind: 'source.deleted', detail: `Source ${row.label} (${row.type}) deleted`, actor, entityType: 'source', entityId: row.id });
        } else if (action === 'pause') {
          if (row.pausedAt !== null && row.pausedUntilAt === null) {
            result.unchanged.push(row.id);
            continue;
          }
          await trx.updateTable('sources').set({ pausedAt: row.pausedAt ?? now, pausedUntilAt: null, updatedAt: now }).where('id', '=', row.id).execute();
          await recordActivity(trx, this.clock, { kind: 'source.paused', detail: `Source ${row.label} paused`, actor, entityType: 'source', entityId: row.id });
        } else {
          if (row.pausedAt === null) {
            result.unchanged.push(row.id);
            continue;
          }
          await trx.updateTable('sources').set({ pausedAt: null, pausedUntilAt: null, updatedAt: now }).where('id', '=', row.id).execute();
          await recordActivity(trx, this.clock, { kind: 'source.resumed', detail: `Source ${row.label} resumed`, actor, entityType: 'source', entityId: row.id });
        }
        result.changed.push(row.id);
      }
      return result;
    });
  }

  /** Sets one interval on many feed sources (all of them when no ids); manual and file sources are skipped silently. */
  async bulkCadence(pollIntervalMinutes: number | null, sourceIds?: string[]): Promise<BulkCadenceResult> {
    const minutes = checkPollInterval(pollIntervalMinutes);
    const ids = sourceIds === undefined ? undefined : checkIds(sourceIds);
    const actor = await this.workspace.ownerActor();
    return inTransaction(this.db, async (trx) => {
      const rows = ids ? await getSources(trx, ids) : await trx.selectFrom('sources').selectAll().orderBy('createdAt').execute();
      const now = this.clock.now().toISOString();
      const result: BulkCadenceResult = { pollIntervalMinutes: minutes, updated: [], unchanged: [] };
      for (const row of rows) {
        if (!isFeedType(row.type)) continue;
        if (row.pollIntervalMinutes === minutes) {
          result.unchanged.push(row.id);
          continue;
        }
        await trx.updateTable('sources').set({ pollIntervalMinutes: minutes, updatedAt: now }).where('id', '=', row.id).execute();
        await recordActivity(trx, this.clock, {
          kind: 'source.cadence',
          detail: minutes === null ? `${row.label} follows the workspace cadence` : `${row.label} polls every ${minutes} minutes`,
          actor,
          entityType: 'source',
          entityId: row.id,
        });
        result.updated.push(row.id);
      }
      return result;
    });
  }

  /**
   * Literal find/replace in labels (all sources when no ids). A rename that would leave a label
   * empty or longer than 80 characters is skipped and reported; the others are applied.
   */
  async bulkRename(input: { findText: string; replaceText: string; sourceIds?: string[]; caseSensitive?: boolean; preview?: boolean }): Promise<BulkRenameResult> {
    if (typeof input.findText !== 'string' || input.findText.length === 0) throw invalid('findText', 'must not be empty');
    if (input.findText.length > MAX_LABEL_CHARS) throw invalid('findText', `must be at most ${MAX_LABEL_CHARS} characters`);
    if (typeof input.replaceText !== 'string') throw invalid('replaceText', 'must be a string (empty removes the text)');
    if (input.replaceText.length > MAX_LABEL_CHARS) throw invalid('replaceText', `must be at most ${MAX_LABEL_CHARS} characters`);
    const ids = input.sourceIds === undefined ? undefined : checkIds(input.sourceIds);
    const preview = input.preview ?? false;
    const actor = await this.workspace.ownerActor();
    return inTransaction(this.db, async (trx) => {
      const rows = ids ? await getSources(trx, ids) : await trx.selectFrom('sources').selectAll().orderBy('createdAt').execute();
      const result: BulkRenameResult = { preview, matches: [], skipped: [] };
      const now = this.clock.now().toISOString();
      for (const row of rows) {
        const newLabel = replaceInLabel(row.label, input.findText, input.replaceText, input.caseSensitive ?? false).trim();
        if (newLabel === row.label) continue;
        const match = { sourceId: row.id, oldLabel: row.label, newLabel };
        if (newLabel.length === 0 || newLabel.length > MAX_LABEL_CHARS) {
          result.skipped.push({ ...match, reason: newLabel.length === 0 ? 'the label would be empty' : `the label would be longer than ${MAX_LABEL_CHARS} characters` });
          continue;
        }
        result.matches.push(match);
        if (preview) continue;
        await trx.updateTable('sources').set({ label: newLabel, updatedAt: now }).where('id', '=', row.id).execute();
        await recordActivity(trx, this.clock, { kind: 'source.renamed', detail: `Source ${row.label} renamed to ${newLabel}`, actor, entityType: 'source', entityId: row.id });
      }
      return result;
    });
  }

  async cadenceOverview(): Promise<CadenceOverview> {
    const p = await this.workspace.profile();
    const now = this.clock.now();
    const rows = await this.db.selectFrom('sources').selectAll().where('type', 'in', ['rss', 'review_site', 'linkedin']).execute();
    const perSource = rows
      .map((r) => ({ sourceId: r.id, label: r.label, type: r.type as SourceType, paused: r.pausedAt !== null, ...pollGating(r, p.effectiveLoopIntervalMinutes, p.planFloorMinutes, now)! }))
      .sort((a, b) => {
        if (a.nextPollAt === b.nextPollAt) return a.label.localeCompare(b.label);
        if (a.nextPollAt === null) return 1;
        if (b.nextPollAt === null) return -1;
        return a.nextPollAt.localeCompare(b.nextPollAt);
      });
    return { workspaceCadenceMinutes: p.effectiveLoopIntervalMinutes, planFloorMinutes: p.planFloorMinutes, plan: p.plan, perSource };
  }

  /**
   * Feeds whose polls succeed (at least one did and the last one did), are not paused, and produced
   * no signal beyond their floor. A feed whose polls fail is not quiet but broken: it shows as
   * status `error` with lastErrorMessage instead, and comes back here once a poll succeeds.
   */
  private async quietRows(db: Db, c: Cadence): Promise<{ row: SourceRow; quiet: QuietSource }[]> {
    const rows = await db
      .selectFrom('sources')
      .selectAll()
      .where('type', 'in', ['rss', 'review_site', 'linkedin'])
      .where('lastSyncedAt', 'is not', null)
      .where('consecutiveFailures', '=', 0)
      .where('pausedAt', 'is', null)
      .execute();
    const now = c.now.getTime();
    const out: { row: SourceRow; quiet: QuietSource }[] = [];
    for (const row of rows) {
      const intervalMinutes = effectiveInterval(row.pollIntervalMinutes, c.workspaceCadence, c.planFloor);
      const floor = quietnessFloorMs(intervalMinutes);
      const quietSince = row.lastSignalAt ?? row.createdAt;
      const quietMs = now - new Date(quietSince).getTime();
      if (quietMs <= floor) continue;
      const acked = quietnessAckActive(row.quietnessAckedAt, c.now);
      out.push({
        row,
        quiet: {
          sourceId: row.id,
          label: row.label,
          type: row.type as SourceType,
          intervalMinutes,
          lastSyncedAt: row.lastSyncedAt,
          lastSignalAt: row.lastSignalAt,
          quietSince,
          quietForDays: Math.floor(quietMs / DAY_MS),
          floorDays: round2(floor / DAY_MS),
          acked,
          quietnessAckedAt: acked ? row.quietnessAckedAt : null,
          quietnessAckExpiresAt: acked ? new Date(new Date(row.quietnessAckedAt!).getTime() + QUIETNESS_ACK_MS).toISOString() : null,
        },
      });
    }
    return out;
  }

  async quietness(): Promise<QuietnessReport> {
    const c = await this.cadence();
    const rows = (await this.quietRows(this.db, c)).map((r) => r.quiet);
    rows.sort((a, b) => Number(a.acked) - Number(b.acked) || a.quietSince.localeCompare(b.quietSince) || a.label.localeCompare(b.label));
    return {
      workspaceCadenceMinutes: c.workspaceCadence,
      planFloorMinutes: c.planFloor,
      cadenceFloorDays: round2(quietnessFloorMs(effectiveInterval(null, c.workspaceCadence, c.planFloor)) / DAY_MS),
      maxFloorDays: QUIETNESS_MAX_FLOOR_DAYS,
      ackDays: QUIETNESS_ACK_DAYS,
      sources: rows,
    };
  }

  private checkFeedSources(rows: SourceRow[], field: (i: number) => string): void {
    rows.forEach((row, i) => {
      if (!isFeedType(row.type)) throw invalid(field(i), `${row.label} is a ${row.type} source; quietness applies to feed sources only`);
    });
  }

  /**
   * Mutes the quietness alarm of feed sources for 7 days (whether quiet now or not); a fresh
   * signal ends it sooner. Acking again restarts the 7 days. One event per acked source.
   */
  async ackQuietness(sourceIds: string[], field = 'sourceIds'): Promise<QuietnessAckResult> {
    const ids = checkIds(sourceIds, field);
    const actor = await this.workspace.ownerActor();
    const c = await this.cadence();
    return inTransaction(this.db, async (trx) => {
      const rows = await getSources(trx, ids);
      this.checkFeedSources(rows, (i) => (field === 'sourceId' ? field : `${field}[${i}]`));
      const now = this.clock.now();
      const at = now.toISOString();
      const expiresAt = new Date(now.getTime() + QUIETNESS_ACK_MS).toISOString();
      for (const row of rows) {
        await trx.updateTable('sources').set({ quietnessAckedAt: at, updatedAt: at }).where('id', '=', row.id).execute();
        await recordActivity(trx, this.clock, {
          kind: 'source.quietness_acked',
          detail: `Quietness alarm of ${row.label} muted until ${expiresAt}`,
          actor,
          entityType: 'source',
          entityId: row.id,
        });
        await emit(trx, this.clock, 'source.quietness_acked', { sourceId: row.id, label: row.label, quietnessAckedAt: at, expiresAt });
      }
      return { sources: (await getSources(trx, ids)).map((r) => toView(r, c)), changed: ids };
    });
  }

  /** Revokes acks early; sources without a holding ack are silent no-ops (no event, no activity). */
  async unackQuietness(sourceIds: string[], field = 'sourceIds'): Promise<QuietnessAckResult> {
    const ids = checkIds(sourceIds, field);
    const actor = await this.workspace.ownerActor();
    const c = await this.cadence();
    return inTransaction(this.db, async (trx) => {
      const rows = await getSources(trx, ids);
      const now = this.clock.now();
      const changed: string[] = [];
      for (const row of rows) {
        if (!quietnessAckActive(row.quietnessAckedAt, now)) continue;
        await trx.updateTable('sources').set({ quietnessAckedAt: null, updatedAt: now.toISOString() }).where('id', '=', row.id).execute();
        await recordActivity(trx, this.clock, { kind: 'source.quietness_unacked', detail: `Quietness alarm of ${row.label} unmuted`, actor, entityType: 'source', entityId: row.id });
        await emit(trx, this.clock, 'source.quietness_unacked', { sourceId: row.id, label: row.label });
        changed.push(row.id);
      }
      return { sources: (await getSources(trx, ids)).map((r) => toView(r, c)), changed };
    });
  }

  /**
   * Scheduler job: one `source.quietness_warning` per quiet period of each quiet feed, skipped
   * while an ack holds. A fresh signal starts a new period (insertSignal clears the stamp);
   * an ack that ran out with the source still quiet warns once more.
   */
  async warnQuietSources(): Promise<string[]> {
    const c = await this.cadence();
    const warned: string[] = [];
    await inTransaction(this.db, async (trx) => {
      for (const { row, quiet } of await this.quietRows(trx, c)) {
        if (quiet.acked) continue;
        const warnedAt = row.quietnessWarnedAt;
        if (warnedAt !== null && !(row.quietnessAckedAt !== null && warnedAt <= row.quietnessAckedAt)) continue;
        await trx.updateTable('sources').set({ quietnessWarnedAt: c.now.toISOString() }).where('id', '=', row.id).execute();
        await recordActivity(trx, this.clock, {
          kind: 'source.quietness_warning',
          detail: `${row.label} has produced no signal for ${quiet.quietForDays} days (floor ${quiet.floorDays} days)`,
          actor: SYSTEM_ACTOR,
          entityType: 'source',
          entityId: row.id,
        });
        await emit(trx, this.clock, 'source.quietness_warning', {
          sourceId: row.id,
          label: row.label,
          quietSince: quiet.quietSince,
          quietForDays: quiet.quietForDays,
          floorDays: quiet.floorDays,
        });
        warned.push(row.id);
      }
    });
    return warned;
  }

  /**
   * Pauses a source until a time (future, at most 14 days ahead); it resumes by itself then.
   * Null clears any pause and resumes at once.
   */
  async setPauseUntil(id: string, pausedUntilAt: string | null): Promise<SourceView> {
    const now = this.clock.now();
    // A date alone is the start of that day in the workspace timezone, as for the workspace pause.
    const at = pausedUntilAt === null ? null : checkScheduledPause('pausedUntilAt', pausedUntilAt, now, (await this.workspace.profile()).timezone);
    const row = await getSource(this.db, id);
    const actor = await this.workspace.ownerActor();
    if (at === null) {
      if (row.pausedAt === null && row.pausedUntilAt === null) return this.view(id);
      return this.applyChange(row, { pausedAt: null, pausedUntilAt: null }, { kind: 'source.resumed', detail: `Source ${row.label} resumed; pause cleared`, actor });
    }
    return this.applyChange(
      row,
      { pausedAt: row.pausedAt ?? now.toISOString(), pausedUntilAt: at },
      { kind: 'source.pause_scheduled', detail: `Source ${row.label} paused until ${at}`, actor },
    );
  }

  async scheduledPaused(): Promise<{ sources: ScheduledPauseRow[] }> {
    const now = this.clock.now().getTime();
    const rows = await this.db
      .selectFrom('sources')
      .select(['id', 'label', 'type', 'pausedUntilAt'])
      .where('pausedUntilAt', 'is not', null)
      .orderBy('pausedUntilAt')
      .orderBy('id')
      .execute();
    return {
      sources: rows.map((r) => ({
        sourceId: r.id,
        label: r.label,
        type: r.type as SourceType,
        pausedUntilAt: r.pausedUntilAt!,
        hoursUntilResume: Math.max(0, Math.round(((new Date(r.pausedUntilAt!).getTime() - now) / HOUR_MS) * 10) / 10),
      })),
    };
  }

  /** Scheduler job: resumes sources whose scheduled pause has run out; they become connected. */
  async resumeExpiredPauses(): Promise<string[]> {
    const nowIso = this.clock.now().toISOString();
    return inTransaction(this.db, async (trx) => {
      const rows = await trx.selectFrom('sources').selectAll().where('pausedUntilAt', 'is not', null).where('pausedUntilAt', '<=', nowIso).execute();
      for (const row of rows) {
        await trx.updateTable('sources').set({ pausedAt: null, pausedUntilAt: null, status: 'connected', updatedAt: nowIso }).where('id', '=', row.id).execute();
        await recordActivity(trx, this.clock, {
          kind: 'source.resumed',
          detail: `Scheduled pause of ${row.label} until ${row.pausedUntilAt} ended; source resumed`,
          actor: SYSTEM_ACTOR,
          entityType: 'source',
          entityId: row.id,
        });
      }
      return rows.map((r) => r.id);
    });
  }
}
