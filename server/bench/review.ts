/**
 * The review queue bench: GET /artifacts?status=ready with every aggregate at 10,000 artifacts
 * (8,000 waiting over 20 tasks of 4 reviewers and no one, 2,000 decided in the last 30 days),
 * p50 and p99 over 300 requests (target p99 under 50 ms). A desk of its own; rows are written
 * straight to the database, deterministic.
 */
import { performance } from 'node:perf_hooks';
import { inTransaction } from '../../db/transactions';
import { insertArtifactRows } from '../domain/artifacts/artifact-store';
import { insertUsers, updateUser } from '../domain/members/member-store';
import { insertTaskRows, newTaskDefaults } from '../domain/tasks/task-store';
import { startTestDesk } from '../testing/desk';

export interface ReviewBenchResult {
  name: string;
  value: number;
  unit: string;
  target: number;
}

export const REVIEW_QUEUE_P99_TARGET_MS = 50;
const READY = 8000;
const DECIDED = 2000;
const REQUESTS = 300;
const HOUR = 3_600_000;

export async function benchReview(): Promise<ReviewBenchResult[]> {
  const desk = await startTestDesk();
  try {
    const db = desk.services.db;
    const now = desk.clock.now().getTime();
    const iso = (ms: number) => new Date(ms).toISOString();
    await inTransaction(db, async (trx) => {
      const reviewers = ['usr_rb1', 'usr_rb2', 'usr_rb3', 'usr_rb4'];
      await insertUsers(trx, reviewers.map((id, i) => ({ id, name: `Reviewer ${i + 1}`, email: null, role: 'editor' as const, createdAt: iso(now) })));
      await updateUser(trx, 'usr_rb4', { availability: 'away' });
      const tasks = Array.from({ length: 20 }, (_, i) => `tsk_rb${i}`);
      await insertTaskRows(
        trx,
        tasks.map((id, i) => ({ id, title: `Task ${i}`, summary: '', kind: null, deliverableType: null, priority: null, dueAt: null, assignedToUserId: i % 5 === 4 ? null : reviewers[i % 4], goal: '', context: '', ...newTaskDefaults(iso(now)) })),
      );
      const rows = [];
      for (let i = 0; i < READY + DECIDED; i++) {
        const ready = i < READY;
        const readyAt = now - ((i * 7919) % (200 * HOUR));
        const decidedAt = ready ? null : Math.min(now, readyAt + ((i * 104729) % (100 * HOUR)));
        rows.push({
          id: `art_rb${String(i).padStart(5, '0')}`,
          taskId: tasks[i % tasks.length],
          version: 1,
          kind: 'report' as const,
          title: `Output ${i}`,
          content: 'Body',
          status: ready ? ('ready' as const) : i % 3 === 0 ? ('archived' as const) : ('approved' as const),
          pinned: i % 500 === 0 ? 1 : 0,
          readyAt: iso(readyAt),
          decidedAt: decidedAt === null ? null : iso(decidedAt),
          createdAt: iso(readyAt),
          updatedAt: iso(readyAt),
        });
      }
      for (let i = 0; i < rows.length; i += 500) await insertArtifactRows(trx, rows.slice(i, i + 500));
    });
    const times: number[] = [];
    for (let i = 0; i < REQUESTS + 20; i++) {
      const t0 = performance.now();
      const res = await desk.api('GET', '/api/v1/artifacts?status=ready');
      const ms = performance.now() - t0;
      if (res.status !== 200 || res.body.approvalAging.waiting !== READY) throw new Error(`review queue: HTTP ${res.status}`);
      if (i >= 20) times.push(ms); // the first requests warm the statement cache
    }
    times.sort((a, b) => a - b);
    const at = (p: number) => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)];
    return [
      { name: 'GET /artifacts?status=ready + aggregates @10k p50', value: at(50), unit: 'ms', target: REVIEW_QUEUE_P99_TARGET_MS },
      { name: 'GET /artifacts?status=ready + aggregates @10k p99', value: at(99), unit: 'ms', target: REVIEW_QUEUE_P99_TARGET_MS },
    ];
  } finally {
    await desk.stop();
  }
}
