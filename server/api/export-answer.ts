import { Readable } from 'node:stream';
import type { Controller } from '@tsoa/runtime';
import { attachmentHeader, csvStream, type CsvColumn, type ExportFormat } from '../core/csv';

export type { ExportFormat };

/**
 * Answers an export in the asked format as a download named `<name>.<format>`, with `X-Export-Total`
 * and `X-Export-Capped` when the answer has `total` / `capped`: JSON as the value
 * itself (tsoa serialises it), CSV streamed from the rows with the columns given (or a text already
 * written with server/core/csv.ts, e.g. a multi-section file).
 */
export function exportAnswer<T, J>(controller: Controller, name: string, format: ExportFormat, json: J, csv: { columns: readonly CsvColumn<T>[]; rows: Iterable<T> } | { text: string }): J | Readable {
  controller.setHeader('Content-Disposition', attachmentHeader(`${name}.${format}`));
  // A CSV has no room for the totals: the headers carry them, for either format.
  if (typeof json === 'object' && json !== null) {
    if ('total' in json) controller.setHeader('X-Export-Total', String(json.total));
    if ('capped' in json) controller.setHeader('X-Export-Capped', String(json.capped));
  }
  if (format === 'json') return json;
  controller.setHeader('Content-Type', 'text/csv; charset=utf-8');
  return 'text' in csv ? Readable.from([csv.text]) : csvStream(csv.columns, csv.rows);
}
