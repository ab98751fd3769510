/**
 * Each export at its 5000-row cap. A year-old workspace has 200 sources and a few hundred open
 * tasks, so on a copy of its own the sources export is topped up with sources to the cap and the
 * stale-tasks export with open tasks (both through the domain services) to one past it, then the
 * clock moves past the stale threshold. The cost export has no X-Export-Total: its rows are counted
 * in its JSON form. Every other export's rows are the dataset's own.
 */
import { inTransaction } from '../../../db/transactions';
import { EXPORT_MAX_ROWS } from '../../domain/exports/rules';
import { STALE_THRESHOLD_DAYS } from '../../domain/tasks/rules';
import { ManualClock } from '../../core/clock';
import { startTestDesk } from '../../testing/desk';
import { fetchRetry, sequential, type Latency } from '../measure';
import { copyToFreshDir, DATASET_END } from './dataset';

/** The capped exports, then the whole-workspace export (GET /workspace/export: JSON, no cap; what import reads back). */
export const EXPORTS = ['sources-export', 'activity-export', 'artifacts-export', 'decisions-export', 'stale-tasks-export', 'memory-export', 'cost-export', 'export'] as const;

export interface ExportFigure {
  path: string;
  latency: Latency;
  rows: number;
  capped: boolean;
  /** Size of the answer (csv by default; the whole export is JSON). */
  bytes: number;
  /** Rows added to this copy so the export reaches its cap (0: the dataset's own rows). */
  toppedUp: number;
}

const DAY_MS = 86_400_000;

export async function measureExportsAtCap(file: string): Promise<ExportFigure[]> {
  const clock = new ManualClock(DATASET_END);
  const desk = await startTestDesk({ dataDir: copyToFreshDir(file), ownsDataDir: true, clock });
  try {
    const s = desk.services;
    const count = async (table: 'sources' | 'tasks', open = false) => {
      let q = s.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
      if (open) q = q.where('status' as never, 'in', ['queued', 'in_progress'] as never);
      return Number((await q.executeTakeFirstOrThrow()).n);
    };
    const sourcesAdded = Math.max(0, EXPORT_MAX_ROWS + 1 - (await count('sources')));
    const tasksAdded = Math.max(0, EXPORT_MAX_ROWS + 1 - (await count('tasks', true)));
    await inTransaction(s.db, async () => {
      for (let i = 0; i < sourcesAdded; i++) await s.sources.create({ type: 'manual', label: `Partner list ${i}`, notes: 'Added for the export at its cap' });
      for (let i = 0; i < tasksAdded; i++) await s.tasks.create({ title: `Follow up on backlog item ${i}`, summary: 'An open task nobody has touched since.' });
    });
    // Every open task is now older than the default threshold (the scheduler does not run here, so nothing is swept).
    clock.advance((STALE_THRESHOLD_DAYS.default + 1) * DAY_MS);
    const out: ExportFigure[] = [];
    for (const e of EXPORTS) {
      let rows = NaN;
      let capped = false;
      let bytes = 0;
      const latency = await sequential(5, async () => {
        const res = await fetchRetry(`${desk.url}/api/v1/workspace/${e}`, { headers: { authorization: `Bearer ${desk.token}` } });
        if (res.status !== 200) throw new Error(`${e}: HTTP ${res.status}`);
        const body = await res.arrayBuffer();
        bytes = body.byteLength;
        rows = Number(res.headers.get('x-export-total') ?? NaN);
        capped = res.headers.get('x-export-capped') === 'true';
      }, 1);
      if (e === 'cost-export') {
        const json = (await desk.api('GET', `/api/v1/workspace/${e}?format=json`)).body as Record<string, unknown>;
        rows = ['daily', 'byTask', 'bySource', 'byAssignee'].reduce((n, k) => n + (Array.isArray(json[k]) ? json[k].length : 0), 0);
        capped = json.capped === true;
      }
      out.push({ path: e, latency, rows, capped, bytes, toppedUp: e === 'sources-export' ? sourcesAdded : e === 'stale-tasks-export' ? tasksAdded : 0 });
    }
    return out;
  } finally {
    await desk.stop();
  }
}
