import type { Db } from '../../../db/connection';
import type { Clock } from '../../core/clock';
import type { WorkspaceService } from '../workspace/workspace-service';
import { getSource, toView, type Cadence, type SourceView } from './source-store';

/** What every sources module needs: the database, the clock and the workspace (for its cadence). */
export interface SourceDeps {
  db: Db;
  clock: Clock;
  workspace: WorkspaceService;
}

/** The cadence views are computed with. Safe inside inTransaction: the profile read joins the open transaction. */
export async function readCadence(d: SourceDeps): Promise<Cadence> {
  const p = await d.workspace.profile();
  return { workspaceCadence: p.effectiveLoopIntervalMinutes, planFloor: p.planFloorMinutes, now: d.clock.now() };
}

/** One source as the API shows it (404 for an unknown id). Pass the transaction when inside one. */
export async function readView(d: SourceDeps, id: string, db: Db = d.db): Promise<SourceView> {
  return toView(await getSource(db, id), await readCadence(d));
}
