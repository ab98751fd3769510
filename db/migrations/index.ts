import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation';
import * as m0002 from './0002_signals_sources';
import * as m0003SignalExternalId from './0003_signal_external_id';
import * as m0005FocusShiftsIndex from './0005_focus_shifts_index';

/**
 * Every migration, statically imported so the list survives bundling
 * (Kysely's FileMigrationProvider reads a folder at run time and breaks once bundled).
 * Append new ones; never edit or reorder a shipped one.
 */
export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_signals_sources': m0002,
  '0003_signal_external_id': m0003SignalExternalId,
  // 0004 is taken by the sources area's migration on its branch.
  '0005_focus_shifts_index': m0005FocusShiftsIndex,
};
