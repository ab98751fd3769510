import { smallExport } from '../testing/fixtures/full-desk';
import { call, isOk, type DeskProcess } from './desk-process';

/**
 * The mixed write load of the crash test: writers side by side, each a loop of requests that
 * keeps what the desk acknowledged (a 2xx answer read in full) and what it sent. The desk is
 * killed while they run; the test then checks the acknowledged writes against the database.
 * Every writer touches only what it created, so each acknowledged value is the last one sent
 * for its row (or, for the loop interval, bounded by what was sent after it).
 */

export interface Acks {
  signals: Set<string>;
  sources: Set<string>;
  intervals: number[];
  sentIntervals: number[];
  /** task id → the tags acknowledged for it (each task gets one tag update). */
  tasks: Map<string, string[] | null>;
  /** comment id → its task and text. */
  comments: Map<string, { taskId: string; text: string }>;
  /** memory id → the importance acknowledged by its one update (null: not updated yet). */
  memory: Map<string, number | null>;
  /** Completed cycles, as POST /runs answered them. */
  runs: { id: string; artifactIds: string[]; createdTaskIds: string[]; memoryIds: string[] }[];
  /** Review decisions: output id → the state it was moved to. */
  decisions: Map<string, 'approved' | 'archived'>;
  /** Import markers sent, and the ones acknowledged. */
  importsSent: string[];
  imports: string[];
}

export function emptyAcks(): Acks {
  return { signals: new Set(), sources: new Set(), intervals: [], sentIntervals: [], tasks: new Map(), comments: new Map(), memory: new Map(), runs: [], decisions: new Map(), importsSent: [], imports: [] };
}

/** A writer with nothing to do yet (no ready output, no task, a cycle under way) looks again shortly, without spinning a core. */
const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 20));

export interface Load {
  /** Resolves once every writer has stopped (after stop() and the kill). */
  done: Promise<void>;
  stop(): void;
  /** A POST /runs is waiting for its answer: a cycle is queued or under way. */
  cycleRequested(): boolean;
}

export function startLoad(desk: DeskProcess, token: string, acks: Acks, exportedAt: Date): Load {
  let stopped = false;
  let cycleRequested = false;
  const api = (method: string, urlPath: string, body?: unknown) => call(desk, token, method, urlPath, body);
  const writer = (step: (i: number) => Promise<void>) =>
    (async () => {
      for (let i = 0; !stopped; i++) await step(i);
    })();

  const writers = [
    // Signals through the inbound webhook and the API; sources; the loop interval.
    writer(async (i) => {
      const res = await call(desk, token, 'POST', `/api/webhooks/signals/${token}`, { signals: [0, 1, 2].map((j) => ({ title: `pushed ${i}.${j} checkout latency report`, detail: 'mobile checkout is slow' })) }, false);
      if (isOk(res)) for (const id of res.body.signalIds as string[]) acks.signals.add(id);
    }),
    writer(async (i) => {
      const res = await api('POST', '/api/v1/signals', { kind: 'review', priority: i % 3 === 0 ? 'high' : 'normal', title: `review ${i}: pricing page confusing`, detail: 'pricing tiers unclear' });
      if (isOk(res)) acks.signals.add(res.body.id);
    }),
    writer(async (i) => {
      const res = await api('POST', '/api/v1/sources', { type: 'manual', label: `inbox ${i}` });
      if (isOk(res)) acks.sources.add(res.body.id);
    }),
    writer(async (i) => {
      const minutes = 30 + (i % 1000);
      acks.sentIntervals.push(minutes);
      const res = await api('PATCH', '/api/v1/workspace/loop-interval', { loopIntervalMinutes: minutes });
      if (isOk(res)) acks.intervals.push(minutes);
    }),
    // Loop cycles of the built-in engine, one after the other (a 409 while a scheduled one runs).
    writer(async () => {
      cycleRequested = true;
      const res = await api('POST', '/api/v1/runs');
      cycleRequested = false;
      if (isOk(res) && res.body.status === 'completed') {
        const { artifactIds, createdTaskIds, memoryIds } = res.body.produced;
        acks.runs.push({ id: res.body.id, artifactIds, createdTaskIds, memoryIds });
      } else if (res?.status === 409) await turn();
    }),
    // Review decisions on ready outputs, approve and archive in turn.
    writer(async (i) => {
      const ready = await api('GET', '/api/v1/artifacts?status=ready&limit=20');
      const next = isOk(ready) ? (ready.body.artifacts as { id: string }[]).find((a) => !acks.decisions.has(a.id)) : undefined;
      if (!next) return turn();
      const action = i % 2 === 0 ? 'approve' : 'archive';
      const res = await api('POST', `/api/v1/artifacts/${next.id}/${action}`, {});
      if (isOk(res)) acks.decisions.set(next.id, action === 'approve' ? 'approved' : 'archived');
    }),
    // Imports of a small export, each with its own marker.
    writer(async (i) => {
      const marker = `crash-${i}`;
      acks.importsSent.push(marker);
      const res = await api('POST', '/api/v1/workspace/import', { data: smallExport(marker, exportedAt) });
      if (isOk(res)) acks.imports.push(marker);
    }),
    // Tasks (created, then their tags set once), comments on them, memory (created, then its importance set once).
    writer(async (i) => {
      const created = await api('POST', '/api/v1/tasks', { title: `crash task ${i}`, summary: 'Written during the crash test load.' });
      if (!isOk(created)) return;
      acks.tasks.set(created.body.id, null);
      const tags = [`crash-${i}`, i % 2 === 0 ? 'even' : 'odd'];
      const res = await api('PUT', `/api/v1/tasks/${created.body.id}/tags`, { tags });
      if (isOk(res)) acks.tasks.set(created.body.id, tags);
    }),
    writer(async (i) => {
      const taskIds = [...acks.tasks.keys()];
      if (taskIds.length === 0) return turn();
      const taskId = taskIds[i % taskIds.length];
      const text = `crash comment ${i}`;
      const res = await api('POST', `/api/v1/tasks/${taskId}/comments`, { text });
      if (isOk(res)) acks.comments.set(res.body.id, { taskId, text });
    }),
    writer(async (i) => {
      const created = await api('POST', '/api/v1/memory', { kind: 'fact', title: `crash memory ${i}`, content: 'Checkout latency doubled on mobile.' });
      if (!isOk(created)) return;
      acks.memory.set(created.body.id, null);
      const importance = 1 + (i % 8);
      const res = await api('PATCH', `/api/v1/memory/${created.body.id}`, { importance });
      if (isOk(res)) acks.memory.set(created.body.id, importance);
    }),
  ];
  return {
    done: Promise.all(writers).then(() => undefined),
    stop: () => {
      stopped = true;
    },
    cycleRequested: () => cycleRequested,
  };
}

/** How much of each kind the desk has acknowledged. */
export function ackCounts(acks: Acks, deliveriesAcked: number) {
  return {
    signals: acks.signals.size,
    sources: acks.sources.size,
    intervals: acks.intervals.length,
    tasks: [...acks.tasks.values()].filter((t) => t !== null).length,
    comments: acks.comments.size,
    memory: [...acks.memory.values()].filter((m) => m !== null).length,
    runs: acks.runs.length,
    runOutputs: acks.runs.reduce((n, r) => n + r.artifactIds.length, 0),
    decisions: acks.decisions.size,
    imports: acks.imports.length,
    deliveries: deliveriesAcked,
  };
}

/** The least of each kind acknowledged before the kill. */
export const ENOUGH: ReturnType<typeof ackCounts> = { signals: 60, sources: 5, intervals: 5, tasks: 5, comments: 5, memory: 5, runs: 2, runOutputs: 2, decisions: 3, imports: 3, deliveries: 10 };

export const enough = (counts: ReturnType<typeof ackCounts>) => (Object.keys(ENOUGH) as (keyof typeof ENOUGH)[]).every((k) => counts[k] >= ENOUGH[k]);
