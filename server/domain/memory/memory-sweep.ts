import { inTransaction } from '../../../db/transactions';
import { SYSTEM_ACTOR } from '../activity/activity';
import { emit } from '../events/outbox';
import type { MemoryDeps } from './memory-crud';
import { memoryActivity, updateMemory } from './memory-store';
import { staleRows, withinCutoff } from './memory-usage';
import { MEMORY_SWEEP_BATCH } from './rules';

export interface MemorySweepResult {
  /** The workspace's staleMemoryAutoArchiveDays at the run; null = the sweep is off. */
  thresholdDays: number | null;
  /** Entries archived this run. */
  archived: string[];
}

/**
 * The stale-memory auto-archive sweep (workspace staleMemoryAutoArchiveDays N, 30-365; off when
 * null): archives (archived_at) every live entry not retrieved within the last N workspace days,
 * or, never retrieved, created before them; pinned entries and importance 9 or higher are kept.
 * Each archived entry gets its activity row (`memory.archived`, by `system`) and its
 * `memory.archived` event; archived entries are no longer listed or retrieved by cycles. At most
 * 200 entries per run, in one short transaction that reads the candidates again (a retrieval or a
 * pin since keeps the entry); the next run goes on.
 */
export async function sweepStaleMemory(d: MemoryDeps): Promise<MemorySweepResult> {
  const { db, clock } = d;
  const p = await d.workspace.profile();
  const n = p.staleMemoryAutoArchiveDays;
  if (n === null) return { thresholdDays: null, archived: [] };
  const now = clock.now();
  const cutoff = withinCutoff(now, p.timezone, n);
  const archived = await inTransaction(db, async (trx) => {
    const rows = await staleRows(trx, cutoff, true).orderBy('createdAt').orderBy('id').limit(MEMORY_SWEEP_BATCH).execute();
    const at = now.toISOString();
    for (const row of rows) {
      await updateMemory(trx, row.id, { archivedAt: at });
      const since = row.lastRetrievedAt ? `last retrieved ${row.lastRetrievedAt}` : `never retrieved since ${row.createdAt}`;
      await memoryActivity(trx, clock, SYSTEM_ACTOR, row, 'memory.archived', `Memory “${row.title}” archived by the stale sweep (${since}; threshold ${n} days)`);
      await emit(trx, clock, 'memory.archived', { memoryId: row.id, title: row.title, lastRetrievedAt: row.lastRetrievedAt, thresholdDays: n });
    }
    return rows.map((r) => r.id);
  });
  return { thresholdDays: n, archived };
}
