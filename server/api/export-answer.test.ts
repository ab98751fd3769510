import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { jsonRowsStream } from './export-answer';

async function* rowsOf<T>(rows: T[]): AsyncGenerator<T> {
  yield* rows;
}

describe('jsonRowsStream', () => {
  it('writes the bytes JSON.stringify writes, fields in their order around the rows', async () => {
    const rows = [{ id: 'a', n: 1, tags: ['x', 'y'], note: null }, { id: 'b"\u2028', n: 2.5, tags: [], note: 'é\n' }];
    const value = { thresholdDays: 5, rows, total: 7, since: null, until: '2026-01-01T00:00:00.000Z', capped: true };
    expect(await text(jsonRowsStream({ ...value, rows: rowsOf(rows) }))).toBe(JSON.stringify(value));
  });

  it('leaves out undefined fields as JSON.stringify does, and writes no rows as []', async () => {
    const value = { rows: [] as unknown[], total: 0, since: undefined, capped: false };
    expect(await text(jsonRowsStream({ ...value, rows: rowsOf([]) }))).toBe(JSON.stringify(value));
    expect(JSON.parse(await text(jsonRowsStream({ ...value, rows: rowsOf([]) })))).toEqual({ rows: [], total: 0, capped: false });
  });

  it('writes many rows in several chunks that join into the same document', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({ id: `row_${i}`, content: 'x'.repeat(100) }));
    const stream = jsonRowsStream({ rows: rowsOf(rows), total: 3000, capped: false });
    let chunks = 0;
    let body = '';
    for await (const chunk of stream) {
      chunks++;
      body += String(chunk);
    }
    expect(chunks).toBeGreaterThan(2);
    expect(body).toBe(JSON.stringify({ rows, total: 3000, capped: false }));
  });
});
