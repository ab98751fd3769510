import { describe, expect, it, vi } from 'vitest';
import { backoffDelay, openEventStream, type DeskEvent, type StreamStatus } from './event-stream';
import { sseStream } from './testing';

/**
 * The stream reader against a fake desk: each fetch is answered by the next scripted response, and
 * timers are a list the test runs by hand (no waiting).
 */
function harness(answers: Array<() => Response | Promise<Response>>, token: { value: string | null } = { value: 'tok' }) {
  const requests: Request[] = [];
  const timers: Array<{ fn: () => void; ms: number; cleared: boolean }> = [];
  const events: DeskEvent[] = [];
  const statuses: StreamStatus[] = [];
  const resyncs: number[] = [];
  const unauthorized: Array<string | null> = [];
  const fetch = vi.fn(async (req: Request) => {
    requests.push(req);
    const next = answers.shift();
    if (!next) throw new TypeError('Failed to fetch');
    return next();
  });
  const stream = openEventStream({
    url: 'http://127.0.0.1:4000/api/v1/events/stream',
    getToken: () => token.value,
    fetch,
    setTimer: (fn, ms) => {
      const t = { fn, ms, cleared: false };
      timers.push(t);
      return t;
    },
    clearTimer: (t) => void ((t as { cleared: boolean }).cleared = true),
    onEvent: (e) => events.push(e),
    onResync: () => resyncs.push(resyncs.length),
    onStatus: (s) => statuses.push(s),
    onUnauthorized: (sent) => unauthorized.push(sent),
  });
  /** Runs the pending reconnect timer (the one a drop set). */
  const fireTimer = () => {
    const t = timers.find((x) => !x.cleared);
    if (!t) throw new Error('no timer pending');
    t.cleared = true;
    t.fn();
  };
  return { requests, timers, events, statuses, resyncs, unauthorized, stream, fireTimer, fetch };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i += 1) await settle();
  expect(check()).toBe(true);
}

describe('openEventStream', () => {
  it('sends the bearer token, parses events split across chunks, keeps comments and retry out, and reports open', async () => {
    const s = sseStream();
    const h = harness([() => s.response]);
    await until(() => h.statuses.includes('open'));
    expect(h.requests[0].headers.get('Authorization')).toBe('Bearer tok');
    expect(h.requests[0].headers.get('Accept')).toBe('text/event-stream');
    expect(h.requests[0].headers.get('Last-Event-ID')).toBeNull();
    s.write('retry: 2000\n: connected\n\n');
    const frame = `id: evt_1\ndata: ${JSON.stringify({ id: 'evt_1', event: 'run.failed', createdAt: '2026-03-10T12:00:00.000Z', data: { runId: 'run_1' } })}\n\n`;
    s.write(frame.slice(0, 17));
    await settle();
    expect(h.events).toEqual([]);
    s.write(frame.slice(17));
    s.write(': heartbeat\n\n');
    await until(() => h.events.length === 1);
    expect(h.events[0]).toEqual({ id: 'evt_1', event: 'run.failed', createdAt: '2026-03-10T12:00:00.000Z', data: { runId: 'run_1' } });
    h.stream.close();
  });

  it('reconnects after a drop with the last event id, waiting longer after each failure and from the start again once open', async () => {
    const first = sseStream();
    const second = sseStream();
    const h = harness([() => first.response, () => Promise.reject(new TypeError('Failed to fetch')), () => new Response('busy', { status: 503 }), () => second.response]);
    await until(() => h.statuses.includes('open'));
    first.write('retry: 2000\n\n');
    first.event('evt_7', 'signal.created');
    await until(() => h.events.length === 1);
    first.end();
    await until(() => h.timers.length === 1);
    // The desk's retry hint (2 s) is the first wait.
    expect(h.timers[0].ms).toBe(2_000);
    expect(h.statuses.at(-1)).toBe('down');
    h.fireTimer();
    await until(() => h.timers.length === 2);
    expect(h.timers[1].ms).toBe(4_000);
    h.fireTimer();
    await until(() => h.timers.length === 3);
    expect(h.timers[2].ms).toBe(8_000);
    h.fireTimer();
    await until(() => h.statuses.filter((st) => st === 'open').length === 2);
    for (const req of h.requests.slice(1)) expect(req.headers.get('Last-Event-ID')).toBe('evt_7');
    // Once open, the next drop starts from the first wait again.
    second.end();
    await until(() => h.timers.length === 4);
    expect(h.timers[3].ms).toBe(2_000);
    h.stream.close();
    expect(h.timers[3].cleared).toBe(true);
  });

  it('a resync message asks for everything to be reloaded and is not an event', async () => {
    const s = sseStream();
    const h = harness([() => s.response]);
    await until(() => h.statuses.includes('open'));
    s.write('data: {"event":"stream.resync"}\n\n');
    s.event('evt_9', 'task.created');
    await until(() => h.events.length === 1);
    expect(h.resyncs).toHaveLength(1);
    expect(h.events.map((e) => e.event)).toEqual(['task.created']);
    h.stream.close();
  });

  it('stops on 401, naming the token it sent, and does not retry', async () => {
    const h = harness([() => new Response('{"error":"unauthorized","message":"No."}', { status: 401 })]);
    await until(() => h.unauthorized.length === 1);
    expect(h.unauthorized).toEqual(['tok']);
    expect(h.timers).toEqual([]);
    expect(h.statuses.at(-1)).toBe('down');
  });

  it('close() ends the open request and no reconnect follows', async () => {
    const s = sseStream();
    const h = harness([() => s.response]);
    await until(() => h.statuses.includes('open'));
    h.stream.close();
    await settle();
    expect(h.requests[0].signal.aborted).toBe(true);
    expect(h.timers).toEqual([]);
    expect(h.fetch).toHaveBeenCalledTimes(1);
  });

  it('ignores frames that are not envelopes (no data, bad JSON)', async () => {
    const s = sseStream();
    const h = harness([() => s.response]);
    await until(() => h.statuses.includes('open'));
    s.write('data: not json\n\ndata: 42\n\n');
    s.event('evt_2', 'memory.created');
    await until(() => h.events.length === 1);
    expect(h.events[0].event).toBe('memory.created');
    h.stream.close();
  });
});

describe('backoffDelay', () => {
  it('doubles from the first wait and stops at the longest', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 40].map((n) => backoffDelay(n, 1_000, 30_000))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });
});
