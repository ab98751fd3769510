import type { Db } from '../../../db/connection';
import type { CsvColumn } from '../../core/csv';
import { lastDays } from '../../core/workspace-time';
import { retrievalsSince, tagsOf } from '../memory/memory-store';
import { usd, type MemoryKind } from '../memory/rules';
import { collectRows, EXPORT_PAGE_ROWS, type StreamedExport } from './paged';
import { EXPORT_MAX_ROWS, joinCell } from './rules';

/** One row of GET /workspace/memory-export (archived entries included, with archivedAt). */
export interface MemoryExportRow {
  id: string;
  kind: MemoryKind;
  title: string;
  content: string;
  /** 0-10, or null when not rated. */
  importance: number | null;
  pinned: boolean;
  tags: string[];
  /** @isInt */
  retrievalCount: number;
  /** Retrievals over the last 7 workspace-timezone days (today included). @isInt */
  retrievals7d: number;
  /** @format date-time */
  lastRetrievedAt: string | null;
  /** @isInt */
  totalAttributedInputTokens: number;
  /** @isInt */
  totalAttributedOutputTokens: number;
  /** USD, 6 decimals. */
  estimatedCostUsd: number;
  /** The AI cycle that wrote the entry; null for entries added by hand. */
  createdByRunId: string | null;
  /** Set when the stale sweep archived the entry. @format date-time */
  archivedAt: string | null;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}

export interface MemoryExport {
  /** Newest entry first, at most 5000. */
  rows: MemoryExportRow[];
  /** Every entry, archived ones included. @isInt */
  total: number;
  /** true when total is above the 5000-row cap (the oldest entries are left out). */
  capped: boolean;
}

/**
 * Newest first, at most `cap`, read a page at a time (paged.ts): each page's rows with their tags
 * and retrievals over the last 7 workspace days. memory has no index on (created_at, id), so a
 * keyset page would scan and sort the whole table each time: the order
 * is read once as ids, and each page's rows by primary key (an entry deleted meanwhile is left out).
 */
export async function streamMemory(db: Db, now: Date, timezone: string, cap = EXPORT_MAX_ROWS): Promise<StreamedExport<MemoryExport>> {
  const [count, order] = await Promise.all([
    db.selectFrom('memory').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    db.selectFrom('memory').select('id').orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(cap).execute(),
  ]);
  const total = Number(count.n);
  const from = lastDays(now, timezone, 7)[0];
  const readPage = async (ids: string[]): Promise<MemoryExportRow[]> => {
    const found = new Map((await db.selectFrom('memory').selectAll().where('id', 'in', ids).execute()).map((r) => [r.id, r]));
    const rows = ids.flatMap((id) => found.get(id) ?? []);
    const tags = await tagsOf(db, ids);
    const recent = await retrievalsSince(db, ids, from);
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      title: r.title,
      content: r.content,
      importance: r.importance,
      pinned: r.pinned === 1,
      tags: tags.get(r.id) ?? [],
      retrievalCount: r.retrievalCount,
      retrievals7d: recent.get(r.id) ?? 0,
      lastRetrievedAt: r.lastRetrievedAt,
      totalAttributedInputTokens: r.totalAttributedInputTokens,
      totalAttributedOutputTokens: r.totalAttributedOutputTokens,
      estimatedCostUsd: usd(r.costMicroUsd),
      createdByRunId: r.createdByRunId,
      archivedAt: r.archivedAt,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    }));
  };
  async function* rows(): AsyncGenerator<MemoryExportRow> {
    for (let i = 0; i < order.length; i += EXPORT_PAGE_ROWS) yield* await readPage(order.slice(i, i + EXPORT_PAGE_ROWS).map((r) => r.id));
  }
  return { rows: rows(), total, capped: total > cap };
}

/** The same rows as an array (the full export). */
export async function exportMemory(db: Db, now: Date, timezone: string, cap = EXPORT_MAX_ROWS): Promise<MemoryExport> {
  return collectRows(await streamMemory(db, now, timezone, cap));
}

/** CSV columns; tags joined with `; `. */
export const MEMORY_CSV_COLUMNS: readonly CsvColumn<MemoryExportRow>[] = [
  { header: 'id', value: (r) => r.id },
  { header: 'kind', value: (r) => r.kind },
  { header: 'title', value: (r) => r.title },
  { header: 'content', value: (r) => r.content },
  { header: 'importance', value: (r) => r.importance },
  { header: 'pinned', value: (r) => r.pinned },
  { header: 'tags', value: (r) => joinCell(r.tags) },
  { header: 'retrievalCount', value: (r) => r.retrievalCount },
  { header: 'retrievals7d', value: (r) => r.retrievals7d },
  { header: 'lastRetrievedAt', value: (r) => r.lastRetrievedAt },
  { header: 'totalAttributedInputTokens', value: (r) => r.totalAttributedInputTokens },
  { header: 'totalAttributedOutputTokens', value: (r) => r.totalAttributedOutputTokens },
  { header: 'estimatedCostUsd', value: (r) => r.estimatedCostUsd },
  { header: 'createdByRunId', value: (r) => r.createdByRunId },
  { header: 'archivedAt', value: (r) => r.archivedAt },
  { header: 'createdAt', value: (r) => r.createdAt },
  { header: 'updatedAt', value: (r) => r.updatedAt },
];
