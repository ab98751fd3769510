import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseCsv } from 'csv-parse/sync';
import { FeedError } from './feed-error';
import { FEED_MAX_BYTES } from './fetch-feed';

/** One file holds at most this many records; a bigger file is rejected rather than half-imported. */
export const MAX_FILE_RECORDS = 5000;

/** The fields a signal file may carry (CSV header names or JSON keys, matched case-insensitively). */
export const FILE_FIELDS = ['title', 'detail', 'kind', 'priority', 'sourceUrl', 'externalId'] as const;
export type FileField = (typeof FILE_FIELDS)[number];

export interface FileRecord {
  /** 1-based record number (CSV: the line the record starts on; JSON: position in the array). */
  row: number;
  values: Partial<Record<FileField, string>>;
}

export interface ParsedFile {
  format: 'csv' | 'json';
  records: FileRecord[];
}

/**
 * A file source's url: an absolute path or a file:// URL, ending in .csv or .json.
 * Returns the path, or null when the value is not such a location.
 */
export function filePathOf(location: string): string | null {
  let file: string;
  try {
    file = location.startsWith('file:') ? fileURLToPath(location) : location;
  } catch {
    return null;
  }
  if (!path.isAbsolute(file)) return null;
  return /\.(csv|json)$/i.test(file) ? file : null;
}

/**
 * The one spelling of a file source's file, by which file sources are unique (the `file_path`
 * column and its unique index): the absolute path `filePathOf` gives, resolved (`.`, `..`,
 * repeated and trailing separators folded), so `/a/x.csv`, `/a/./x.csv`, `/a//x.csv` and
 * `file:///a/x.csv` are one file. Case-folded on Windows, whose file names ignore case. Symbolic
 * links are not followed (a file may move). Migration 0007 keeps a frozen copy of this rule for the
 * rows it fills; db/migrations.test.ts checks the two agree.
 */
export function filePathKey(location: string): string | null {
  const file = filePathOf(location);
  if (file === null) return null;
  const resolved = path.resolve(file);
  return process.platform === 'win32' ? resolved.toLowerCase() : resolved;
}

const canonical = new Map<string, FileField>(FILE_FIELDS.map((f) => [f.toLowerCase().replace(/[_\s-]/g, ''), f]));
const fieldOf = (name: string): FileField | undefined => canonical.get(name.trim().toLowerCase().replace(/[_\s-]/g, ''));

function stringValue(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

function recordsFromCsv(text: string): FileRecord[] {
  let rows: { info: { lines: number }; record: Record<string, string> }[];
  let hasTitle = false;
  try {
    rows = parseCsv(text, {
      bom: true,
      columns: (header: string[]) => {
        const names = header.map((h) => fieldOf(h) ?? `ignored:${h}`);
        hasTitle = names.includes('title');
        return names;
      },
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
      info: true,
    }) as never;
  } catch (err) {
    throw new FeedError('file_invalid', `The CSV file cannot be read: ${(err as Error).message}`);
  }
  if (rows.length > 0 && !hasTitle) {
    throw new FeedError('file_invalid', `The CSV header needs a title column (known columns: ${FILE_FIELDS.join(', ')})`);
  }
  return rows.map(({ info, record }) => {
    const values: FileRecord['values'] = {};
    for (const f of FILE_FIELDS) if (record[f] !== undefined && record[f] !== '') values[f] = record[f];
    return { row: info.lines, values };
  });
}

function recordsFromJson(text: string): FileRecord[] {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new FeedError('file_invalid', `The JSON file cannot be read: ${(err as Error).message}`);
  }
  const list = Array.isArray(data)
    ? data
    : data && typeof data === 'object'
      ? ((data as Record<string, unknown>).items ?? (data as Record<string, unknown>).signals)
      : undefined;
  if (!Array.isArray(list)) throw new FeedError('file_invalid', 'The JSON file must hold an array of signals, or an object with an "items" array');
  return list.map((entry, i) => {
    const values: FileRecord['values'] = {};
    if (entry && typeof entry === 'object' && !Array.isArray(entry)) {
      for (const [k, v] of Object.entries(entry as Record<string, unknown>)) {
        const f = fieldOf(k);
        const s = stringValue(v);
        if (f && s !== undefined && s !== '') values[f] = s;
      }
    }
    return { row: i + 1, values };
  });
}

/** Reads a CSV or JSON signal file (at most 5 MB and 5000 records). Failures are FeedErrors. */
export async function readSignalFile(location: string, maxBytes = FEED_MAX_BYTES): Promise<ParsedFile> {
  const file = filePathOf(location);
  if (!file) throw new FeedError('file_unreadable', 'The location must be an absolute path or file:// URL of a .csv or .json file');
  let size: number;
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) throw new Error('not a regular file');
    size = stat.size;
  } catch (err) {
    const code = (err as { code?: string }).code;
    throw new FeedError('file_unreadable', `Cannot read ${file} (${code === 'ENOENT' ? 'no such file' : (code ?? (err as Error).message)})`);
  }
  if (size > maxBytes) throw new FeedError('file_invalid', `${file} is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
  const text = await fs.readFile(file, 'utf8').catch((err: { code?: string }) => {
    throw new FeedError('file_unreadable', `Cannot read ${file} (${err.code ?? 'error'})`);
  });
  const format = /\.csv$/i.test(file) ? 'csv' : 'json';
  const records = format === 'csv' ? recordsFromCsv(text) : recordsFromJson(text);
  if (records.length > MAX_FILE_RECORDS) {
    throw new FeedError('file_invalid', `${file} holds ${records.length} records; at most ${MAX_FILE_RECORDS} per file`);
  }
  return { format, records };
}
