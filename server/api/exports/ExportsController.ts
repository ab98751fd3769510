import type { Readable } from 'node:stream';
import { Body, Controller, Get, Post, Produces, Query, Response, Route, Security, Tags } from '@tsoa/runtime';
import type { ErrorBody } from '../../core/errors';
import { ACTIVITY_CSV_COLUMNS, type ActivityExport } from '../../domain/exports/activity-export';
import { ARTIFACT_CSV_COLUMNS, type ArtifactsExport } from '../../domain/exports/artifacts-export';
import type { FullExport } from '../../domain/exports/full-export';
import type { ImportReport } from '../../domain/exports/import-service';
import { MEMORY_CSV_COLUMNS, type MemoryExport } from '../../domain/exports/memory-export';
import { SIGNAL_CSV_COLUMNS, type SignalsExport } from '../../domain/exports/signals-export';
import { SOURCE_CSV_COLUMNS, type SourcesExport } from '../../domain/exports/sources-export';
import { STALE_TASK_CSV_COLUMNS, type StaleTasksExport } from '../../domain/exports/stale-tasks-export';
import { TASK_CSV_COLUMNS, type TasksExport } from '../../domain/exports/tasks-export';
import type { CsvColumn } from '../../core/csv';
import { attachmentHeader } from '../../core/csv';
import { exportAnswer, streamedExportAnswer, type ExportFormat } from '../export-answer';
import type { Services } from '../../services';

/** Which categories of the file to import (each defaults to true). */
export interface ImportCategories {
  memory?: boolean;
  signals?: boolean;
  sources?: boolean;
}

export interface ImportBody {
  /**
   * The JSON file GET /workspace/export wrote, as it was written (`format` desk.workspace-export,
   * `version` 1). Its `sources`, `signals` and `memory` are read; everything else in it is ignored.
   * The request body as a whole is limited to 1 MB (413 `body_too_large` beyond): a larger file
   * can be imported by sending only those three collections (the UI does), or in parts.
   */
  data: unknown;
  categories?: ImportCategories;
  /** true: answer the report of what would be added and skipped, and write nothing (the preview). */
  dryRun?: boolean;
}

/**
 * Every list export answers `format=csv` (default; text/csv, RFC 4180, CRLF rows, a header row;
 * cells a spreadsheet would run as a formula, starting with = + - @ tab or CR, are prefixed with
 * a single quote; list cells such as tags and keywords joined with `; `) or `format=json` (the
 * rows as an array with `total` and `capped`). Both are downloads (`Content-Disposition:
 * attachment; filename="<name>.<format>"`) and both carry `X-Export-Total` (rows that matched) and
 * `X-Export-Capped` (`true` when more than the 5000 rows answered matched).
 */
@Route('api/v1/workspace')
@Tags('Exports')
@Security('bearer')
export class ExportsController extends Controller {
  constructor(private readonly s: Services) {
    super();
  }

  /** The small exports (sources, stale tasks) answer from their rows in memory; activity, outputs and memory stream theirs (server/domain/exports/paged.ts). */
  private answer<T, J extends { rows: T[]; total: number; capped: boolean }>(name: string, format: ExportFormat, data: J, columns: readonly CsvColumn<T>[]): J | Readable {
    return exportAnswer(this, name, format, data, { columns, rows: data.rows });
  }

  /**
   * Every source with its health and 7-day signal rate, oldest first, at most 5000. CSV columns:
   * id, type, label, url, notes, status, health (healthy, quiet, pending, error, paused), paused,
   * pausedUntilAt, pollIntervalMinutes (own interval; empty = workspace cadence),
   * effectivePollIntervalMinutes (plan floor applied; empty for manual and file sources),
   * consecutiveFailures, lastErrorMessage, lastSyncedAt, lastSignalAt, includeKeywords,
   * excludeKeywords (`; `-joined), signals7d (signals over the last 7 workspace days, today
   * included), signalsPerDay7d (signals7d / 7), createdAt. JSON: `{ rows, total, capped }` with
   * includeKeywords and excludeKeywords as arrays.
   * @param format csv (default) or json
   */
  @Get('sources-export')
  @Produces('application/json')
  @Produces('text/csv')
  @Response<ErrorBody>('422', 'format is not csv or json')
  public async exportSources(@Query() format: ExportFormat = 'csv'): Promise<SourcesExport | Readable> {
    return this.answer('sources', format, await this.s.exports.sources(), SOURCE_CSV_COLUMNS);
  }

  /**
   * The activity log between `since` and `until` (both inclusive), the 5000 most recent rows of
   * that window, newest first. CSV columns: id, createdAt, kind, detail, actorUserId, actorLabel,
   * entityType, entityId. JSON: `{ rows, total, since, until, capped }` (since null when not given;
   * until is now when not given).
   * @param since ISO 8601 time (a date alone is the start of that workspace day); default: from the first row
   * @param until ISO 8601 time (a date alone is the start of that workspace day); default: now. Not before since.
   * @param format csv (default) or json
   */
  @Get('activity-export')
  @Produces('application/json')
  @Produces('text/csv')
  @Response<ErrorBody>('422', 'since or until is not an ISO time, since is after until, or format is not csv or json')
  public async exportActivity(@Query() since?: string, @Query() until?: string, @Query() format: ExportFormat = 'csv'): Promise<ActivityExport | Readable> {
    return streamedExportAnswer(this, 'activity', format, await this.s.exports.activity({ since, until }), ACTIVITY_CSV_COLUMNS);
  }

  /**
   * Every output (any status), newest first, at most 5000, with its content, downloaded as
   * `outputs.csv` (or `outputs.json`). CSV columns: id,
   * title, kind, status, version, parentArtifactId, taskId, taskTitle, runId, tags (`; `-joined),
   * pinned, reviewOwnerId, reviewOwnerName, readyAt, decidedAt, publicShareUrl, content, authorKind
   * (engine or member), authorUserId, supersededAt, supersededById, createdAt, updatedAt. JSON: `{ rows, total, capped }` with tags as an array. publicShareUrl is the output's
   * public page as a path relative to the desk's base URL; outputs have no public page in this
   * version, so it is always empty (null).
   * @param format csv (default) or json
   */
  @Get('artifacts-export')
  @Produces('application/json')
  @Produces('text/csv')
  @Response<ErrorBody>('422', 'format is not csv or json')
  public async exportArtifacts(@Query() format: ExportFormat = 'csv'): Promise<ArtifactsExport | Readable> {
    // The UI calls them outputs: the file is named so (the path stays the spec's).
    return streamedExportAnswer(this, 'outputs', format, await this.s.exports.artifacts(), ARTIFACT_CSV_COLUMNS);
  }

  /**
   * Every signal, newest received first, at most 5000. CSV columns: id, kind, priority, title,
   * detail, sourceUrl, sourceId, sourceLabel, externalId, pinned, publishedAt (the item's own date;
   * empty when it gives none), createdAt (when the desk received it), triagedAt (when a cycle took
   * it in; empty while it waits). JSON: `{ rows, total, capped }`. Not in the spec.
   * @param format csv (default) or json
   */
  @Get('signals-export')
  @Produces('application/json')
  @Produces('text/csv')
  @Response<ErrorBody>('422', 'format is not csv or json')
  public async exportSignals(@Query() format: ExportFormat = 'csv'): Promise<SignalsExport | Readable> {
    return streamedExportAnswer(this, 'signals', format, await this.s.exports.signals(), SIGNAL_CSV_COLUMNS);
  }

  /**
   * Every task (done and archived included), newest first, at most 5000, with its tags and cost.
   * CSV columns: id, title, summary, kind, deliverableType, status, priority, assignedToUserId,
   * assigneeName, tags (`; `-joined), pinned, dueAt, archivedAt, totalInputTokens,
   * totalOutputTokens, estimatedCostUsd, sessionCount, createdAt, updatedAt. JSON:
   * `{ rows, total, capped }` with tags as an array. Not in the spec.
   * @param format csv (default) or json
   */
  @Get('tasks-export')
  @Produces('application/json')
  @Produces('text/csv')
  @Response<ErrorBody>('422', 'format is not csv or json')
  public async exportTasks(@Query() format: ExportFormat = 'csv'): Promise<TasksExport | Readable> {
    return streamedExportAnswer(this, 'tasks', format, await this.s.exports.tasks(), TASK_CSV_COLUMNS);
  }

  /**
   * Stale tasks with their cost, longest untouched first, at most 5000: queued and in_progress
   * tasks, pinned ones excluded, whose updatedAt is more than thresholdDays workspace-calendar days
   * ago (the stale list's rule). CSV columns: id, title, status, priority, assignedToUserId,
   * assigneeName, tags (`; `-joined), dueAt, createdAt, updatedAt, daysStale, totalInputTokens,
   * totalOutputTokens, estimatedCostUsd, sessionCount, costPerSessionUsd. JSON:
   * `{ thresholdDays, rows, total, capped }`.
   * @param thresholdDays days without a change, 1-60 (default 5)
   * @isInt thresholdDays must be an integer
   * @param format csv (default) or json
   */
  @Get('stale-tasks-export')
  @Produces('application/json')
  @Produces('text/csv')
  @Response<ErrorBody>('422', 'thresholdDays is outside 1-60, or format is not csv or json')
  public async exportStaleTasks(@Query() thresholdDays = 5, @Query() format: ExportFormat = 'csv'): Promise<StaleTasksExport | Readable> {
    return this.answer('stale-tasks', format, await this.s.exports.staleTasks(thresholdDays), STALE_TASK_CSV_COLUMNS);
  }

  /**
   * Every memory entry (archived ones included, with archivedAt), newest first, at most 5000, with
   * its tags. CSV columns: id, kind, title, content, importance, pinned, tags (`; `-joined),
   * retrievalCount, retrievals7d, lastRetrievedAt, totalAttributedInputTokens,
   * totalAttributedOutputTokens, estimatedCostUsd, createdByRunId, archivedAt, createdAt,
   * updatedAt. JSON: `{ rows, total, capped }` with tags as an array.
   * @param format csv (default) or json
   */
  @Get('memory-export')
  @Produces('application/json')
  @Produces('text/csv')
  @Response<ErrorBody>('422', 'format is not csv or json')
  public async exportMemory(@Query() format: ExportFormat = 'csv'): Promise<MemoryExport | Readable> {
    return streamedExportAnswer(this, 'memory', format, await this.s.exports.memory(), MEMORY_CSV_COLUMNS);
  }

  /**
   * The whole workspace as one JSON download (`desk-export.json`): profile, members (no emails),
   * sources, signals (the newest 10,000), tasks, outputs and memory (5000 each, newest first),
   * the newest 200 runs and 1,000 activity rows, and the source-evidence appendices (per source its
   * signal count and newest 20 signals; per output the signals and memory entries it was built
   * from). `collections` says per collection how many rows the file holds, how many exist and the
   * cap. `format` and `version` tell POST /workspace/import what it reads. No secret is in it: not
   * the workspace token, ingest tokens, share tokens, webhook secrets nor the engine API key, and
   * no share state (which tasks are shared, their view counts).
   */
  @Get('export')
  public async exportWorkspace(): Promise<FullExport> {
    this.setHeader('Content-Disposition', attachmentHeader('desk-export.json'));
    return this.s.exports.full();
  }

  /**
   * Appends the sources, signals and memory of a GET /workspace/export file to this workspace.
   * The whole file is read first: a file that is not an export of a version this desk reads, or
   * whose collections or fields have the wrong JSON type, is refused (422 naming the path, e.g.
   * `data.signals[3].title`) and nothing is imported. Items that break a rule of this desk are
   * skipped as `invalid`; items already here (or earlier in the file) are skipped as `duplicate`:
   * a source with the same type and url (file sources: the same file; manual sources without url:
   * the same label), a signal with the same externalId or the same title, kind and createdAt, a
   * memory entry with the same kind, title and createdAt. The rest is written in one transaction
   * with new ids; a signal's source is the source imported with it, or the matching source already
   * here (none when neither). Imported signals keep their createdAt and count as already triaged
   * (history, not new work for the loop); memory keeps its tags, pin, importance and archive state,
   * with usage counters at zero. One activity row and one `workspace.imported` event. `dryRun`
   * answers the same report and writes nothing. At most 5000 sources, 10,000 signals and 5000
   * memory entries per file, in a body of at most 64 MB (the other operations take 1 MB).
   */
  @Post('import')
  @Response<ErrorBody>('422', 'the file is not an export this desk reads (the path of the first problem is named)')
  public async importWorkspace(@Body() body: ImportBody): Promise<ImportReport> {
    return this.s.exports.import(body);
  }
}
