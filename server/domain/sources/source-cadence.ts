import { FEED_TYPES, pollGating, type PollGating, type SourceType } from './rules';
import type { SourceDeps } from './source-context';

export interface CadenceRow extends PollGating {
  sourceId: string;
  label: string;
  type: SourceType;
  paused: boolean;
}

export interface CadenceOverview {
  /** The workspace's effective loop interval: the cadence of sources without their own interval. */
  workspaceCadenceMinutes: number;
  /** The plan's floor: no source is polled more often than this. */
  planFloorMinutes: number;
  plan: string;
  /** Feed sources, soonest due first; paused sources without an end come last. */
  perSource: CadenceRow[];
}

/** When each feed source is polled next, and why (its own interval or the workspace cadence, the plan floor). */
export class SourceCadence {
  constructor(private readonly d: SourceDeps) {}

  async cadenceOverview(): Promise<CadenceOverview> {
    const p = await this.d.workspace.profile();
    const now = this.d.clock.now();
    const rows = await this.d.db.selectFrom('sources').selectAll().where('type', 'in', FEED_TYPES).execute();
    const perSource = rows
      .map((r) => ({ sourceId: r.id, label: r.label, type: r.type, paused: r.pausedAt !== null, ...pollGating(r, p.effectiveLoopIntervalMinutes, p.planFloorMinutes, now)! }))
      .sort((a, b) => {
        if (a.nextPollAt === b.nextPollAt) return a.label.localeCompare(b.label);
        if (a.nextPollAt === null) return 1;
        if (b.nextPollAt === null) return -1;
        return a.nextPollAt.localeCompare(b.nextPollAt);
      });
    return { workspaceCadenceMinutes: p.effectiveLoopIntervalMinutes, planFloorMinutes: p.planFloorMinutes, plan: p.plan, perSource };
  }
}
