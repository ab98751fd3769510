import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, vi } from 'vitest';
import type { TestDesk } from '../desk';

/**
 * A small smee-protocol relay for tests, on 127.0.0.1 port 0. GET /<channel> with
 * Accept: text/event-stream subscribes (the stream opens with a `ready` event, as smee.io does);
 * POST /<channel> is the public intake: the request becomes a `message` event carrying its headers
 * as top-level keys plus `body`, `query` and `timestamp`, exactly as smee.io relays it.
 */
export interface TestRelay {
  url: string;
  channelUrl(channel?: string): string;
  /** Open streams right now. */
  connections(): number;
  /** Every stream request received, with its headers. */
  streamRequests: { path: string; headers: http.IncomingHttpHeaders }[];
  /** Sends a default `message` event with this data (JSON-encoded unless a string) to every subscriber. */
  send(data: unknown, options?: { id?: string; event?: string }): void;
  ping(): void;
  /** Cuts every open stream, as a relay restart or a network drop does. */
  drop(): void;
  /** Answers the next `count` stream requests with this HTTP status instead of a stream. */
  refuseNext(status: number, count: number): void;
  close(): Promise<void>;
}

export async function startTestRelay(): Promise<TestRelay> {
  const streams = new Set<http.ServerResponse>();
  const streamRequests: TestRelay['streamRequests'] = [];
  let refuse = { status: 0, count: 0 };

  const write = (text: string) => {
    for (const res of streams) res.write(text);
  };
  const frame = (data: string, options: { id?: string; event?: string } = {}) =>
    `${options.event ? `event: ${options.event}\n` : ''}${options.id ? `id: ${options.id}\n` : ''}${data
      .split('\n')
      .map((line) => `data: ${line}`)
      .join('\n')}\n\n`;

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://relay');
    if (req.method === 'GET') {
      streamRequests.push({ path: url.pathname, headers: req.headers });
      if (refuse.count > 0) {
        refuse.count -= 1;
        res.writeHead(refuse.status, { 'content-type': 'text/plain' }).end('refused');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      res.write(frame('{}', { event: 'ready' }));
      streams.add(res);
      res.on('close', () => streams.delete(res));
      return;
    }
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          /* smee relays what it could parse */
        }
        write(frame(JSON.stringify({ ...req.headers, body, query: Object.fromEntries(url.searchParams), timestamp: Date.now() })));
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
      return;
    }
    res.writeHead(405).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;

  return {
    url: base,
    channelUrl: (channel = 'test-channel') => `${base}/${channel}`,
    connections: () => streams.size,
    streamRequests,
    send: (data, options) => write(frame(typeof data === 'string' ? data : JSON.stringify(data), options)),
    ping: () => write(frame(String(Date.now()), { event: 'ping' })),
    drop: () => {
      for (const res of streams) res.destroy();
      streams.clear();
    },
    refuseNext: (status, count) => {
      refuse = { status, count };
    },
    close: async () => {
      for (const res of streams) res.destroy();
      streams.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A stand-in for the local webhook: records each request and answers with the status the test sets. */
export interface FakeTarget {
  url: string;
  requests: { method: string; path: string; headers: http.IncomingHttpHeaders; body: string }[];
  respondWith(status: number, body?: unknown, headers?: Record<string, string>): void;
  close(): Promise<void>;
}

export async function startFakeTarget(): Promise<FakeTarget> {
  const requests: FakeTarget['requests'] = [];
  let reply = { status: 202, body: { accepted: 1 } as unknown, headers: {} as Record<string, string> };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    respondWith: (status, body = {}, headers = {}) => {
      reply = { status, body, headers };
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Waits for `check` to pass, polling every 10 ms (the relay's stream is real I/O). */
export const until = (check: () => unknown, timeout = 8_000) => vi.waitFor(check, { timeout, interval: 10 });

/** GET /integrations/relay of a desk (asserted 200). */
export async function relayStatus(d: TestDesk) {
  const res = await d.api('GET', '/api/v1/integrations/relay');
  expect(res.status).toBe(200);
  return res.body;
}

/** Waits until the desk's relay client is connected to `channelUrl`. */
export async function waitRelayConnected(d: TestDesk, channelUrl: string) {
  await until(async () => expect(await relayStatus(d)).toMatchObject({ state: 'connected', channelUrl }));
}
