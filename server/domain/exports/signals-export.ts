import type { Db } from '../../../db/connection';
import type { CsvColumn } from '../../core/csv';
import type { SignalKind, SignalPriority } from '../signals/signal-view';
import { EXPORT_PAGE_ROWS, type StreamedExport } from './paged';
import { EXPORT_MAX_ROWS } from './rules';

/** One row of GET /workspace/signals-export. */
export interface SignalExportRow {
  id: string;
  kind: SignalKind;
  priority: SignalPriority;
  title: string;
  detail: string;
  sourceUrl: string | null;
  /** The source it came from; null for signals added by hand or through the API. */
  sourceId: string | null;
  /** That source's label; null without a source. */
  sourceLabel: string | null;
  /** The sender's id of a pushed signal. */
  externalId: string | null;
  pinned: boolean;
  /** When the item says it was published (a feed item's date); null when it does not say. @format date-time */
  publishedAt: string | null;
  /** When the desk received it. @format date-time */
  createdAt: string;
  /** When a loop cycle took it in; null while it waits for the next cycle. @format date-time */
  triagedAt: string | null;
}

export interface SignalsExport {
  /** Newest received first, at most 5000. */
  rows: SignalExportRow[];
  /** Every signal. @isInt */
  total: number;
  /** true when total is above the 5000-row cap (the oldest signals are left out). */
  capped: boolean;
}

/**
 * Newest received first, at most `cap`. signals_created indexes created_at alone, so a keyset page
 * on (created_at, id) would sort every older row again per page: the order is read once as ids and
 * each page's rows by primary key (memory-export.ts does the same; a signal deleted meanwhile is left out).
 */
export async function streamSignals(db: Db, cap = EXPORT_MAX_ROWS): Promise<StreamedExport<SignalsExport>> {
  const [count, order] = await Promise.all([
    db.selectFrom('signals').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    db.selectFrom('signals').select('id').orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(cap).execute(),
  ]);
  const total = Number(count.n);
  const readPage = async (ids: string[]): Promise<SignalExportRow[]> => {
    const found = await db
      .selectFrom('signals')
      .leftJoin('sources', 'sources.id', 'signals.sourceId')
      .select(['signals.id', 'signals.kind', 'signals.priority', 'signals.title', 'signals.detail', 'signals.sourceUrl', 'signals.sourceId', 'sources.label as sourceLabel', 'signals.externalId', 'signals.pinned', 'signals.publishedAt', 'signals.createdAt', 'signals.triagedAt'])
      .where('signals.id', 'in', ids)
      .execute();
    const byId = new Map(found.map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const r = byId.get(id);
      if (r === undefined) return [];
      return [
        {
          id: r.id,
          kind: r.kind,
          priority: r.priority,
          title: r.title,
          detail: r.detail,
          sourceUrl: r.sourceUrl,
          sourceId: r.sourceId,
          sourceLabel: r.sourceLabel ?? null,
          externalId: r.externalId ?? null,
          pinned: r.pinned === 1,
          publishedAt: r.publishedAt ?? null,
          createdAt: r.createdAt,
          triagedAt: r.triagedAt ?? null,
        },
      ];
    });
  };
  async function* rows(): AsyncGenerator<SignalExportRow> {
    for (let i = 0; i < order.length; i += EXPORT_PAGE_ROWS) yield* await readPage(order.slice(i, i + EXPORT_PAGE_ROWS).map((r) => r.id));
  }
  return { rows: rows(), total, capped: total > cap };
}

export const SIGNAL_CSV_COLUMNS: readonly CsvColumn<SignalExportRow>[] = [
  { header: 'id', value: (r) => r.id },
  { header: 'kind', value: (r) => r.kind },
  { header: 'priority', value: (r) => r.priority },
  { header: 'title', value: (r) => r.title },
  { header: 'detail', value: (r) => r.detail },
  { header: 'sourceUrl', value: (r) => r.sourceUrl },
  { header: 'sourceId', value: (r) => r.sourceId },
  { header: 'sourceLabel', value: (r) => r.sourceLabel },
  { header: 'externalId', value: (r) => r.externalId },
  { header: 'pinned', value: (r) => r.pinned },
  { header: 'publishedAt', value: (r) => r.publishedAt },
  { header: 'createdAt', value: (r) => r.createdAt },
  { header: 'triagedAt', value: (r) => r.triagedAt },
];
