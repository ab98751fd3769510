/**
 * The overview bench: GET /workspace/today, /workspace/summary and /workspace/whats-new at 100,000
 * signals (spread over 60 days, so today's windows hold ~1,700 and the 30-day whats-new window half
 * of them), 10,000 tasks, 2,000 outputs, 5,000 activity rows; p50 and p99 over 200 requests each
 * (target p99 under 50 ms). A desk of its own; rows written straight to the database, deterministic.
 */
import { performance } from 'node:perf_hooks';
import { inTransaction, type Trx } from '../../db/transactions';
import { insertActivityRows } from '../domain/activity/activity';
import { insertArtifactRows } from '../domain/artifacts/artifact-store';
import { insertSignalRows } from '../domain/signals/signal-store';
import { insertTaskRows, newTaskDefaults } from '../domain/tasks/task-store';
import { startTestDesk, type TestDesk } from '../testing/desk';

export interface OverviewBenchResult {
  name: string;
  value: number;
  unit: string;
  target: number;
}

export const OVERVIEW_P99_TARGET_MS = 50;
const SIGNALS = 100_000;
const TASKS = 10_000;
const ARTIFACTS = 2_000;
const ACTIVITY = 5_000;
const REQUESTS = 200;
const SPAN_MS = 60 * 24 * 3_600_000;
const STATUSES = ['queued', 'in_progress', 'needs_input', 'done', 'archived'] as const;

/** Writes the bench's rows into a fresh test desk. */
export async function seedOverview(desk: TestDesk): Promise<void> {
    const db = desk.services.db;
    const now = desk.clock.now().getTime();
    const iso = (ms: number) => new Date(ms).toISOString();
    const spread = (i: number, n: number) => now - Math.floor((i * SPAN_MS) / n) - 1;
    await inTransaction(db, async (trx) => {
      const batch = async <T>(insert: (trx: Trx, rows: T[]) => Promise<void>, n: number, row: (i: number) => T) => {
        for (let i = 0; i < n; i += 500) {
          const rows = Array.from({ length: Math.min(500, n - i) }, (_, k) => row(i + k));
          await insert(trx, rows);
        }
      };
      await batch(insertSignalRows, SIGNALS, (i) => ({
        id: `sig_ob${String(i).padStart(6, '0')}`,
        kind: 'news' as const,
        priority: 'normal' as const,
        title: `Signal ${i}`,
        detail: 'Detail',
        sourceUrl: null,
        sourceId: null,
        pinned: 0,
        createdAt: iso(spread(i, SIGNALS)),
        triagedAt: i % 50 === 0 ? null : iso(now),
      }));
      await batch(insertTaskRows, TASKS, (i) => ({
        id: `tsk_ob${String(i).padStart(5, '0')}`,
        title: `Task ${i}`,
        summary: '',
        kind: null,
        deliverableType: null,
        priority: null,
        dueAt: null,
        assignedToUserId: null,
        goal: '',
        context: '',
        ...newTaskDefaults(iso(spread(i, TASKS))),
        status: STATUSES[i % STATUSES.length],
      }));
      await batch(insertArtifactRows, ARTIFACTS, (i) => {
        const at = spread(i, ARTIFACTS);
        const decided = i % 3 !== 0;
        return {
          id: `art_ob${String(i).padStart(5, '0')}`,
          taskId: null,
          runId: null,
          parentArtifactId: null,
          version: 1,
          kind: 'report' as const,
          title: `Output ${i}`,
          content: 'Body',
          status: decided ? (i % 2 ? ('approved' as const) : ('archived' as const)) : ('ready' as const),
          readyAt: iso(at),
          decidedAt: decided ? iso(at + 3_600_000) : null,
          createdAt: iso(at),
          updatedAt: iso(at),
        };
      });
      await batch(insertActivityRows, ACTIVITY, (i) => ({
        id: `act_ob${String(i).padStart(5, '0')}`,
        kind: 'signal.created' as const,
        detail: `Signal ${i}`,
        actorUserId: null,
        actorLabel: 'Desk',
        entityType: 'signal',
        entityId: `sig_ob${i}`,
        createdAt: iso(spread(i, ACTIVITY)),
      }));
    });
}

export async function benchOverview(): Promise<OverviewBenchResult[]> {
  const desk = await startTestDesk();
  try {
    await seedOverview(desk);
    const now = desk.clock.now().getTime();
    const iso = (ms: number) => new Date(ms).toISOString();
    const measure = async (name: string, path: string, check: (body: { [k: string]: unknown }) => boolean): Promise<OverviewBenchResult[]> => {
      const times: number[] = [];
      for (let i = 0; i < REQUESTS + 20; i++) {
        const t0 = performance.now();
        const res = await desk.api('GET', path);
        const ms = performance.now() - t0;
        if (res.status !== 200 || !check(res.body)) throw new Error(`${name}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        if (i >= 20) times.push(ms); // the first requests warm the statement cache
      }
      times.sort((a, b) => a - b);
      const at = (p: number) => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)];
      return [
        { name: `${name} @100k signals p50`, value: at(50), unit: 'ms', target: OVERVIEW_P99_TARGET_MS },
        { name: `${name} @100k signals p99`, value: at(99), unit: 'ms', target: OVERVIEW_P99_TARGET_MS },
      ];
    };
    const since = encodeURIComponent(iso(now - 40 * 24 * 3_600_000)); // clamped to 30 days
    return [
      ...(await measure('GET /workspace/today', '/api/v1/workspace/today', (b) => (b.today as { signals: number }).signals > 0)),
      ...(await measure('GET /workspace/summary', '/api/v1/workspace/summary', (b) => (b.signals as { total: number }).total === SIGNALS)),
      ...(await measure('GET /workspace/whats-new (30 days)', `/api/v1/workspace/whats-new?since=${since}`, (b) => b.clamped === true)),
    ];
  } finally {
    await desk.stop();
  }
}
