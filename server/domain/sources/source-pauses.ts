import { inTransaction } from '../../../db/transactions';
import { HOUR_MS } from '../../core/clock';
import { SYSTEM_ACTOR } from '../activity/activity';
import { resolveActor } from '../members/resolve-actor';
import { checkScheduledPause } from '../workspace/rules';
import type { SourceType } from './rules';
import { readView, type SourceDeps } from './source-context';
import { getSource, type SourceView } from './source-store';
import { pauseSource, resumeSource } from './source-transitions';

export interface ScheduledPauseRow {
  sourceId: string;
  label: string;
  type: SourceType;
  pausedUntilAt: string;
  /** Hours until the source resumes, one decimal. */
  hoursUntilResume: number;
}

/** Scheduled pauses: pause until a time, the list of them, and the sweep that ends them. */
export class SourcePauses {
  constructor(private readonly d: SourceDeps) {}

  /**
   * Pauses a source until a time (future, at most 14 days ahead); it resumes by itself then.
   * Null clears any pause and resumes at once. Both go through the one pause/resume transition.
   */
  async setPauseUntil(id: string, pausedUntilAt: string | null): Promise<SourceView> {
    const { db, clock, workspace } = this.d;
    // A date alone is the start of that day in the workspace timezone, as for the workspace pause.
    const until = pausedUntilAt === null ? null : checkScheduledPause('pausedUntilAt', pausedUntilAt, clock.now(), (await workspace.profile()).timezone);
    return inTransaction(db, async (trx) => {
      const row = await getSource(trx, id);
      const actor = await resolveActor(trx);
      if (until === null) await resumeSource(trx, clock, row, actor, 'pause cleared');
      else await pauseSource(trx, clock, row, until, actor);
      return readView(this.d, id, trx);
    });
  }

  async scheduledPaused(): Promise<{ sources: ScheduledPauseRow[] }> {
    const now = this.d.clock.now().getTime();
    const rows = await this.d.db
      .selectFrom('sources')
      .select(['id', 'label', 'type', 'pausedUntilAt'])
      .where('pausedUntilAt', 'is not', null)
      .orderBy('pausedUntilAt')
      .orderBy('id')
      .execute();
    return {
      sources: rows.map((r) => ({
        sourceId: r.id,
        label: r.label,
        type: r.type,
        pausedUntilAt: r.pausedUntilAt!,
        hoursUntilResume: Math.max(0, Math.round(((new Date(r.pausedUntilAt!).getTime() - now) / HOUR_MS) * 10) / 10),
      })),
    };
  }

  /**
   * Scheduler job: resumes sources whose scheduled pause has run out, through the one resume
   * transition (a feed that was failing stays `error` with its backoff).
   */
  async resumeExpiredPauses(): Promise<string[]> {
    const { db, clock } = this.d;
    const nowIso = clock.now().toISOString();
    return inTransaction(db, async (trx) => {
      const rows = await trx.selectFrom('sources').selectAll().where('pausedUntilAt', 'is not', null).where('pausedUntilAt', '<=', nowIso).execute();
      for (const row of rows) await resumeSource(trx, clock, row, SYSTEM_ACTOR, `scheduled pause until ${row.pausedUntilAt} ended`);
      return rows.map((r) => r.id);
    });
  }
}
