import { text } from 'node:stream/consumers';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { attachmentHeader, csvCell, csvStream, csvText, type CsvColumn } from './csv';

interface Row {
  id: string;
  title: string;
  n: number | null;
}
const COLUMNS: CsvColumn<Row>[] = [
  { header: 'id', value: (r) => r.id },
  { header: 'title', value: (r) => r.title },
  { header: 'n', value: (r) => r.n },
];
const ROWS: Row[] = [
  { id: 'a', title: 'Say "hi", then\nleave', n: 1.5 },
  { id: 'b', title: '=HYPERLINK("http://x")', n: null },
  { id: 'c', title: '-1 +2 @me', n: -3 },
];

describe('csv', () => {
  it('neutralises formula cells (strings only) and leaves numbers alone', () => {
    expect(['=1+1', '+1', '-1', '@x', '\tx', 'plain', ''].map(csvCell)).toEqual(["'=1+1", "'+1", "'-1", "'@x", "'\tx", 'plain', '']);
    expect([-3, 0, true, null, undefined].map(csvCell)).toEqual(['-3', '0', 'true', '', '']);
  });

  it('writes RFC 4180 rows (CRLF, quoted when needed) that a CSV parser reads back', async () => {
    const streamed = await text(csvStream(COLUMNS, ROWS));
    expect(streamed).toBe(csvText(COLUMNS, ROWS));
    expect(streamed.split('\r\n')[0]).toBe('id,title,n');
    expect(streamed.endsWith('\r\n')).toBe(true);
    expect(parse(streamed)).toEqual([
      ['id', 'title', 'n'],
      ['a', 'Say "hi", then\nleave', '1.5'],
      ['b', `'=HYPERLINK("http://x")`, ''],
      ['c', "'-1 +2 @me", '-3'],
    ]);
  });

  it('streams rows from an async source, as strings (never Buffers a later GC would free)', async () => {
    async function* rows() {
      for (const r of ROWS) yield r;
    }
    const types = new Set<string>();
    let body = '';
    for await (const chunk of csvStream(COLUMNS, rows())) {
      types.add(typeof chunk);
      body += String(chunk);
    }
    expect([...types]).toEqual(['string']);
    expect(parse(body)).toHaveLength(4);
  });

  it('names the download safely, with the UTF-8 form for other characters', () => {
    expect(attachmentHeader('decisions.csv')).toBe(`attachment; filename="decisions.csv"; filename*=UTF-8''decisions.csv`);
    expect(attachmentHeader('Café "desk".json')).toBe(`attachment; filename="Caf_ _desk_.json"; filename*=UTF-8''Caf%C3%A9%20%22desk%22.json`);
  });
});
