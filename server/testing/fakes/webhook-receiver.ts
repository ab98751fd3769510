import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { vi } from 'vitest';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got: the exact body bytes (as text) and the headers. */
export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface ReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * A webhook receiver on 127.0.0.1 for outbound tests: records every POST and answers what the
 * test sets (`answer`, per request; 204 by default). `down()` makes it refuse connections
 * (closes the port), `up()` listens again on the same port.
 */
export interface TestReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** May return a promise: the answer waits for it (a slow receiver). */
  answer: (req: ReceivedWebhook, index: number) => ReceiverAnswer | Promise<ReceiverAnswer>;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestReceiver(): Promise<TestReceiver> {
  const received: ReceivedWebhook[] = [];
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      const hook: ReceivedWebhook = { path: req.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(hook);
      void Promise.resolve(receiver.answer(hook, received.length - 1)).then((a) => {
        if (res.destroyed) return;
        res.writeHead(a.status, a.headers);
        res.end(a.body ?? '');
      });
    });
  };
  let server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const closeServer = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  const receiver: TestReceiver = {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answer: () => ({ status: 204 }),
    down: closeServer,
    async up() {
      server = http.createServer(handler);
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    close: () => (server.listening ? closeServer() : Promise.resolve()),
  };
  return receiver;
}

/**
 * Verifies a received webhook with the reference Standard Webhooks library, as a receiver would,
 * at the desk's clock time (the library rejects timestamps 5 minutes away from "now"). Returns the
 * parsed envelope; throws when the signature does not verify.
 */
export function verifyWebhook(secret: string, hook: ReceivedWebhook, now: Date): unknown {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
  try {
    return new Webhook(secret).verify(hook.body, hook.headers);
  } finally {
    vi.useRealTimers();
  }
}
