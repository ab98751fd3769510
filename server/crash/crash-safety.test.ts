import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { fixedReads } from '../testing/openapi-reads';
import { startTestReceiver, type ReceivedWebhook } from '../testing/fakes/webhook-receiver';
import { changesWithoutEvents, deliveryGaps, halfAppliedCycles, halfAppliedImports, lostWrites } from './checks';
import { call, startDeskProcess, type DeskProcess } from './desk-process';
import { ackCounts, emptyAcks, enough, ENOUGH, startLoad } from './load';

/**
 * Crash safety over the whole product (issue 8 part 5, issue 17 part 4). The desk runs as its own
 * process, as `npm start` runs it, and takes a mixed write load side by side: webhook and API
 * signals, sources, settings, loop cycles of the built-in engine, review decisions, imports,
 * tasks with tags, comments, memory, and outbound deliveries to a receiver on 127.0.0.1. Once
 * every kind has acknowledged writes, the receiver stops answering, so deliveries are in flight,
 * and the desk is killed with SIGKILL. Restarted on the same data folder it must hold every
 * acknowledged write, hold each cycle and import whole or not at all, pass SQLite's integrity
 * check, take over the stale lock, deliver every stored event (the ones in flight again), and
 * serve every list. Assertions read only what was acknowledged, never how far the load got.
 */

const TOKEN = 'crash-safety-test-token-0123456789abcdef';
/**
 * The events the two subscriptions take: the cycles', decisions', imports' and comments' (the
 * load's other events go to no subscriber, so the backlog the restarted desk sends stays small).
 */
const EVENTS = ['run.completed', 'artifact.created', 'artifact.approved', 'artifact.archived', 'workspace.imported', 'comment.created'] as const;
const LOAD_DEADLINE_MS = 60_000;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-crash-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const hookId = (hook: ReceivedWebhook) => `${hook.path} ${hook.headers['webhook-id']}`;

describe('crash safety over the whole product', () => {
  it('keeps every acknowledged write through a SIGKILL under a mixed load, applies cycles and imports whole, and delivers every event after the restart', async () => {
    // The receiver: answers at once until `holding`, then keeps every request unanswered (in flight when the kill lands).
    const receiver = await startTestReceiver();
    let holding = false;
    let released = false;
    let releaseHeld!: () => void;
    const held = new Promise<void>((resolve) => (releaseHeld = resolve));
    const answeredBeforeKill = new Set<string>();
    const heldAtKill = new Set<string>();
    const answeredAfterRestart = new Set<string>();
    let restarted = false;
    receiver.answer = async (hook) => {
      if (restarted) {
        answeredAfterRestart.add(hookId(hook));
        return { status: 204 };
      }
      if (holding) {
        heldAtKill.add(hookId(hook));
        await held;
        return { status: 503 };
      }
      answeredBeforeKill.add(hookId(hook));
      return { status: 204 };
    };

    let desk: DeskProcess = await startDeskProcess(dataDir, TOKEN);
    const setup = async (method: string, urlPath: string, body?: unknown) => {
      const res = await call(desk, TOKEN, method, urlPath, body);
      expect(res?.status, `${method} ${urlPath}: ${JSON.stringify(res?.body)}`).toBeLessThan(300);
      return res!.body;
    };
    const subscriptionIds: string[] = [];
    try {
      await setup('PATCH', '/api/v1/workspace/cost-cap', { dailyCostCapUsdCents: null });
      await setup('PATCH', '/api/v1/workspace/loop', { loopState: 'on' });
      for (const name of ['a', 'b']) subscriptionIds.push((await setup('POST', '/api/v1/outbound/subscriptions', { url: `${receiver.url}/${name}`, events: EVENTS, label: name })).id);

      // The load, until every kind has acknowledged writes; then deliveries are held, and the kill lands.
      const acks = emptyAcks();
      const load = startLoad(desk, TOKEN, acks, new Date('2026-01-15T10:00:00Z'));
      const deadline = Date.now() + LOAD_DEADLINE_MS;
      const waitUntil = async (what: string, ready: () => boolean) => {
        while (!ready()) {
          if (Date.now() > deadline) throw new Error(`${what} not reached: ${JSON.stringify(ackCounts(acks, answeredBeforeKill.size))} of ${JSON.stringify(ENOUGH)}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      await waitUntil('acknowledged writes of every kind', () => enough(ackCounts(acks, answeredBeforeKill.size)));
      holding = true;
      await waitUntil('a delivery in flight', () => heldAtKill.size > 0);
      await waitUntil('a cycle under way', () => load.cycleRequested());
      const counts = ackCounts(acks, answeredBeforeKill.size);
      desk.child.kill('SIGKILL');
      await desk.exited;
      load.stop();
      await load.done;
      released = true;
      releaseHeld();
      for (const [kind, least] of Object.entries(ENOUGH)) expect(counts[kind as keyof typeof counts], kind).toBeGreaterThanOrEqual(least);
      expect(fs.existsSync(path.join(dataDir, 'desk.lock'))).toBe(true); // left behind by the killed desk

      // The database file itself, before anything else opens it: intact.
      const raw = new Database(path.join(dataDir, 'desk.sqlite'));
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
      raw.close();

      restarted = true;
      desk = await startDeskProcess(dataDir, TOKEN); // takes over the stale lock
      const db = new Database(path.join(dataDir, 'desk.sqlite'), { readonly: true });
      try {
        expect(lostWrites(db, acks)).toEqual({ signals: [], sources: [], tasks: [], taskTags: [], comments: [], memory: [], decisions: [] });
        expect(halfAppliedCycles(db, acks)).toEqual([]);
        expect(changesWithoutEvents(db)).toEqual([]);
        const imports = halfAppliedImports(db, acks);
        expect(imports.problems).toEqual([]);
        expect(imports.applied).toBeGreaterThanOrEqual(acks.imports.length);
        // The last acknowledged interval, or one sent after it whose answer the kill cut off.
        const interval = (db.prepare('SELECT loop_interval_minutes AS m FROM workspace').get() as { m: number }).m;
        const last = acks.intervals[acks.intervals.length - 1];
        expect(acks.sentIntervals.slice(acks.sentIntervals.lastIndexOf(last))).toContain(interval);

        // Deliveries: the restarted desk sends what was pending or in flight; every stored event reaches both subscriptions.
        await vi.waitFor(() => expect(deliveryGaps(db, subscriptionIds, EVENTS)).toEqual([]), { timeout: 40_000, interval: 200 });
        const retried = [...heldAtKill].filter((id) => !answeredAfterRestart.has(id));
        expect(retried, 'deliveries in flight at the kill are sent again').toEqual([]);
        const storedEvents = new Set((db.prepare('SELECT id FROM outbox_events').all() as { id: string }[]).map((r) => r.id));
        const phantom = [...answeredBeforeKill, ...heldAtKill].filter((id) => !storedEvents.has(id.split(' ')[1]));
        expect(phantom, 'the desk sends only events it has stored').toEqual([]);
      } finally {
        db.close();
      }

      // Every list (every read of the document without parameters) answers, and the desk takes writes again.
      const reads = fixedReads;
      const failed: string[] = [];
      for (const urlPath of reads) {
        const res = await call(desk, TOKEN, 'GET', urlPath);
        if (res === null || res.status !== 200) failed.push(`${urlPath} -> ${res?.status} ${JSON.stringify(res?.body).slice(0, 200)}`);
      }
      expect(failed).toEqual([]);
      expect(reads.length).toBeGreaterThan(80);
      const after = await call(desk, TOKEN, 'POST', '/api/v1/signals', { kind: 'note', priority: 'normal', title: 'after the crash', detail: '' });
      expect(after?.status).toBe(201);

      // The loop runs again, and the cycle the kill cut off is failed, not left running.
      let cycle = await call(desk, TOKEN, 'POST', '/api/v1/runs');
      // A scheduled cycle was under way: ask again once it is done.
      for (let i = 0; cycle?.status === 409 && i < 500; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        cycle = await call(desk, TOKEN, 'POST', '/api/v1/runs');
      }
      expect(cycle?.body.status, JSON.stringify(cycle?.body)).toBe('completed');
      const runs = new Database(path.join(dataDir, 'desk.sqlite'), { readonly: true });
      try {
        expect(runs.prepare(`SELECT id, status FROM runs WHERE status = 'running'`).all()).toEqual([]);
      } finally {
        runs.close();
      }
    } finally {
      if (!released) releaseHeld();
      desk.child.kill('SIGTERM');
      await desk.exited;
      await receiver.close();
    }
  }, 150_000);
});
