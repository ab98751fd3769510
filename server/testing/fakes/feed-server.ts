import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** For tests: a feed server on 127.0.0.1 (free port) whose answers the test sets per path. */

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'feed-fixtures');
export const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

export interface FeedRoute {
  status?: number;
  body?: string;
  contentType?: string;
  /** Sent as ETag; a request with a matching If-None-Match gets 304. */
  etag?: string;
  /** Sent as Last-Modified; a request with the same If-Modified-Since gets 304. */
  lastModified?: string;
  /** Streams this many bytes without a Content-Length (a body past the size cap). */
  streamBytes?: number;
  /** Never answers (for timeouts). */
  hang?: boolean;
  /** A slow feed: the answer waits until this promise resolves (the test opens it; see `gate()`). */
  gate?: Promise<void>;
}

/** A gate for `FeedRoute.gate`: requests wait until `open()`. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

export interface FeedServer {
  url(pathname: string): string;
  set(pathname: string, route: FeedRoute): void;
  /** Requests received, oldest first, with the headers that matter for conditional GET. */
  requests: { path: string; ifNoneMatch: string | null; ifModifiedSince: string | null; status: number }[];
  /** Paths of the requests received, as they arrive (a gated request is here before it is answered). */
  arrivals: string[];
  close(): Promise<void>;
}

export async function startFeedServer(): Promise<FeedServer> {
  const routes = new Map<string, FeedRoute>();
  const requests: FeedServer['requests'] = [];
  const arrivals: string[] = [];
  const server = http.createServer(async (req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    arrivals.push(pathname);
    const route = routes.get(pathname);
    if (route?.gate) await route.gate;
    const ifNoneMatch = (req.headers['if-none-match'] as string | undefined) ?? null;
    const ifModifiedSince = (req.headers['if-modified-since'] as string | undefined) ?? null;
    const log = (status: number) => requests.push({ path: pathname, ifNoneMatch, ifModifiedSince, status });
    if (!route) {
      log(404);
      res.writeHead(404).end('not found');
      return;
    }
    if (route.hang) {
      log(0);
      return;
    }
    if ((route.etag && ifNoneMatch === route.etag) || (route.lastModified && ifModifiedSince === route.lastModified)) {
      log(304);
      res.writeHead(304).end();
      return;
    }
    const status = route.status ?? 200;
    log(status);
    const headers: Record<string, string> = { 'content-type': route.contentType ?? 'application/xml; charset=utf-8' };
    if (route.etag) headers.etag = route.etag;
    if (route.lastModified) headers['last-modified'] = route.lastModified;
    if (route.streamBytes) {
      res.writeHead(status, headers);
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let sent = 0;
      const pump = () => {
        while (sent < route.streamBytes!) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('error', () => undefined);
      pump();
      return;
    }
    res.writeHead(status, headers).end(route.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: (pathname) => `http://127.0.0.1:${port}${pathname}`,
    set: (pathname, route) => void routes.set(pathname, route),
    requests,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
