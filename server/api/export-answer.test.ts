import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { Controller } from '@tsoa/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExportFormat } from '../core/csv';
import { jsonRowsStream, streamedExportAnswer } from './export-answer';

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
    const types = new Set<string>();
    for await (const chunk of stream) {
      chunks++;
      types.add(typeof chunk);
      body += String(chunk);
    }
    expect(chunks).toBeGreaterThan(2);
    // Strings, never Buffers: the socket writes a string from native memory it frees at once.
    expect([...types]).toEqual(['string']);
    expect(body).toBe(JSON.stringify({ rows, total: 3000, capped: false }));
  });
});

describe('streamedExportAnswer when a page cannot be read', () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(null)));
    server = undefined;
  });

  type Row = { id: string; content: string };
  /** Answers like tsoa does (headers from the controller, then `stream.pipe(response)`); `?fail` fails after the first rows. */
  async function serve(): Promise<string> {
    server = http.createServer((req, res) => {
      const controller = new (class extends Controller {})();
      const url = new URL(req.url ?? '/', 'http://x');
      async function* rows(): AsyncGenerator<Row> {
        for (let i = 0; i < 3000; i++) {
          if (url.searchParams.has('fail') && i === 2000) throw new Error('the page could not be read');
          yield { id: `row_${i}`, content: 'x'.repeat(50) };
        }
      }
      const stream = streamedExportAnswer(controller, 'rows', (url.searchParams.get('format') ?? 'csv') as ExportFormat, { rows: rows(), total: 3000, capped: false }, [
        { header: 'id', value: (r: Row) => r.id },
        { header: 'content', value: (r: Row) => r.content },
      ]);
      for (const [name, value] of Object.entries(controller.getHeaders())) res.setHeader(name, String(value));
      res.statusCode = 200;
      stream.pipe(res);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  }

  it.each(['csv', 'json'])('%s: aborts the download (no short file that looks whole), and the server goes on answering', async (format) => {
    const base = await serve();
    const failed = await fetch(`${base}/?fail&format=${format}`);
    expect(failed.status).toBe(200);
    expect(failed.headers.get('x-export-total')).toBe('3000');
    await expect(failed.text()).rejects.toThrow();
    const whole = await fetch(`${base}/?format=${format}`);
    const body = await whole.text();
    if (format === 'json') expect(JSON.parse(body).rows).toHaveLength(3000);
    else expect(body.split('\r\n')).toHaveLength(3002);
  });

  it('csv: starts with the UTF-8 byte-order mark, so a spreadsheet reads é and Arabic as written', async () => {
    const base = await serve();
    const bytes = Buffer.from(await (await fetch(`${base}/?format=csv`)).arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3, 14).toString('utf8')).toBe('id,content\r');
    const json = Buffer.from(await (await fetch(`${base}/?format=json`)).arrayBuffer());
    expect(json[0]).toBe('{'.charCodeAt(0));
  });
});
