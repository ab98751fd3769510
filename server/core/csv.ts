import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { stringify as stringifySync } from 'csv-stringify/sync';

/**
 * CSV for every export (csv-stringify: RFC 4180 quoting, CRLF rows). Cells that a spreadsheet
 * would run as a formula (leading = + - @, tab or CR) are prefixed with a single quote, so an
 * exported signal titled "=HYPERLINK(...)" stays text when the file is opened.
 */

/** Exports answer at most this many rows (the spec's limit). */
export const EXPORT_MAX_ROWS = 5000;
/** List exports read and write this many rows a page (domain/exports/paged.ts says why so few). */
export const EXPORT_PAGE_ROWS = 100;
export const EXPORT_FORMATS = ['csv', 'json'] as const;
/** csv (default) or json. */
export type ExportFormat = 'csv' | 'json';

export type CsvValue = string | number | boolean | null | undefined;
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => CsvValue;
}

/** A cell as text: null/undefined empty, formulas neutralised (strings only: numbers are data). */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

const toRecord = <T>(columns: readonly CsvColumn<T>[], row: T) => columns.map((c) => csvCell(c.value(row)));

/**
 * Header row, then one row per item, as a stream (the controller returns it; Express pipes it).
 * Its chunks are strings (`setEncoding`): a byte stream would copy each row into a Buffer that only a
 * later garbage collection frees, and the tens of MiB of them between collections leave the
 * allocator's heap fragmented (see docs/architecture.md, "Server memory"); the socket writes a
 * string from native memory it frees when the write ends.
 */
export function csvStream<T>(columns: readonly CsvColumn<T>[], rows: Iterable<T> | AsyncIterable<T>): Readable {
  const out = stringify({ record_delimiter: 'windows' });
  out.setEncoding('utf8');
  const source = Readable.from(
    (async function* () {
      yield columns.map((c) => c.header);
      for await (const row of rows) yield toRecord(columns, row);
    })(),
  );
  source.on('error', (err) => out.destroy(err));
  return source.pipe(out);
}

/** Header row and rows as one string (a section of a multi-section export, a test). */
export function csvText<T>(columns: readonly CsvColumn<T>[], rows: Iterable<T>): string {
  return stringifySync([columns.map((c) => c.header), ...Array.from(rows, (r) => toRecord(columns, r))], { record_delimiter: 'windows' });
}

/** `Content-Disposition` for a download: the name ASCII-safe, with the RFC 6266 UTF-8 form too. */
export function attachmentHeader(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
