import { Body, Controller, Get, Patch, Path, Post, Put, Query, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import type { SourceStatusChange, SourceType } from '../../domain/sources/rules';
import type { BulkAction, BulkCadenceResult, BulkRenameResult, BulkResult } from '../../domain/sources/source-bulk';
import type { CadenceOverview } from '../../domain/sources/source-cadence';
import type { CreatedSource, PollNowResult, SourceList, SourcePreview } from '../../domain/sources/source-crud';
import type { ScheduledPauseRow } from '../../domain/sources/source-pauses';
import type { QuietnessAckResult, QuietnessReport } from '../../domain/sources/source-quietness';
import type { SourceView } from '../../domain/sources/source-store';
import type { FileImportResult } from '../../domain/sources/source-sync';
import type { SourceCostTrajectory } from '../../domain/cost/cost-views';
import type { Services } from '../../services';

export interface CreateSourceBody {
  /**
   * `rss`, `review_site`, `linkedin`: feed-style, polled on their cadence; url required (http or https,
   * RSS 2.0, Atom or JSON Feed). `manual`: never polled, signals come from POST /signals or the inbound
   * webhook; url optional. `file`: url is an absolute path or file:// URL of a .csv or .json file with
   * the fields title (required), detail, kind, priority, sourceUrl, externalId; imported once now (an
   * unreadable file rejects the request) and again with POST /sources/{id}/import; never polled.
   */
  type: SourceType;
  label: string;
  url?: string | null;
  notes?: string | null;
  /**
   * Own poll interval (feed types only); null or omitted = workspace cadence. The plan floor applies on top.
   * @isInt
   */
  pollIntervalMinutes?: number | null;
  /**
   * Only items whose title or detail contains one of these (case-insensitive) become signals; empty = all.
   * At most 20, each 1-60 characters.
   */
  includeKeywords?: string[];
  /**
   * Items whose title or detail contains one of these never become signals; exclude wins over include.
   * At most 20, each 1-60 characters.
   */
  excludeKeywords?: string[];
}

export interface SourcePatchBody {
  /**
   * Exactly one of status, label, pollIntervalMinutes per request. Pause and resume use status:
   * `paused` pauses the source indefinitely (like bulk pause; a scheduled pause becomes indefinite)
   * and keeps its stored status; `connected` on a paused source resumes it (clears pausedAt and
   * pausedUntilAt) and keeps its stored status too, which the next poll sets. On a running source
   * `connected`, `pending` and `error` set the status; `pending` and `error` leave a pause alone.
   */
  status?: SourceStatusChange;
  label?: string;
  /**
   * Feed types only; null reverts to the workspace cadence.
   * @isInt
   */
  pollIntervalMinutes?: number | null;
}

export interface KeywordsBody {
  /**
   * Case-insensitive substrings matched over title + detail; empty = every item passes. At most 20, each 1-60 characters.
   */
  includeKeywords: string[];
  /**
   * An item matching any of these is dropped, even if it matches an include keyword. At most 20, each 1-60 characters.
   */
  excludeKeywords: string[];
}

export interface PreviewBody {
  url: string;
  /** Default `rss` (any feed type parses RSS, Atom and JSON Feed); `file` previews a local .csv or .json file. */
  type?: SourceType;
}

export interface BulkBody {
  action: BulkAction;
  sourceIds: string[];
}

export interface BulkCadenceBody {
  /**
   * null reverts to the workspace cadence.
   * @isInt
   */
  pollIntervalMinutes: number | null;
  /**
   * Omitted = every feed source in the workspace.
   */
  sourceIds?: string[];
}

export interface BulkRenameBody {
  /**
   * Literal text to find (not a pattern).
   */
  findText: string;
  /**
   * Literal replacement; empty removes the found text.
   */
  replaceText: string;
  /**
   * Omitted = every source.
   */
  sourceIds?: string[];
  /** Default false. */
  caseSensitive?: boolean;
  /** true: report what would change, change nothing. */
  preview?: boolean;
}

export interface SourceIdsBody {
  sourceIds: string[];
}

export interface SourcePauseUntilBody {
  /**
   * In the future and at most 14 days ahead: pauses the source now and resumes it then. null clears any pause and resumes now.
   * A date without a time (`2026-03-20`) means the start of that day in the workspace timezone.
   * @example "2026-03-20T09:00:00Z"
   */
  pausedUntilAt: string | null;
}

/**
 * Sources of signals. States: `status` is pending (added, not yet polled), connected (last poll or
 * import worked) or error (last poll failed: see lastErrorMessage; retries back off as
 * min(interval x 2^failures, 24 h)). Pausing is kept apart from that health status: `paused` with
 * `pausedAt`, and `pausedUntilAt` for a scheduled pause; PATCH `{ status: 'paused' }` pauses and
 * `{ status: 'connected' }` resumes. Every pause and resume (by hand, in bulk, or a scheduled pause
 * running out) is one transition: it changes only the pause, never the health status. Paused sources
 * are not polled. Every change is written to the activity log; each signal a source brings in gets
 * its own `signal.received` activity row. Events: `source.created`, `source.deleted`,
 * `source.paused`, `source.resumed`, `source.errored` (the failed poll that moves a source into
 * `error`), `source.recovered` (its first successful poll after that), `source.connected` (a new feed's first
 * successful poll) and the quietness events.
 */
@Route('api/v1/sources')
@Tags('Sources')
@Security('bearer')
export class SourcesController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /**
   * Sources, newest first, with pollIntervalMinutes and pollGating (null for manual and file sources).
   * A page holds at most `limit`; pass `nextCursor` as `cursor` for the next one (null on the last page).
   * @param limit sources per page
   * @isInt limit must be an integer
   * @param cursor `nextCursor` of the previous page, as it was served
   */
  @Get()
  public async listSources(@Query() limit = 50, @Query() cursor?: string): Promise<SourceList> {
    return this.s.sources.list({ limit, cursor });
  }

  /**
   * Adds a source. Feed sources start `pending` and are polled within a minute, importing the feed's
   * current items; a file source is imported now (the response carries the import result); manual
   * sources start `connected`. The same type and url twice is a 409; file sources are one per file
   * however its path is spelled (`/a/x.csv`, `file:///a/x.csv`, `/a/./x.csv` are one file), also
   * under concurrent requests. Emits `source.created`.
   */
  @Post()
  @SuccessResponse(201, 'Created')
  @Response<ErrorBody>('409', '`source_exists`: a source of this type already reads this url (for file sources: this file, however spelled); nothing was created')
  public async createSource(@Body() body: CreateSourceBody): Promise<CreatedSource> {
    const created = await this.s.sources.create(body);
    this.setStatus(201);
    return created;
  }

  /**
   * Fetches and parses a feed (or reads a signal file) synchronously without saving anything: its
   * title, item count and up to 5 items. Failures answer 422 with error `feed_unreachable`,
   * `feed_timeout` (10 s), `feed_http_error`, `feed_too_large` (5 MB), `not_a_feed`,
   * `file_unreadable` or `file_invalid`.
   */
  @Post('preview')
  public async previewSource(@Body() body: PreviewBody): Promise<SourcePreview> {
    return this.s.sources.preview(body.url, body.type);
  }

  /**
   * Bulk pause, resume or delete of 1-50 sources, under the bulk policy (see the API description):
   * unknown ids are listed in `notFound` and the action applies to the others; `affected` counts
   * the sources changed. Pause is indefinite and replaces a scheduled pause (`source.paused`);
   * resume clears any pause and keeps the health status (`source.resumed`); delete keeps the
   * source's signals (`source.deleted`).
   */
  @Post('bulk')
  public async bulkSourceAction(@Body() body: BulkBody): Promise<BulkResult> {
    return this.s.sources.bulk(body.action, body.sourceIds);
  }

  /**
   * Sets the poll interval of many feed sources (every feed without sourceIds). Under the bulk
   * policy: named manual and file sources are left alone and listed in `skipped`, unknown ids in `notFound`.
   */
  @Post('bulk-cadence')
  public async bulkSourceCadence(@Body() body: BulkCadenceBody): Promise<BulkCadenceResult> {
    return this.s.sources.bulkCadence(body.pollIntervalMinutes, body.sourceIds);
  }

  /**
   * Find and replace in labels (all sources without sourceIds). The result is trimmed; a rename
   * that would leave a label empty or longer than 80 characters is not applied and is listed in
   * `skipped`, the others are applied. preview: true changes nothing. Unknown ids are listed in
   * `notFound` (the bulk policy).
   */
  @Post('bulk-rename')
  public async bulkRenameSources(@Body() body: BulkRenameBody): Promise<BulkRenameResult> {
    return this.s.sources.bulkRename(body);
  }

  /** Workspace cadence, plan floor, and every feed source's gating, soonest due first. */
  @Get('cadence-overview')
  public async sourceCadenceOverview(): Promise<CadenceOverview> {
    return this.s.sources.cadenceOverview();
  }

  /**
   * Feeds whose polls succeed (not paused, last poll not failed) but produced no signal for longer than
   * their floor: 14 days, or 2x the source's cadence if greater, capped at 90 days. Acknowledged
   * sources stay listed with `acked: true` and their ack times, after the unacknowledged ones.
   * The report also gives the workspace cadence, the plan floor under it, and the quietness floor
   * at that cadence (`cadenceFloorDays`). A signal pushed through the inbound webhook with a
   * `sourceId` counts as fresh signal from that source.
   */
  @Get('quietness')
  public async sourceQuietness(): Promise<QuietnessReport> {
    return this.s.sources.quietness();
  }

  /**
   * Mutes the quietness alarm of 1-50 feed sources for 7 days; one `source.quietness_acked` event per
   * source. Bulk policy: manual and file sources are listed in `skipped`, unknown ids in `notFound`.
   */
  @Post('quietness-ack/bulk')
  public async sourceQuietnessAckBulk(@Body() body: SourceIdsBody): Promise<QuietnessAckResult> {
    return this.s.sources.ackQuietness(body.sourceIds);
  }

  /**
   * Revokes quietness acks early; sources without an ack are silent no-ops; one `source.quietness_unacked`
   * event per revoked ack. Bulk policy: manual and file sources in `skipped`, unknown ids in `notFound`.
   */
  @Post('quietness-unack/bulk')
  public async sourceQuietnessUnackBulk(@Body() body: SourceIdsBody): Promise<QuietnessAckResult> {
    return this.s.sources.unackQuietness(body.sourceIds);
  }

  /** Sources with a scheduled pause, soonest resume first. */
  @Get('scheduled-paused')
  public async scheduledPausedSources(): Promise<{ sources: ScheduledPauseRow[] }> {
    return this.s.sources.scheduledPaused();
  }

  /**
   * The source's daily tokens and cost, oldest first, today last, one point per workspace-timezone
   * day (zero-filled): each cycle splits a task's cost equally across the sources of its signals.
   * @param days window in workspace days, today included
   * @isInt days must be an integer
   */
  @Get('{id}/cost-trajectory')
  @Response<ErrorBody>('422', 'days is out of bounds')
  public async getSourceCostTrajectory(@Path() id: string, @Query() days = 7): Promise<SourceCostTrajectory> {
    return this.s.cost.sourceTrajectory(id, days);
  }

  @Get('{id}')
  public async getSource(@Path() id: string): Promise<SourceView> {
    return this.s.sources.get(id);
  }

  /**
   * Changes exactly one of status, label (1-80) or pollIntervalMinutes (1-1440, or null for the
   * workspace cadence) per request; zero or several fields is a 422. pollIntervalMinutes on a
   * manual or file source is a 409 `wrong_source_type`.
   * `{ status: 'paused' }` pauses (activity and event `source.paused`); `{ status: 'connected' }` on
   * a paused source resumes it (activity and event `source.resumed`) and keeps its health status
   * (a failing feed stays `error` until a poll succeeds); other status changes log `source.status`.
   */
  @Patch('{id}')
  @Response<ErrorBody>('409', '`wrong_source_type`: pollIntervalMinutes on a source that is not a feed; nothing changed')
  public async updateSource(@Path() id: string, @Body() body: SourcePatchBody): Promise<SourceView> {
    return this.s.sources.update(id, body);
  }

  /**
   * Replaces the include and exclude keyword lists. They apply to items that arrive from now on
   * (items filtered out earlier are not fetched again).
   */
  @Put('{id}/keywords')
  public async setSourceKeywords(@Path() id: string, @Body() body: KeywordsBody): Promise<SourceView> {
    return this.s.sources.setKeywords(id, body.includeKeywords, body.excludeKeywords);
  }

  /**
   * Schedules a pause (future, at most 14 days ahead; event `source.paused` with pausedUntilAt) or,
   * with null, clears any pause and resumes (`source.resumed`), keeping the health status.
   */
  @Patch('{sourceId}/pause-until')
  public async setSourcePauseUntil(@Path() sourceId: string, @Body() body: SourcePauseUntilBody): Promise<SourceView> {
    return this.s.sources.setPauseUntil(sourceId, body.pausedUntilAt);
  }

  /**
   * Mutes this feed source's quietness alarm for 7 days (ended sooner by a fresh signal); emits
   * `source.quietness_acked`. 409 `wrong_source_type` for a manual or file source.
   */
  @Post('{sourceId}/quietness-ack')
  @Response<ErrorBody>('409', '`wrong_source_type`: quietness applies to feed sources only; nothing changed')
  public async sourceQuietnessAck(@Path() sourceId: string): Promise<SourceView> {
    return this.s.sources.ackQuietnessOne(sourceId);
  }

  /**
   * Revokes the ack early and emits `source.quietness_unacked`; without an ack it is a silent no-op.
   * 409 `wrong_source_type` for a manual or file source.
   */
  @Post('{sourceId}/quietness-unack')
  @Response<ErrorBody>('409', '`wrong_source_type`: quietness applies to feed sources only; nothing changed')
  public async sourceQuietnessUnack(@Path() sourceId: string): Promise<SourceView> {
    return this.s.sources.unackQuietnessOne(sourceId);
  }

  /**
   * File sources: reads the file again and imports records not imported before (dedupe by
   * externalId, else title + sourceUrl). Invalid records are skipped and reported. 409
   * `wrong_source_type` for other types.
   */
  @Post('{id}/import')
  @Response<ErrorBody>('409', '`wrong_source_type`: only file sources import files; nothing changed')
  public async importSourceFile(@Path() id: string): Promise<FileImportResult> {
    return this.s.sources.importFile(id);
  }

  /**
   * Feed sources: polls now, due or not (409 `source_paused` when paused, `wrong_source_type` when
   * not a feed). One poll per source runs at a time: when one is already under way (the first poll
   * of a feed just added, a scheduled poll, or an earlier "Poll now"), this request waits for it and
   * answers its outcome instead of fetching the feed a second time, so a failure is counted once.
   * The scheduled poll round skips a source that is being polled.
   */
  @Post('{id}/poll')
  @Response<ErrorBody>('409', '`source_paused` or `wrong_source_type`; nothing was polled')
  public async pollSourceNow(@Path() id: string): Promise<PollNowResult> {
    return this.s.sources.pollNow(id);
  }
}
