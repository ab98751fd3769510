import { DeskError, invalid } from '../../core/errors';
import { parseIso } from '../../core/workspace-time';
import { filePathKey } from '../../integrations/feeds/file-import';
import { checkImportance, checkKind as checkMemoryKind, checkMemoryText, MEMORY_CONTENT, MEMORY_TITLE, normaliseMemoryTags, type MemoryKind } from '../memory/rules';
import { checkExternalId, checkSignalInput } from '../signals/signal-rules';
import type { SignalKind, SignalPriority } from '../signals/signal-store';
import { checkLabel, checkNotes, checkPollInterval, checkSourceUrl, checkType, isFeedType, normaliseKeywords, type SourceType } from '../sources/rules';
import { EXPORT_FILE_FORMAT, EXPORT_VERSION, IMPORT_MAX_ITEMS, type ImportCategory } from './rules';

/**
 * Reading an export file for POST /workspace/import, before anything is written. Two kinds of
 * problem: the file is not an export this desk reads (not an object, another format or version, a
 * collection that is not an array or is too long, an item that is not an object, a field of the
 * wrong JSON type): 422 naming the path (`data.signals[3].title`), nothing imported. An item whose
 * values break a rule of this desk (a title too long, an unknown kind, a bad URL) is skipped as
 * `invalid` with the field named, and the rest is imported.
 */

export interface ImportSource {
  index: number;
  /** The exporting desk's id (only to link signals; never reused). */
  id: string;
  type: SourceType;
  label: string;
  url: string | null;
  notes: string | null;
  pollIntervalMinutes: number | null;
  includeKeywords: string[];
  excludeKeywords: string[];
  /** file sources: the file's path in its one spelling. */
  filePath: string | null;
}

export interface ImportSignal {
  index: number;
  id: string;
  kind: SignalKind;
  priority: SignalPriority;
  title: string;
  detail: string;
  sourceUrl: string | null;
  sourceId: string | null;
  externalId: string | null;
  pinned: boolean;
  /** The item's own publication time; files of desks before it was exported have none. */
  publishedAt: string | null;
  createdAt: string;
}

export interface ImportMemory {
  index: number;
  id: string;
  kind: MemoryKind;
  title: string;
  content: string;
  importance: number | null;
  pinned: boolean;
  tags: string[];
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An item left out of the import, and why. */
export interface SkippedItem {
  category: ImportCategory;
  /** Position in the file's collection. @isInt */
  index: number;
  /** The item's id in the file. */
  id: string;
  reason: 'duplicate' | 'invalid';
  /** The field at fault (`signals[3].title`) for `invalid`; null for a duplicate. */
  field: string | null;
  message: string;
}

export interface ImportFile {
  version: number;
  exportedAt: string | null;
  sources: ImportSource[];
  signals: ImportSignal[];
  memory: ImportMemory[];
  /** Items that break a rule of this desk. */
  invalid: SkippedItem[];
}

type FieldType = 'string' | 'string?' | 'number?' | 'boolean?' | 'strings?';
const SHAPES: Record<ImportCategory, Record<string, FieldType>> = {
  sources: { id: 'string', type: 'string', label: 'string', url: 'string?', notes: 'string?', pollIntervalMinutes: 'number?', includeKeywords: 'strings?', excludeKeywords: 'strings?' },
  signals: { id: 'string', kind: 'string', priority: 'string', title: 'string', detail: 'string', sourceUrl: 'string?', sourceId: 'string?', externalId: 'string?', pinned: 'boolean?', publishedAt: 'string?', createdAt: 'string' },
  memory: { id: 'string', kind: 'string', title: 'string', content: 'string', importance: 'number?', pinned: 'boolean?', tags: 'strings?', archivedAt: 'string?', createdAt: 'string', updatedAt: 'string?' },
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkShape(item: unknown, path: string, shape: Record<string, FieldType>): Record<string, unknown> {
  if (!isObject(item)) throw invalid(path, 'must be an object');
  for (const [field, type] of Object.entries(shape)) {
    const v = item[field];
    const at = `${path}.${field}`;
    const optional = type.endsWith('?');
    if (v === undefined || v === null) {
      if (!optional) throw invalid(at, 'is required');
      continue;
    }
    const base = type.replace('?', '');
    if (base === 'strings') {
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw invalid(at, 'must be an array of strings');
    } else if (typeof v !== base) {
      throw invalid(at, `must be a ${base}`);
    }
  }
  if ((item.id as string).length === 0) throw invalid(`${path}.id`, 'must not be empty');
  return item;
}

/** Runs a rule check of one item; a rule broken makes it a skipped `invalid` item naming the field. */
function ruled<T>(category: ImportCategory, index: number, id: string, invalidItems: SkippedItem[], check: () => T): T | null {
  try {
    return check();
  } catch (err) {
    if (!(err instanceof DeskError) || err.status !== 422) throw err;
    const field = err.details?.[0]?.field ?? null;
    invalidItems.push({ category, index, id, reason: 'invalid', field: field && `${category}[${index}].${field}`, message: err.details?.[0]?.message ?? err.message });
    return null;
  }
}

const iso = (field: string, value: string) => parseIso(field, value).toISOString();

function readSource(raw: Record<string, unknown>, index: number): ImportSource {
  const type = checkType(raw.type as string);
  const url = checkSourceUrl(type, raw.url as string | null | undefined);
  const interval = checkPollInterval((raw.pollIntervalMinutes as number | null | undefined) ?? null);
  if (interval !== null && !isFeedType(type)) throw invalid('pollIntervalMinutes', `applies to feed sources only, not ${type}`);
  return {
    index,
    id: raw.id as string,
    type,
    label: checkLabel(raw.label),
    url,
    notes: checkNotes(raw.notes as string | null | undefined),
    pollIntervalMinutes: interval,
    includeKeywords: normaliseKeywords((raw.includeKeywords as string[] | undefined) ?? [], 'includeKeywords'),
    excludeKeywords: normaliseKeywords((raw.excludeKeywords as string[] | undefined) ?? [], 'excludeKeywords'),
    filePath: type === 'file' ? filePathKey(url!) : null,
  };
}

function readSignal(raw: Record<string, unknown>, index: number): ImportSignal {
  const checked = checkSignalInput({ kind: raw.kind as string, priority: raw.priority as string, title: raw.title as string, detail: raw.detail as string, sourceUrl: raw.sourceUrl as string | null | undefined });
  return {
    index,
    id: raw.id as string,
    kind: checked.kind,
    priority: checked.priority,
    title: checked.title,
    detail: checked.detail,
    sourceUrl: checked.sourceUrl ?? null,
    sourceId: (raw.sourceId as string | null | undefined) ?? null,
    externalId: typeof raw.externalId === 'string' ? checkExternalId('externalId', raw.externalId) : null,
    pinned: raw.pinned === true,
    publishedAt: typeof raw.publishedAt === 'string' ? iso('publishedAt', raw.publishedAt) : null,
    createdAt: iso('createdAt', raw.createdAt as string),
  };
}

function readMemory(raw: Record<string, unknown>, index: number): ImportMemory {
  const createdAt = iso('createdAt', raw.createdAt as string);
  return {
    index,
    id: raw.id as string,
    kind: checkMemoryKind(raw.kind),
    title: checkMemoryText('title', raw.title, MEMORY_TITLE),
    content: checkMemoryText('content', raw.content, MEMORY_CONTENT),
    importance: checkImportance(raw.importance),
    pinned: raw.pinned === true,
    tags: normaliseMemoryTags(raw.tags ?? []),
    archivedAt: typeof raw.archivedAt === 'string' ? iso('archivedAt', raw.archivedAt) : null,
    createdAt,
    updatedAt: typeof raw.updatedAt === 'string' ? iso('updatedAt', raw.updatedAt) : createdAt,
  };
}

const READERS = { sources: readSource, signals: readSignal, memory: readMemory } as const;

/** Reads the whole file (only the categories asked) or throws the 422 of the first shape problem. */
export function readImportFile(data: unknown, categories: Record<ImportCategory, boolean>): ImportFile {
  if (!isObject(data)) throw invalid('data', 'must be the JSON object GET /workspace/export writes');
  if (data.format !== EXPORT_FILE_FORMAT) throw invalid('data.format', `must be "${EXPORT_FILE_FORMAT}" (a file written by GET /workspace/export)`);
  if (typeof data.version !== 'number' || !Number.isInteger(data.version) || data.version < 1 || data.version > EXPORT_VERSION) {
    throw invalid('data.version', `must be an export version this desk reads (1 to ${EXPORT_VERSION})`);
  }
  const file: ImportFile = { version: data.version, exportedAt: typeof data.exportedAt === 'string' ? data.exportedAt : null, sources: [], signals: [], memory: [], invalid: [] };
  for (const category of ['sources', 'signals', 'memory'] as const) {
    if (!categories[category]) continue;
    const list = data[category];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw invalid(`data.${category}`, 'must be an array');
    if (list.length > IMPORT_MAX_ITEMS[category]) throw invalid(`data.${category}`, `must hold at most ${IMPORT_MAX_ITEMS[category]} items`);
    const items = list.map((item, i) => checkShape(item, `data.${category}[${i}]`, SHAPES[category]));
    items.forEach((raw, i) => {
      const read = ruled(category, i, raw.id as string, file.invalid, () => READERS[category](raw, i));
      if (read !== null) (file[category] as (typeof read)[]).push(read);
    });
  }
  return file;
}
