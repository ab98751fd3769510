import type { Request } from 'express';
import type { EventStream, StreamedEvent } from '../../domain/events/event-stream';

/** A comment line every this many ms keeps proxies and the client's reconnect timer from closing an idle stream. */
export const SSE_HEARTBEAT_MS = 15_000;
/** What a client waits before it reconnects (the SSE `retry` field), ms. */
export const SSE_RETRY_MS = 2_000;

/** The message a client gets when it must reload what it shows (its Last-Event-ID is unknown or too far back). */
export const RESYNC_MESSAGE = JSON.stringify({ event: 'stream.resync' });

const frame = (e: StreamedEvent) => `id: ${e.id}\ndata: ${e.payload}\n\n`;

/**
 * Serves the outbox as server-sent events on the request's response until the client goes or the
 * desk stops: every event as one `message` whose data is its envelope and whose id is the event's
 * id (a reconnect's Last-Event-ID), a heartbeat comment, and a `stream.resync` message when the
 * events after Last-Event-ID can no longer be replayed.
 */
export async function serveEventStream(stream: EventStream, req: Request, lastEventId: string | undefined, heartbeatMs = SSE_HEARTBEAT_MS): Promise<void> {
  const res = req.res!;
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  req.socket.setNoDelay(true);
  // A stream is open for as long as the client wants: the server's request timeout must not cut it.
  req.socket.setTimeout(0);
  let ended = false;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    open.sub?.unsubscribe();
    if (!res.writableEnded) res.end();
    finish();
  };
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), heartbeatMs);
  req.on('close', end);
  // Live events that arrive before the replay is written wait behind it.
  let ready = false;
  const waiting: StreamedEvent[] = [];
  // Read by end(), which the client may trigger before the subscription is made.
  const open: { sub?: Awaited<ReturnType<EventStream['subscribe']>> } = {};
  const sub = await stream.subscribe(
    (events) => {
      if (ended) return;
      if (ready) res.write(events.map(frame).join(''));
      else waiting.push(...events);
    },
    lastEventId,
    end,
  );
  open.sub = sub;
  if (ended) sub.unsubscribe();
  else {
    let head = `retry: ${SSE_RETRY_MS}\n: connected\n\n`;
    if (sub.resync) head += `data: ${RESYNC_MESSAGE}\n\n`;
    const replayed = new Set(sub.replay.map((e) => e.id));
    res.write(head + [...sub.replay, ...waiting.filter((e) => !replayed.has(e.id))].map(frame).join(''));
    ready = true;
  }
  return done;
}
