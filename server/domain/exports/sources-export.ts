import type { Db } from '../../../db/connection';
import type { CsvColumn } from '../../core/csv';
import { dayWindow } from '../../core/workspace-time';
import { effectiveInterval, isFeedType, quietnessFloorMs, type SourceStatus, type SourceType } from '../sources/rules';
import { toView, type Cadence, type SourceRow } from '../sources/source-store';
import { EXPORT_MAX_ROWS, joinCell, round2 } from './rules';

/**
 * A source's health in one word: `paused` (paused by hand or until a time), `error` (its last poll
 * failed), `pending` (never polled yet), `quiet` (a feed whose polls succeed but which brought no
 * signal beyond its quietness floor), else `healthy`.
 */
export type SourceHealth = 'healthy' | 'quiet' | 'pending' | 'error' | 'paused';

/** One row of GET /workspace/sources-export. */
export interface SourceExportRow {
  id: string;
  type: SourceType;
  label: string;
  url: string | null;
  notes: string | null;
  status: SourceStatus;
  health: SourceHealth;
  paused: boolean;
  /** @format date-time */
  pausedUntilAt: string | null;
  /** The source's own poll interval; null = workspace cadence (and for sources that are not polled). @isInt */
  pollIntervalMinutes: number | null;
  /** The interval the source is polled at (plan floor applied); null for manual and file sources. @isInt */
  effectivePollIntervalMinutes: number | null;
  /** Failed polls in a row. @isInt */
  consecutiveFailures: number;
  lastErrorMessage: string | null;
  /** @format date-time */
  lastSyncedAt: string | null;
  /** @format date-time */
  lastSignalAt: string | null;
  /** Keywords a signal must hold one of (empty: no include filter). */
  includeKeywords: string[];
  /** Keywords that keep a signal out. */
  excludeKeywords: string[];
  /** Signals the source brought over the last 7 workspace-timezone days (today included). @isInt */
  signals7d: number;
  /** signals7d / 7, two decimals. */
  signalsPerDay7d: number;
  /** @format date-time */
  createdAt: string;
}

export interface SourcesExport {
  /** Oldest source first, at most 5000. */
  rows: SourceExportRow[];
  /** Every source. @isInt */
  total: number;
  /** true when total is above the 5000-row cap (the newest sources are left out). */
  capped: boolean;
}

export function sourceHealth(row: SourceRow, c: Cadence): SourceHealth {
  if (row.pausedAt !== null) return 'paused';
  if (row.status === 'error') return 'error';
  if (row.status === 'pending') return 'pending';
  if (isFeedType(row.type) && row.lastSyncedAt !== null && row.consecutiveFailures === 0) {
    const floor = quietnessFloorMs(effectiveInterval(row.pollIntervalMinutes, c.workspaceCadence, c.planFloor));
    if (c.now.getTime() - Date.parse(row.lastSignalAt ?? row.createdAt) > floor) return 'quiet';
  }
  return 'healthy';
}

/** Sources with health and 7-day signal rate: one query for the rows, one grouped count (index signals_source_created). */
export async function exportSources(db: Db, c: Cadence, timezone: string, cap = EXPORT_MAX_ROWS): Promise<SourcesExport> {
  const [rows, count] = await Promise.all([
    db.selectFrom('sources').selectAll().orderBy('createdAt').orderBy('id').limit(cap).execute(),
    db.selectFrom('sources').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const since = dayWindow(c.now, timezone, 7).from.toISOString();
  const rates = await db
    .selectFrom('signals')
    .select((eb) => ['sourceId', eb.fn.countAll<number>().as('n')])
    .where('sourceId', 'is not', null)
    .where('createdAt', '>=', since)
    .groupBy('sourceId')
    .execute();
  const rate = new Map(rates.map((r) => [r.sourceId, Number(r.n)]));
  const total = Number(count.n);
  return {
    rows: rows.map((row) => {
      const v = toView(row, c);
      const signals7d = rate.get(row.id) ?? 0;
      return {
        id: v.id,
        type: v.type,
        label: v.label,
        url: v.url,
        notes: v.notes,
        status: v.status,
        health: sourceHealth(row, c),
        paused: v.paused,
        pausedUntilAt: v.pausedUntilAt,
        pollIntervalMinutes: v.pollIntervalMinutes,
        effectivePollIntervalMinutes: v.pollGating?.intervalMinutes ?? null,
        consecutiveFailures: v.consecutiveFailures,
        lastErrorMessage: v.lastErrorMessage,
        lastSyncedAt: v.lastSyncedAt,
        lastSignalAt: v.lastSignalAt,
        includeKeywords: v.includeKeywords,
        excludeKeywords: v.excludeKeywords,
        signals7d,
        signalsPerDay7d: round2(signals7d / 7),
        createdAt: v.createdAt,
      };
    }),
    total,
    capped: total > cap,
  };
}

/** CSV columns; keyword lists joined with `; `. */
export const SOURCE_CSV_COLUMNS: readonly CsvColumn<SourceExportRow>[] = [
  { header: 'id', value: (r) => r.id },
  { header: 'type', value: (r) => r.type },
  { header: 'label', value: (r) => r.label },
  { header: 'url', value: (r) => r.url },
  { header: 'notes', value: (r) => r.notes },
  { header: 'status', value: (r) => r.status },
  { header: 'health', value: (r) => r.health },
  { header: 'paused', value: (r) => r.paused },
  { header: 'pausedUntilAt', value: (r) => r.pausedUntilAt },
  { header: 'pollIntervalMinutes', value: (r) => r.pollIntervalMinutes },
  { header: 'effectivePollIntervalMinutes', value: (r) => r.effectivePollIntervalMinutes },
  { header: 'consecutiveFailures', value: (r) => r.consecutiveFailures },
  { header: 'lastErrorMessage', value: (r) => r.lastErrorMessage },
  { header: 'lastSyncedAt', value: (r) => r.lastSyncedAt },
  { header: 'lastSignalAt', value: (r) => r.lastSignalAt },
  { header: 'includeKeywords', value: (r) => joinCell(r.includeKeywords) },
  { header: 'excludeKeywords', value: (r) => joinCell(r.excludeKeywords) },
  { header: 'signals7d', value: (r) => r.signals7d },
  { header: 'signalsPerDay7d', value: (r) => r.signalsPerDay7d },
  { header: 'createdAt', value: (r) => r.createdAt },
];
