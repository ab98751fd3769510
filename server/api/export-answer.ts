import { Readable } from 'node:stream';
import type { Controller } from '@tsoa/runtime';
import { attachmentHeader, csvStream, type CsvColumn, type ExportFormat } from '../core/csv';

export type { ExportFormat };

/** The download name and, when the answer has them, `X-Export-Total` / `X-Export-Capped` (a CSV has no room for the totals: the headers carry them, for either format). */
function downloadHeaders(controller: Controller, name: string, format: ExportFormat, json: unknown): void {
  controller.setHeader('Content-Disposition', attachmentHeader(`${name}.${format}`));
  if (typeof json === 'object' && json !== null) {
    if ('total' in json) controller.setHeader('X-Export-Total', String(json.total));
    if ('capped' in json) controller.setHeader('X-Export-Capped', String(json.capped));
  }
}

/**
 * Answers an export in the asked format as a download named `<name>.<format>`, with `X-Export-Total`
 * and `X-Export-Capped` when the answer has `total` / `capped`: JSON as the value
 * itself (tsoa serialises it), CSV streamed from the rows with the columns given (or a text already
 * written with server/core/csv.ts).
 */
export function exportAnswer<T, J>(controller: Controller, name: string, format: ExportFormat, json: J, csv: { columns: readonly CsvColumn<T>[]; rows: Iterable<T> } | { text: string }): J | Readable {
  downloadHeaders(controller, name, format, json);
  if (format === 'json') return json;
  controller.setHeader('Content-Type', 'text/csv; charset=utf-8');
  return abortOnError(withBom('text' in csv ? Readable.from([csv.text]) : csvStream(csv.columns, csv.rows)));
}

/** A UTF-8 byte-order mark: without it, spreadsheet apps open the file in a legacy code page and garble é, ü, Arabic, CJK. */
export const UTF8_BOM = '\uFEFF';

/** Every CSV download starts with the byte-order mark, then the CSV as written; an error of `csv` is the answer's error. */
function withBom(csv: Readable): Readable {
  return Readable.from(
    (async function* () {
      yield UTF8_BOM;
      yield* csv;
    })(),
  );
}

/**
 * An export whose rows are read while the answer is written (server/domain/exports/paged.ts), in
 * either format, with the same headers as exportAnswer: CSV through the exports' CSV writer, JSON
 * as the very bytes `JSON.stringify` gives for the object (its fields in their order, `rows` an
 * array), written a row at a time. Both are pulled by the response (backpressure): a slow client
 * holds one page of rows, not the export.
 */
export function streamedExportAnswer<T, E extends { rows: AsyncIterable<T> }>(controller: Controller, name: string, format: ExportFormat, data: E, columns: readonly CsvColumn<T>[]): Readable {
  return streamedAnswer(controller, name, format, data, () => csvStream(columns, data.rows));
}

/** streamedExportAnswer for any shape: JSON with every async-iterable field written as an array, CSV as `csv()` writes it (the cost export's sections). */
export function streamedAnswer(controller: Controller, name: string, format: ExportFormat, data: object, csv: () => Readable): Readable {
  if (format === 'json') return streamedJsonAnswer(controller, name, data);
  downloadHeaders(controller, name, format, data);
  controller.setHeader('Content-Type', 'text/csv; charset=utf-8');
  return abortOnError(withBom(csv()));
}

/** A JSON-only export (the cost export's four tables at once) streamed as streamedAnswer writes JSON, downloaded as `<name>.json`. */
export function streamedJsonAnswer(controller: Controller, name: string, data: object): Readable {
  downloadHeaders(controller, name, 'json', data);
  controller.setHeader('Content-Type', 'application/json; charset=utf-8');
  return abortOnError(jsonRowsStream(data));
}

/**
 * tsoa answers a stream with `stream.pipe(response)`, which neither listens for the stream's errors
 * (an unhandled 'error' would stop the desk) nor ends the response on one (the client would wait).
 * An error after the 200 and the first bytes (a page that cannot be read) aborts the response
 * instead: the connection closes before the chunked body ends, so the client sees an incomplete
 * download, never a short file that looks whole.
 */
export function abortOnError(stream: Readable): Readable {
  const destinations: NodeJS.WritableStream[] = [];
  const pipe = stream.pipe.bind(stream);
  stream.pipe = <W extends NodeJS.WritableStream>(destination: W, options?: { end?: boolean }): W => {
    destinations.push(destination);
    return pipe(destination, options);
  };
  stream.on('error', () => {
    for (const d of destinations) if ('destroy' in d && typeof d.destroy === 'function') d.destroy();
  });
  return stream;
}

/** Bytes gathered before a write: fewer, larger writes than one per row. */
const JSON_CHUNK_CHARS = 64 * 1024;

const isAsyncIterable = (v: unknown): v is AsyncIterable<unknown> => typeof v === 'object' && v !== null && Symbol.asyncIterator in v;

/**
 * `JSON.stringify(value)` for an object whose async-iterable fields (`rows`) are written as arrays, as a stream.
 * Its chunks stay strings (`encoding`), as csvStream's do (server/core/csv.ts): a byte stream would
 * copy each chunk into a Buffer that only a later garbage collection frees.
 */
export function jsonRowsStream<E extends object>(value: E): Readable {
  return Readable.from(
    (async function* () {
      let chunk = '{';
      let firstField = true;
      for (const [key, field] of Object.entries(value)) {
        // JSON.stringify leaves out fields whose value it cannot write.
        if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue;
        chunk += `${firstField ? '' : ','}${JSON.stringify(key)}:`;
        firstField = false;
        if (!isAsyncIterable(field)) {
          chunk += JSON.stringify(field);
          continue;
        }
        chunk += '[';
        let firstRow = true;
        for await (const row of field) {
          chunk += `${firstRow ? '' : ','}${JSON.stringify(row) ?? 'null'}`;
          firstRow = false;
          if (chunk.length >= JSON_CHUNK_CHARS) {
            yield chunk;
            chunk = '';
          }
        }
        chunk += ']';
      }
      yield `${chunk}}`;
    })(),
    { objectMode: false, encoding: 'utf8' },
  );
}
