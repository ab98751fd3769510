import { describe, expect, it } from 'vitest';
import type { CursorKey } from '../../core/lists';
import { collectRows, EXPORT_PAGE_ROWS, pagedRows } from './paged';

/** Rows 0..n-1 in descending order, read by keyset like an export's query. */
function table(n: number) {
  const ids = Array.from({ length: n }, (_, i) => n - 1 - i);
  const reads: { after: CursorKey | undefined; limit: number }[] = [];
  const readPage = async (after: CursorKey | undefined, limit: number) => {
    reads.push({ after, limit });
    return ids.filter((id) => after === undefined || id < Number(after[0])).slice(0, limit);
  };
  return { readPage, reads };
}

async function all<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const r of rows) out.push(r);
  return out;
}

describe('pagedRows', () => {
  it('reads page after page from the last key, and stops at the cap', async () => {
    const t = table(10);
    expect(await all(pagedRows(t.readPage, (id) => [id], 7, 3))).toEqual([9, 8, 7, 6, 5, 4, 3]);
    expect(t.reads).toEqual([
      { after: undefined, limit: 3 },
      { after: [7], limit: 3 },
      { after: [4], limit: 1 },
    ]);
  });

  it('stops after a short page without reading again', async () => {
    const t = table(5);
    expect(await all(pagedRows(t.readPage, (id) => [id], 5000, 2))).toEqual([4, 3, 2, 1, 0]);
    expect(t.reads.map((r) => r.after)).toEqual([undefined, [3], [1]]);
  });

  it('reads nothing more after a full last page that reaches the cap', async () => {
    const t = table(10);
    expect(await all(pagedRows(t.readPage, (id) => [id], 4, 2))).toEqual([9, 8, 7, 6]);
    expect(t.reads).toHaveLength(2);
  });

  it('reads nothing until iterated: the answer pulls the pages', async () => {
    const t = table(3);
    const rows = pagedRows(t.readPage, (id) => [id], 10, 2);
    expect(t.reads).toHaveLength(0);
    expect(await all(rows)).toEqual([2, 1, 0]);
  });

  it('an empty table is one read and no rows', async () => {
    const t = table(0);
    expect(await all(pagedRows(t.readPage, (id) => [id], 5000))).toEqual([]);
    expect(t.reads).toEqual([{ after: undefined, limit: EXPORT_PAGE_ROWS }]);
  });
});

describe('collectRows', () => {
  it('keeps the other fields in their order and gathers the rows', async () => {
    const t = table(3);
    const collected = await collectRows<{ rows: number[]; total: number; capped: boolean }>({ rows: pagedRows(t.readPage, (id) => [id], 2, 1), total: 3, capped: true });
    expect(collected).toEqual({ rows: [2, 1], total: 3, capped: true });
    expect(Object.keys(collected)).toEqual(['rows', 'total', 'capped']);
  });
});
