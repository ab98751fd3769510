import { EXPORT_PAGE_ROWS } from '../../core/csv';
import type { CursorKey } from '../../core/lists';

/**
 * List exports are read a page at a time and written to the answer as they come (the controller
 * streams them, server/api/export-answer.ts): at most one page of rows is alive, however large the
 * rows (outputs with their content) and however slowly the client reads, instead of all 5000 rows,
 * their mapped copies and the whole body at once (that was the server's memory peak). Pages follow
 * the export's order by keyset (the last row's sort key), so each is one indexed read and other
 * requests are served between pages; the single connection is never held for the whole export.
 * Pages are small: rows that outlive a few young-generation collections are promoted to V8's old
 * space, which then grows; pages of 100 keep the resident set flat where pages of 500 made it swing
 * (`npm run bench -- --dataset full --only rss` shows it). Each page is one short indexed read.
 * Rows written during an export: newer ones are not in it (they sort before the first page), a
 * row deleted meanwhile may be missing from a later page; `total` is counted when the export starts.
 * The page size, EXPORT_PAGE_ROWS, lives with EXPORT_MAX_ROWS in core/csv.ts.
 */
export { EXPORT_PAGE_ROWS };

/** An export whose rows are read as the answer is written (`rows` can be iterated once). */
export type StreamedExport<E extends { rows: readonly unknown[] }> = Omit<E, 'rows'> & { rows: AsyncIterable<E['rows'][number]> };

/**
 * Rows in pages of at most `pageRows`, `cap` in all: `readPage(after, limit)` reads the rows after
 * the key (undefined: from the start) in the export's order; a short page ends the export.
 */
export async function* pagedRows<T>(readPage: (after: CursorKey | undefined, limit: number) => Promise<T[]>, keyOf: (row: T) => CursorKey, cap: number, pageRows = EXPORT_PAGE_ROWS): AsyncGenerator<T> {
  let after: CursorKey | undefined;
  for (let left = cap; left > 0; ) {
    const limit = Math.min(pageRows, left);
    const page = await readPage(after, limit);
    yield* page;
    if (page.length < limit) return;
    left -= page.length;
    after = keyOf(page[page.length - 1]);
  }
}

/** The rows of a streamed export as an array (the full export, which holds every collection anyway). */
export async function collectRows<E extends { rows: readonly unknown[] }>(streamed: StreamedExport<E>): Promise<Omit<E, 'rows'> & { rows: E['rows'][number][] }> {
  const rows: E['rows'][number][] = [];
  for await (const row of streamed.rows) rows.push(row);
  return { ...streamed, rows };
}
