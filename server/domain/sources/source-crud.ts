import path from 'node:path';
import type { Db } from '../../../db/connection';
import { inTransaction } from '../../../db/transactions';
import { conflict, DeskError, invalid } from '../../core/errors';
import { newId } from '../../core/ids';
import { afterKey, pageRequest, toPage, type CursorKey } from '../../core/lists';
import { FeedError } from '../../integrations/feeds/feed-error';
import { filePathKey } from '../../integrations/feeds/file-import';
import { fetchFeed, type FetchFeedOptions } from '../../integrations/feeds/fetch-feed';
import { clip } from '../../integrations/feeds/html-text';
import { parseFeedText } from '../../integrations/feeds/parse-feed';
import { recordActivity } from '../activity/activity';
import { emit } from '../events/outbox';
import { resolveActor } from '../members/resolve-actor';
import {
  checkLabel,
  checkNotes,
  checkPollInterval,
  checkSourceUrl,
  checkStatus,
  checkType,
  isFeedType,
  normaliseKeywords,
  SOURCE_LIST,
  wrongSourceType,
  type SourceStatusChange,
  type SourceType,
} from './rules';
import { readCadence, readView, type SourceDeps } from './source-context';
import { getSource, insertSources, newSourceRow, toView, type SourceView } from './source-store';
import { loadFile, recordImport, type FileImportResult, type PollOutcome, type SourceSync } from './source-sync';
import { cadenceDetail, changeSource, pauseSource, resumeSource } from './source-transitions';

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
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
  /** All sources in the workspace (a page holds at most `limit`). */
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

export interface PollNowResult {
  outcome: PollOutcome;
  source: SourceView;
}

/** The page query of GET /sources: newest first on the sources_created index (exported for the plan test). */
export function sourceListQuery(db: Db, limit: number, after?: CursorKey) {
  let q = db.selectFrom('sources').selectAll();
  if (after) q = q.where(afterKey(['sources.created_at', 'sources.id'], after, 'desc'));
  return q.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(limit + 1);
}

/** Sources one at a time: list, read, add, change, keywords, preview, poll now, import. */
export class SourceCrud {
  constructor(
    private readonly d: SourceDeps,
    private readonly sync: SourceSync,
    /** Called after a feed source is committed, so the poller can fetch it now (wired to the scheduler in start.ts). */
    private readonly onFeedAdded: (sourceId: string) => void = () => {},
    private readonly fetchOptions: Pick<FetchFeedOptions, 'timeoutMs' | 'maxBytes'> = {},
  ) {}

  async list(query: { limit?: number; cursor?: string } = {}): Promise<SourceList> {
    const { limit, after } = pageRequest(SOURCE_LIST, query, 2);
    const c = await readCadence(this.d);
    const page = toPage(await sourceListQuery(this.d.db, limit, after).execute(), limit, (r) => [r.createdAt, r.id]);
    const { n } = await this.d.db.selectFrom('sources').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { sources: page.rows.map((r) => toView(r, c)), nextCursor: page.nextCursor, total: Number(n) };
  }

  async get(id: string): Promise<SourceView> {
    return readView(this.d, id);
  }

  async create(input: CreateSourceInput): Promise<CreatedSource> {
    const { db, clock } = this.d;
    const type = checkType(input.type);
    const label = checkLabel(input.label);
    const url = checkSourceUrl(type, input.url);
    const notes = checkNotes(input.notes);
    const pollIntervalMinutes = checkPollInterval(input.pollIntervalMinutes ?? null);
    // A field of the request that cannot apply to the type it names: fixing the request fixes it (422).
    if (pollIntervalMinutes !== null && !isFeedType(type)) throw invalid('pollIntervalMinutes', `applies to feed sources only, not ${type}`);
    const include = normaliseKeywords(input.includeKeywords, 'includeKeywords');
    const exclude = normaliseKeywords(input.excludeKeywords, 'excludeKeywords');
    // A file source is read before anything is written: an unreadable file rejects the request.
    const file = type === 'file' ? await loadFile(url!) : null;
    // File sources are one per file, however its path is spelled (the unique index sources_file_path).
    const filePath = type === 'file' ? filePathKey(url!) : null;
    const created = await inTransaction(db, async (trx) => {
      if (filePath !== null) {
        const same = await trx.selectFrom('sources').select(['id', 'url']).where('type', '=', 'file').where('filePath', '=', filePath).executeTakeFirst();
        if (same) throw conflict('source_exists', `Source ${same.id} already reads ${filePath}${same.url === url ? '' : ` (as ${same.url})`}`);
      } else if (url !== null && type !== 'manual') {
        const same = await trx.selectFrom('sources').select('id').where('type', '=', type).where('url', '=', url).executeTakeFirst();
        if (same) throw conflict('source_exists', `Source ${same.id} already reads ${url}`);
      }
      const actor = await resolveActor(trx);
      const now = clock.now().toISOString();
      const id = newId('src', clock);
      await insertSources(trx, [newSourceRow({ id, type, label, url, notes, pollIntervalMinutes, includeKeywords: include, excludeKeywords: exclude, filePath, createdAt: now })]);
      await recordActivity(trx, clock, {
        kind: 'source.created',
        detail: `Source ${label} (${type}${url ? `, ${url}` : ''}) added`,
        actor,
        entityType: 'source',
        entityId: id,
      });
      await emit(trx, clock, 'source.created', { sourceId: id, label, type });
      const imported = file ? await recordImport(trx, clock, await getSource(trx, id), file, actor) : null;
      return { ...(await readView(this.d, id, trx)), import: imported };
    });
    // After commit: a user who adds a feed expects its items now, not at the next poll round.
    if (isFeedType(type)) this.onFeedAdded(created.id);
    return created;
  }

  /**
   * One change per request: status, label or pollIntervalMinutes (null = workspace cadence).
   * The spec has pause and resume use `{ status }`: `paused` pauses indefinitely and `connected`
   * on a paused source resumes, both through the one pause/resume transition (so a resumed feed
   * keeps the health status its polls gave it). Otherwise `status` sets the health status as given.
   */
  async update(id: string, patch: SourcePatch): Promise<SourceView> {
    const given = (['status', 'label', 'pollIntervalMinutes'] as const).filter((k) => patch[k] !== undefined);
    if (given.length === 0) throw invalid('body', 'must set exactly one of status, label or pollIntervalMinutes');
    if (given.length > 1) {
      const message = `only one of ${given.join(', ')} may be set per request`;
      throw new DeskError(422, 'validation_failed', `PATCH /sources/{id} takes exactly one field: ${message}`, given.map((field) => ({ field, message })));
    }
    const status = patch.status === undefined ? undefined : checkStatus(patch.status);
    const label = patch.label === undefined ? undefined : checkLabel(patch.label);
    const minutes = patch.pollIntervalMinutes === undefined ? undefined : checkPollInterval(patch.pollIntervalMinutes);
    const { db, clock } = this.d;
    return inTransaction(db, async (trx) => {
      const row = await getSource(trx, id);
      const actor = await resolveActor(trx);
      if (status === 'paused') await pauseSource(trx, clock, row, null, actor);
      else if (status === 'connected' && row.pausedAt !== null) await resumeSource(trx, clock, row, actor, 'by hand');
      else if (status !== undefined) await changeSource(trx, clock, row, { status }, { kind: 'source.status', detail: `Status of ${row.label} set to ${status}`, actor });
      else if (label !== undefined) await changeSource(trx, clock, row, { label }, { kind: 'source.renamed', detail: `Source ${row.label} renamed to ${label}`, actor });
      else {
        if (!isFeedType(row.type)) throw wrongSourceType(row, 'pollIntervalMinutes applies to feed sources only');
        await changeSource(trx, clock, row, { pollIntervalMinutes: minutes }, { kind: 'source.cadence', detail: cadenceDetail(row.label, minutes ?? null), actor });
      }
      return readView(this.d, id, trx);
    });
  }

  /** Replaces both keyword lists; they apply to items that arrive from now on. */
  async setKeywords(id: string, includeKeywords: string[], excludeKeywords: string[]): Promise<SourceView> {
    const include = normaliseKeywords(includeKeywords, 'includeKeywords');
    const exclude = normaliseKeywords(excludeKeywords, 'excludeKeywords');
    const describe = (l: string[]) => (l.length ? l.join(', ') : 'none');
    return inTransaction(this.d.db, async (trx) => {
      const row = await getSource(trx, id);
      await changeSource(
        trx,
        this.d.clock,
        row,
        { includeKeywords: JSON.stringify(include), excludeKeywords: JSON.stringify(exclude) },
        { kind: 'source.keywords', detail: `Keywords of ${row.label}: include ${describe(include)}; exclude ${describe(exclude)}`, actor: await resolveActor(trx) },
      );
      return readView(this.d, id, trx);
    });
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
      const feed = await parseFeedText(fetched.text);
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

  /** Polls one feed source now, whether due or not: 409 for a paused source or one that is not a feed. */
  async pollNow(id: string): Promise<PollNowResult> {
    const row = await getSource(this.d.db, id);
    if (!isFeedType(row.type)) throw wrongSourceType(row, 'only feed sources are polled');
    if (row.pausedAt !== null) throw conflict('source_paused', `${row.label} is paused; resume it first`);
    const outcome = await this.sync.pollNow(id);
    return { outcome, source: await readView(this.d, id) };
  }

  /** File sources: imports the file again (409 `wrong_source_type` for other types). */
  async importFile(id: string): Promise<FileImportResult> {
    return this.sync.importFile(id, await resolveActor(this.d.db));
  }
}
