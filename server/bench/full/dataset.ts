/**
 * The full-size dataset: a year-old workspace built through the domain services on a ManualClock.
 *
 * Timeline (scale 1): day 0 the owner invites 5 members and adds 200 sources; every day of the
 * year 100k/365 signals arrive through the inbound webhook path (signals.receive, batches of 100,
 * each signal naming its source, half with an externalId). The last 90 days run two cycles a day
 * through the real cycle runner (runCycle -> applyCycle) with a scripted engine (bench-engine.ts):
 * it turns new signals into tasks (20k), drafts outputs (10k) from memory it retrieves, writes
 * memory (5k) and charges the cost ledger on every dimension (task, source, tag, assignee, memory).
 * Between cycles the team works: notes, comments, assignments and blockers on tasks, and ~90% of
 * outputs decided (approved or archived) the day after. Ten days before the end 20 outbound
 * subscriptions start receiving deliveries on a 127.0.0.1 receiver. Activity rows and outbox
 * events are those the changes write.
 *
 * Content and counts are seeded; ids are the product's own (ulid with fresh randomness), so two
 * builds differ in ids only. The built database is cached per (GENERATOR_VERSION, scale).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { inTransaction } from '../../../db/transactions';
import { ManualClock } from '../../core/clock';
import { runCycle } from '../../domain/loop/cycle';
import { readInboundDelivery } from '../../domain/signals/signal-rules';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { rng } from '../measure';
import { BenchEngine, WORDS } from './bench-engine';

/** Bump when what the generator builds changes: the cache key. */
export const GENERATOR_VERSION = 1;
const DAY = 86_400_000;
export const DATASET_START = '2025-11-23T06:00:00.000Z';
export const DATASET_DAYS = 365;
/** The bench's "now": an hour before the end of the dataset's last day. */
export const DATASET_END = new Date(Date.parse(DATASET_START) + DATASET_DAYS * 86_400_000 - 3_600_000).toISOString();
const CYCLE_DAYS = 90;
const CYCLES_PER_DAY = 2;
const SUBSCRIPTION_DAYS = 10;

export interface DatasetPlan {
  scale: number;
  sources: number;
  signals: number;
  tasks: number;
  artifacts: number;
  memory: number;
  subscriptions: number;
  members: number;
}

export function planFor(scale: number): DatasetPlan {
  const n = (full: number) => Math.max(1, Math.round(full * scale));
  return { scale, sources: n(200), signals: n(100_000), tasks: n(20_000), artifacts: n(10_000), memory: n(5_000), subscriptions: Math.max(1, Math.min(20, n(20))), members: 5 };
}

/** A receiver of outbound deliveries on 127.0.0.1 that accepts everything. */
export async function startReceiver(): Promise<{ url: string; received: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count += 1;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Cumulative quota: how many of `total` should exist after step `i` of `steps` (exact at the end). */
const due = (total: number, i: number, steps: number) => Math.round((total * (i + 1)) / steps);

export interface BuildLog {
  (line: string): void;
}

/** Builds the dataset into `desk` (a fresh test desk on a ManualClock at DATASET_START). */
export async function buildDataset(desk: TestDesk, plan: DatasetPlan, log: BuildLog = () => {}): Promise<void> {
  const { services: s, clock } = desk;
  const random = rng(17);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const words = (k: number) => Array.from({ length: k }, () => pick(WORDS)).join(' ');
  const start = Date.parse(DATASET_START);
  clock.set(DATASET_START);
  const t0 = performance.now();

  // Day 0: the team and the sources.
  const memberIds: string[] = [];
  for (let m = 0; m < plan.members; m++) {
    const invite = await s.members.invite({ email: `member${m}@example.com`, role: 'editor' });
    memberIds.push((await s.members.acceptInvite(invite.id, { name: `Member ${m}` })).id);
  }
  const sourceIds: string[] = [];
  await inTransaction(s.db, async () => {
    for (let i = 0; i < plan.sources; i++) sourceIds.push((await s.sources.create({ type: 'manual', label: `Source ${i} ${words(2)}`, notes: words(8) })).id);
  });
  log(`members and ${plan.sources} sources (${Math.round(performance.now() - t0)} ms)`);

  const engine = new BenchEngine(42);
  const cycleDeps = { db: s.db, clock, engineFor: () => engine, onRunning: () => {} };
  const firstCycleDay = DATASET_DAYS - CYCLE_DAYS;
  const cycles = CYCLE_DAYS * CYCLES_PER_DAY;
  let signalsMade = 0;
  let cycleNo = 0;
  const made = { tasks: 0, artifacts: 0, memory: 0 };
  let receiver: Awaited<ReturnType<typeof startReceiver>> | null = null;
  try {
    for (let day = 0; day < DATASET_DAYS; day++) {
      // The day's signals, through the webhook's delivery path (one transaction per day).
      clock.set(new Date(start + day * DAY).toISOString());
      const target = due(plan.signals, day, DATASET_DAYS);
      await inTransaction(s.db, async () => {
        while (signalsMade < target) {
          const n = Math.min(100, target - signalsMade);
          const signals = Array.from({ length: n }, (_, k) => {
            const i = signalsMade + k;
            return {
              kind: pick(['news', 'review', 'mention', 'note'] as const),
              priority: pick(['low', 'normal', 'normal', 'high', 'urgent'] as const),
              title: `${words(3)} ${i}`,
              detail: `Customers report ${words(20)}.`,
              sourceId: sourceIds[i % sourceIds.length],
              ...(i % 2 === 0 ? { externalId: `ext-${i}` } : {}),
            };
          });
          await s.signals.receive(readInboundDelivery({ signals }, `bench-${day}-${signalsMade}`));
          signalsMade += n;
          clock.advance(60_000);
        }
      });
      if (day < firstCycleDay) continue;

      if (day === DATASET_DAYS - SUBSCRIPTION_DAYS) {
        receiver = await startReceiver();
        for (let i = 0; i < plan.subscriptions; i++) {
          await s.outbound.subscriptions.create({ url: `${receiver.url}/${i}`, label: `Receiver ${i}`, events: i % 2 === 0 ? ['run.completed', 'artifact.approved'] : ['run.completed', 'artifact.archived', 'memory.created'] });
        }
      }
      for (let c = 0; c < CYCLES_PER_DAY; c++) {
        clock.set(new Date(start + day * DAY + (8 + c * 6) * 3_600_000).toISOString());
        engine.quota = {
          tasks: due(plan.tasks, cycleNo, cycles) - made.tasks,
          artifacts: due(plan.artifacts, cycleNo, cycles) - made.artifacts,
          memory: due(plan.memory, cycleNo, cycles) - made.memory,
        };
        const workspace = await s.db.selectFrom('workspace').selectAll().executeTakeFirstOrThrow();
        const outcome = await runCycle(cycleDeps, { trigger: 'schedule', skipIfIdle: false, workspace, startedAt: clock.now().toISOString(), budgetMicroUsd: null });
        if (outcome.kind !== 'ran') throw new Error('dataset cycle did not run');
        const run = await s.db.selectFrom('runs').select(['status', 'errorMessage']).where('id', '=', outcome.runId).executeTakeFirstOrThrow();
        if (run.status !== 'completed') throw new Error(`dataset cycle ${cycleNo} failed: ${run.errorMessage}`);
        made.tasks += engine.quota.tasks;
        made.artifacts += engine.quota.artifacts;
        made.memory += engine.quota.memory;
        cycleNo += 1;
      }
      clock.set(new Date(start + day * DAY + 18 * 3_600_000).toISOString());
      await teamWork(desk, memberIds, random, words);
      await s.outbound.worker.settle();
      if (day % 10 === 0) log(`day ${day}: ${signalsMade} signals, ${made.tasks} tasks, ${made.artifacts} outputs (${Math.round((performance.now() - t0) / 1000)} s)`);
    }
    await s.outbound.worker.settle();
  } finally {
    await receiver?.close();
  }
  // The bench's "now": the end of the last day.
  clock.set(DATASET_END);
  log(`built in ${Math.round((performance.now() - t0) / 1000)} s`);
}

/**
 * The team's day: notes on a third of the open tasks, comments on a quarter, assignments, a
 * blocker on one in ten, and yesterday's outputs decided (nine in ten: two approved for one
 * archived), each through its service, in one transaction.
 */
async function teamWork(desk: TestDesk, memberIds: string[], random: () => number, words: (k: number) => string): Promise<void> {
  const { services: s } = desk;
  const cutoff = new Date(desk.clock.now().getTime() - 12 * 3_600_000).toISOString();
  const open = await s.db.selectFrom('tasks').select(['id', 'assignedToUserId']).where('status', 'in', ['queued', 'in_progress', 'needs_input']).where('updatedAt', '>=', cutoff).orderBy('id').execute();
  const ready = await s.db.selectFrom('artifacts').select('id').where('status', '=', 'ready').where('createdAt', '<', cutoff).orderBy('id').execute();
  await inTransaction(s.db, async () => {
    for (const [i, t] of open.entries()) {
      const who = memberIds[i % memberIds.length];
      if (i % 3 === 0) await s.tasks.postNote(t.id, `Please look at ${words(6)}`, who);
      if (i % 4 === 0) await s.comments.post(t.id, { text: `I think ${words(10)}`, asUserId: who });
      if (i % 2 === 0 && t.assignedToUserId === null) await s.tasks.assign(t.id, who);
      if (i % 10 === 5 && i > 0) await s.tasks.setBlockers(t.id, [open[i - 1].id]);
    }
    for (const [i, a] of ready.entries()) {
      if (random() < 0.1) continue;
      await s.artifacts.decide(a.id, i % 3 === 2 ? 'archived' : 'approved', memberIds[i % memberIds.length]);
    }
  });
}

/** Where the built database of (version, scale) is kept between runs. */
export function cacheFileFor(scale: number): string {
  return path.join(os.tmpdir(), 'desk-bench-full', `v${GENERATOR_VERSION}-scale-${scale}`, 'desk.sqlite');
}

/**
 * A desk on a fresh data folder holding a copy of the built dataset (built first and cached when
 * missing), its clock at the dataset's end. The caller stops it (the folder is removed then).
 */
export async function deskOnDataset(scale: number, log: BuildLog = () => {}): Promise<{ desk: TestDesk; built: boolean; file: string }> {
  const file = cacheFileFor(scale);
  let built = false;
  if (!fs.existsSync(file)) {
    const clock = new ManualClock(DATASET_START);
    const builder = await startTestDesk({ clock });
    try {
      await buildDataset(builder, planFor(scale), log);
      await builder.stop({ keepDataDir: true });
      fs.mkdirSync(path.dirname(file), { recursive: true });
      // Copy then rename, so an interrupted copy is never taken for a built dataset.
      fs.copyFileSync(path.join(builder.dataDir, 'desk.sqlite'), `${file}.part`);
      fs.renameSync(`${file}.part`, file);
    } finally {
      fs.rmSync(builder.dataDir, { recursive: true, force: true });
    }
    built = true;
  }
  const dataDir = copyToFreshDir(file);
  const clock = new ManualClock(DATASET_END);
  const desk = await startTestDesk({ clock, dataDir, ownsDataDir: true });
  return { desk, built, file };
}

/** A new data folder with a copy of the dataset file. */
export function copyToFreshDir(file: string): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-bench-run-'));
  fs.copyFileSync(file, path.join(dataDir, 'desk.sqlite'));
  return dataDir;
}
