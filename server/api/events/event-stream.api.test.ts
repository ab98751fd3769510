import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { EngineError } from '../../engine/types';
import { scriptedEngine } from '../../testing/fixtures/loop';

/**
 * GET /events/stream (issue 30, part 5): the outbox as server-sent events, authenticated with the
 * bearer token, resumed with Last-Event-ID, kept open with heartbeats. Driven with the
 * `eventsource` package, as a client of the desk would.
 */

let failNext = false;
const engine = scriptedEngine(() => {
  if (failNext) throw new EngineError('The model provider answered 500');
  return {};
});

let desk: TestDesk;
beforeAll(async () => {
  desk = await startTestDesk({ eventStreamHeartbeatMs: 50, engineFor: () => engine });
});
afterAll(async () => {
  await desk.stop();
});

interface Envelope {
  id: string;
  event: string;
  data: Record<string, unknown>;
}

/** An EventSource on the desk's stream with its token; `messages` fills as events arrive. */
function connect(token = desk.token) {
  const messages: Envelope[] = [];
  const ids: string[] = [];
  const errors: { code?: number }[] = [];
  const source = new EventSource(`${desk.url}/api/v1/events/stream`, {
    fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, authorization: `Bearer ${token}` } }),
  });
  source.onmessage = (m) => {
    messages.push(JSON.parse(m.data));
    ids.push(m.lastEventId);
  };
  source.onerror = (e) => errors.push({ code: (e as { code?: number }).code });
  const opened = new Promise<void>((resolve) => source.addEventListener('open', () => resolve(), { once: true }));
  return { source, messages, ids, errors, opened };
}

async function until<T>(what: () => T | undefined | false, label: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = what();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${label}`);
}

const postSignal = (title: string) => desk.api('POST', '/api/v1/signals', { title, kind: 'note', priority: 'normal', detail: '' });

describe('GET /events/stream', () => {
  it('sends each committed event once, as it commits, with its envelope and id', async () => {
    const c = connect();
    await c.opened;
    const res = await postSignal('Webhook test');
    expect(res.status).toBe(201);
    const created = await until(() => c.messages.find((m) => m.event === 'signal.created'), 'signal.created');
    expect(created.data).toMatchObject({ signalId: res.body.id, title: 'Webhook test', origin: 'manual' });
    expect(c.ids[c.messages.indexOf(created)]).toBe(created.id);
    const row = await desk.services.db.selectFrom('outboxEvents').select('id').where('event', '=', 'signal.created').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(created.id).toBe(row.id);
    c.source.close();
  });

  it('hears a cycle that failed the moment it ends, and /stats says so with the run id', async () => {
    const c = connect();
    await c.opened;
    failNext = true;
    const run = (await desk.api('POST', '/api/v1/runs')).body;
    failNext = false;
    expect(run.status).toBe('failed');
    const failed = await until(() => c.messages.find((m) => m.event === 'run.failed'), 'run.failed');
    expect(failed.data).toMatchObject({ runId: run.id });
    const stats = (await desk.api('GET', '/api/v1/stats')).body;
    expect(stats.loopAlert).toMatchObject({ reason: 'cycle_failed', runId: run.id });
    expect(stats.loopAlert.message).toMatch(/The last cycle failed: .*500/);
    const today = (await desk.api('GET', '/api/v1/workspace/today')).body.today;
    expect(today).toMatchObject({ cycles: 0, failedCycles: 1 });
    c.source.close();

    // a completed cycle clears the alert
    expect((await desk.api('POST', '/api/v1/runs')).body.status).toBe('completed');
    expect((await desk.api('GET', '/api/v1/stats')).body.loopAlert).toBeNull();
    expect((await desk.api('GET', '/api/v1/workspace/today')).body.today).toMatchObject({ cycles: 1, failedCycles: 1 });
  });

  it('replays what a client missed after its Last-Event-ID, and asks for a resync when it cannot', async () => {
    const first = await postSignal('Before the gap');
    const lastSeen = await desk.services.db.selectFrom('outboxEvents').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    await postSignal('Missed one');
    await postSignal('Missed two');
    expect(first.status).toBe(201);

    const read = async (lastEventId: string) => {
      const ctl = new AbortController();
      const res = await fetch(`${desk.url}/api/v1/events/stream`, { headers: { authorization: `Bearer ${desk.token}`, 'last-event-id': lastEventId }, signal: ctl.signal });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = res.body!.getReader();
      let text = '';
      // The head and the replay are written at once; a heartbeat follows within 50 ms.
      while (!text.includes(': heartbeat')) text += new TextDecoder().decode((await reader.read()).value);
      ctl.abort();
      return text;
    };
    const replayed = await read(lastSeen.id);
    const titles = [...replayed.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1])).filter((e) => e.event === 'signal.created').map((e) => e.data.title);
    expect(titles).toEqual(['Missed one', 'Missed two']);
    expect(replayed).toMatch(/^retry: 2000$/m);

    const unknown = await read('evt_01NOTANEVENT0000000000000');
    expect(unknown).toContain('data: {"event":"stream.resync"}');
  });

  it('refuses a client without the token (401 in the one error shape)', async () => {
    const res = await fetch(`${desk.url}/api/v1/events/stream`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: expect.any(String) });
    const c = connect('wrong-token');
    await until(() => c.errors.length > 0 && c.errors, 'an error');
    expect(c.errors[0].code).toBe(401);
    c.source.close();
  });

  it('ends open streams when the desk stops, so stop() does not wait for them', async () => {
    const other = await startTestDesk();
    const ctl = new AbortController();
    const res = await fetch(`${other.url}/api/v1/events/stream`, { headers: { authorization: `Bearer ${other.token}` }, signal: ctl.signal });
    await until(() => other.services.eventStream.listenerCount === 1, 'the stream to subscribe');
    const t0 = Date.now();
    await other.stop();
    expect(Date.now() - t0).toBeLessThan(2_000);
    const reader = res.body!.getReader();
    let done = false;
    while (!done) done = (await reader.read()).done;
  });
});
