import { inTransaction, type Trx } from '../../../db/transactions';
import { invalid } from '../../core/errors';
import { resolveActor } from '../members/resolve-actor';
import { checkIds, checkPollInterval, isFeedType, MAX_LABEL_CHARS, replaceInLabel } from './rules';
import type { SourceDeps } from './source-context';
import { findSources, type SourceRow } from './source-store';
import { cadenceDetail, changeSource, deleteSource, pauseSource, resumeSource } from './source-transitions';

/**
 * Bulk calls on sources, all under the bulk policy of core/errors.ts: 1-50 ids (422 otherwise);
 * ids that match no source are listed in `notFound` and the action applies to the rest;
 * `affected` counts the sources changed (0 when nothing matched, still 200).
 */

export type BulkAction = 'pause' | 'resume' | 'delete';
export const BULK_ACTIONS: readonly BulkAction[] = ['pause', 'resume', 'delete'];

export interface BulkResult {
  action: BulkAction;
  /** How many sources the action changed. */
  affected: number;
  /** Sources the action changed. */
  changed: string[];
  /** Sources already in the asked state (pause of a paused source, resume of a running one). */
  unchanged: string[];
  /** Ids that matched no source; the action applied to the others. */
  notFound: string[];
}

export interface BulkCadenceResult {
  pollIntervalMinutes: number | null;
  /** How many feed sources changed interval. */
  affected: number;
  /** Feed sources whose interval changed. */
  updated: string[];
  /** Feed sources that already had this interval. */
  unchanged: string[];
  /** Named sources that are not feeds (manual, file): never polled, left alone. */
  skipped: string[];
  /** Ids that matched no source. */
  notFound: string[];
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
  /** How many labels this call changed (0 with preview). */
  affected: number;
  /** Renames applied (or, with preview, that would be applied). */
  matches: RenameMatch[];
  /** Matches left alone because the new label would be empty or longer than 80 characters. */
  skipped: RenameSkip[];
  /** Ids that matched no source. */
  notFound: string[];
}

export interface BulkRenameInput {
  findText: string;
  replaceText: string;
  sourceIds?: string[];
  caseSensitive?: boolean;
  preview?: boolean;
}

/** The named sources (with the unknown ids), or every source, oldest first, when no ids are given. */
async function target(trx: Trx, ids: string[] | undefined): Promise<{ rows: SourceRow[]; notFound: string[] }> {
  if (ids) return findSources(trx, ids);
  return { rows: await trx.selectFrom('sources').selectAll().orderBy('createdAt').orderBy('id').execute(), notFound: [] };
}

export class SourceBulk {
  constructor(private readonly d: SourceDeps) {}

  /** Bulk pause (indefinite: it replaces a scheduled pause), resume (clears any pause) or delete (signals stay). */
  async bulk(action: BulkAction, sourceIds: string[]): Promise<BulkResult> {
    if (!BULK_ACTIONS.includes(action)) throw invalid('action', `must be one of ${BULK_ACTIONS.join(', ')}`);
    const ids = checkIds(sourceIds);
    const { clock } = this.d;
    return inTransaction(this.d.db, async (trx) => {
      const actor = await resolveActor(trx);
      const { rows, notFound } = await findSources(trx, ids);
      const result: BulkResult = { action, affected: 0, changed: [], unchanged: [], notFound };
      for (const row of rows) {
        let changed = true;
        if (action === 'delete') await deleteSource(trx, clock, row, actor);
        // Bulk pause is indefinite; a scheduled pause becomes one.
        else if (action === 'pause') changed = await pauseSource(trx, clock, row, null, actor);
        else changed = await resumeSource(trx, clock, row, actor, 'bulk resume');
        (changed ? result.changed : result.unchanged).push(row.id);
      }
      result.affected = result.changed.length;
      return result;
    });
  }

  /** Sets one interval on many feed sources (every feed when no ids); named manual and file sources are listed in `skipped`. */
  async bulkCadence(pollIntervalMinutes: number | null, sourceIds?: string[]): Promise<BulkCadenceResult> {
    const minutes = checkPollInterval(pollIntervalMinutes);
    const ids = sourceIds === undefined ? undefined : checkIds(sourceIds);
    return inTransaction(this.d.db, async (trx) => {
      const actor = await resolveActor(trx);
      const { rows, notFound } = await target(trx, ids);
      const result: BulkCadenceResult = { pollIntervalMinutes: minutes, affected: 0, updated: [], unchanged: [], skipped: [], notFound };
      for (const row of rows) {
        if (!isFeedType(row.type)) {
          if (ids) result.skipped.push(row.id);
          continue;
        }
        const changed = await changeSource(trx, this.d.clock, row, { pollIntervalMinutes: minutes }, { kind: 'source.cadence', detail: cadenceDetail(row.label, minutes), actor });
        (changed ? result.updated : result.unchanged).push(row.id);
      }
      result.affected = result.updated.length;
      return result;
    });
  }

  /**
   * Literal find/replace in labels (every source when no ids). A rename that would leave a label
   * empty or longer than 80 characters is skipped and reported; the others are applied.
   */
  async bulkRename(input: BulkRenameInput): Promise<BulkRenameResult> {
    if (typeof input.findText !== 'string' || input.findText.length === 0) throw invalid('findText', 'must not be empty');
    if (input.findText.length > MAX_LABEL_CHARS) throw invalid('findText', `must be at most ${MAX_LABEL_CHARS} characters`);
    if (typeof input.replaceText !== 'string') throw invalid('replaceText', 'must be a string (empty removes the text)');
    if (input.replaceText.length > MAX_LABEL_CHARS) throw invalid('replaceText', `must be at most ${MAX_LABEL_CHARS} characters`);
    const ids = input.sourceIds === undefined ? undefined : checkIds(input.sourceIds);
    const preview = input.preview ?? false;
    return inTransaction(this.d.db, async (trx) => {
      const actor = await resolveActor(trx);
      const { rows, notFound } = await target(trx, ids);
      const result: BulkRenameResult = { preview, affected: 0, matches: [], skipped: [], notFound };
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
        await changeSource(trx, this.d.clock, row, { label: newLabel }, { kind: 'source.renamed', detail: `Source ${row.label} renamed to ${newLabel}`, actor });
        result.affected += 1;
      }
      return result;
    });
  }
}
