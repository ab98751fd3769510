import { EXPORT_MAX_ROWS } from '../../core/csv';
import { invalid } from '../../core/errors';
import { STALE_THRESHOLD_DAYS } from '../tasks/rules';

/**
 * Rules of exports and import. Every list export answers at most EXPORT_MAX_ROWS (5000, the spec)
 * with `total` and `capped`; the full JSON export caps each collection (CAPS) and says so per
 * collection; an import reads what GET /workspace/export writes (EXPORT_FORMAT, EXPORT_VERSION).
 */
export { EXPORT_MAX_ROWS };

/** GET /workspace/stale-tasks-export thresholdDays (spec: 1-60, default 5; the stale list's range). */
export const STALE_EXPORT_THRESHOLD = STALE_THRESHOLD_DAYS;

/** What `format` a full export file carries, so an import knows what it reads. */
export const EXPORT_FILE_FORMAT = 'desk.workspace-export';
/** Bumped when the file's shape changes in a way an older importer cannot read. */
export const EXPORT_VERSION = 1;

/**
 * Rows per collection in the full export, newest first. Sources and memory are small and go whole
 * up to the list cap; signals (possibly 100k) go as the newest 10,000 with the total counted.
 */
export const FULL_EXPORT_CAPS = {
  sources: EXPORT_MAX_ROWS,
  signals: 10_000,
  tasks: EXPORT_MAX_ROWS,
  artifacts: EXPORT_MAX_ROWS,
  memory: EXPORT_MAX_ROWS,
  runs: 200,
  activity: 1_000,
} as const;
/** Source evidence: each source's newest signals (id, title, link) listed in the appendix. */
export const EVIDENCE_SIGNALS_PER_SOURCE = 20;

/** Items an import reads per category (a file above it is refused whole, 422 naming the collection). */
export const IMPORT_MAX_ITEMS = { sources: EXPORT_MAX_ROWS, signals: FULL_EXPORT_CAPS.signals, memory: EXPORT_MAX_ROWS } as const;
/** The import report lists at most this many skipped items (the counts cover them all). */
export const IMPORT_REPORT_MAX_ITEMS = 200;

export const IMPORT_CATEGORIES = ['sources', 'signals', 'memory'] as const;
export type ImportCategory = (typeof IMPORT_CATEGORIES)[number];

/** `true` when `value` is absent; else it must be a boolean. */
export function checkFlag(field: string, value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'boolean') throw invalid(field, 'must be true or false');
  return value;
}

/** A list of strings joined into one CSV cell (keywords, tags): `; ` between items. */
export const joinCell = (items: readonly string[]) => items.join('; ');

export const round2 = (n: number) => Math.round(n * 100) / 100;
