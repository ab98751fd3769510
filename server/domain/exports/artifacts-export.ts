import type { Db } from '../../../db/connection';
import type { CsvColumn } from '../../core/csv';
import { afterKey, type CursorKey } from '../../core/lists';
import { selectArtifacts } from '../artifacts/artifact-view';
import type { ArtifactAuthorKind } from '../../core/vocabulary';
import { reviewClock, type ArtifactKind, type ArtifactStatus } from '../artifacts/rules';
import { collectRows, pagedRows, type StreamedExport } from './paged';
import { EXPORT_MAX_ROWS, joinCell } from './rules';

/** One row of GET /workspace/artifacts-export. */
export interface ArtifactExportRow {
  id: string;
  title: string;
  kind: ArtifactKind;
  status: ArtifactStatus;
  /** @isInt */
  version: number;
  parentArtifactId: string | null;
  taskId: string | null;
  taskTitle: string | null;
  runId: string | null;
  tags: string[];
  pinned: boolean;
  /** The review owner (the task's assignee) now; null without one. */
  reviewOwnerId: string | null;
  reviewOwnerName: string | null;
  /** @format date-time */
  readyAt: string;
  /** @format date-time */
  decidedAt: string | null;
  /**
   * The output's public page as a path relative to the desk's base URL. Outputs have no public
   * share page in this version, so this is always null; a later version fills it for shared outputs.
   */
  publicShareUrl: string | null;
  /** Markdown. */
  content: string;
  /** Who wrote this version: `engine` (a loop cycle) or `member` (an edit or a reopen). */
  authorKind: ArtifactAuthorKind;
  /** The member who wrote it; null for the engine. */
  authorUserId: string | null;
  /** When a newer version replaced this one while it waited (out of the queue, still in the chain); null otherwise. @format date-time */
  supersededAt: string | null;
  /** The version that replaced it. */
  supersededById: string | null;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}

export interface ArtifactsExport {
  /** Newest output first, at most 5000. */
  rows: ArtifactExportRow[];
  /** Every output. @isInt */
  total: number;
  /** true when total is above the 5000-row cap (the oldest outputs are left out). */
  capped: boolean;
}

/** Tags of artifacts, 500 ids a query (artifact_tags primary key). */
export async function artifactTags(db: Db, ids: readonly string[]): Promise<Map<string, string[]>> {
  const tags = new Map<string, string[]>();
  for (let i = 0; i < ids.length; i += 500) {
    const part = await db.selectFrom('artifactTags').select(['artifactId', 'tag']).where('artifactId', 'in', ids.slice(i, i + 500)).orderBy('artifactId').orderBy('tag').execute();
    for (const t of part) tags.set(t.artifactId, [...(tags.get(t.artifactId) ?? []), t.tag]);
  }
  return tags;
}

/**
 * Newest first, at most `cap`, read a page at a time (paged.ts) by keyset over index
 * artifacts_created: the rows with their tags, mapped page by page.
 */
export async function streamArtifacts(db: Db, cap = EXPORT_MAX_ROWS): Promise<StreamedExport<ArtifactsExport>> {
  const count = await db.selectFrom('artifacts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const total = Number(count.n);
  const readPage = async (after: CursorKey | undefined, limit: number): Promise<ArtifactExportRow[]> => {
    let query = selectArtifacts(db).select('artifacts.content');
    if (after !== undefined) query = query.where(afterKey(['artifacts.created_at', 'artifacts.id'], after, 'desc'));
    const rows = await query.orderBy('artifacts.createdAt', 'desc').orderBy('artifacts.id', 'desc').limit(limit).execute();
    const tags = await artifactTags(
      db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      kind: r.kind,
      status: r.status,
      version: r.version,
      parentArtifactId: r.parentArtifactId,
      taskId: r.taskId,
      taskTitle: r.taskTitle ?? null,
      runId: r.runId,
      tags: tags.get(r.id) ?? [],
      pinned: r.pinned === 1,
      reviewOwnerId: r.ownerId ?? null,
      reviewOwnerName: r.ownerId ? (r.ownerName ?? r.ownerId) : null,
      readyAt: reviewClock(r).readyAt,
      decidedAt: r.decidedAt,
      publicShareUrl: null,
      content: r.content,
      authorKind: r.authorKind,
      authorUserId: r.authorUserId,
      supersededAt: r.supersededAt,
      supersededById: r.supersededById,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    }));
  };
  return { rows: pagedRows(readPage, (r) => [r.createdAt, r.id], cap), total, capped: total > cap };
}

/** The same rows as an array (the full export). */
export async function exportArtifacts(db: Db, cap = EXPORT_MAX_ROWS): Promise<ArtifactsExport> {
  return collectRows(await streamArtifacts(db, cap));
}

/** CSV columns; tags joined with `; `. */
export const ARTIFACT_CSV_COLUMNS: readonly CsvColumn<ArtifactExportRow>[] = [
  { header: 'id', value: (r) => r.id },
  { header: 'title', value: (r) => r.title },
  { header: 'kind', value: (r) => r.kind },
  { header: 'status', value: (r) => r.status },
  { header: 'version', value: (r) => r.version },
  { header: 'parentArtifactId', value: (r) => r.parentArtifactId },
  { header: 'taskId', value: (r) => r.taskId },
  { header: 'taskTitle', value: (r) => r.taskTitle },
  { header: 'runId', value: (r) => r.runId },
  { header: 'tags', value: (r) => joinCell(r.tags) },
  { header: 'pinned', value: (r) => r.pinned },
  { header: 'reviewOwnerId', value: (r) => r.reviewOwnerId },
  { header: 'reviewOwnerName', value: (r) => r.reviewOwnerName },
  { header: 'readyAt', value: (r) => r.readyAt },
  { header: 'decidedAt', value: (r) => r.decidedAt },
  { header: 'publicShareUrl', value: (r) => r.publicShareUrl },
  { header: 'content', value: (r) => r.content },
  { header: 'authorKind', value: (r) => r.authorKind },
  { header: 'authorUserId', value: (r) => r.authorUserId },
  { header: 'supersededAt', value: (r) => r.supersededAt },
  { header: 'supersededById', value: (r) => r.supersededById },
  { header: 'createdAt', value: (r) => r.createdAt },
  { header: 'updatedAt', value: (r) => r.updatedAt },
];
