import { vi } from 'vitest';

/** A JSON response, the way the API answers. */
export const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** One request the UI sent, as a fake API sees it; `body` is the parsed JSON body, undefined when there was none. */
export interface FakeCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  /** The Authorization header sent, or null. */
  authorization: string | null;
}

/** The answer of a fake API to a request it does not know. */
export const noFake = (call: FakeCall) => json(404, { error: 'not_found', message: `no fake for ${call.method} ${call.path}` });

/**
 * Replaces the global fetch with a fake API: `handler` answers every request, and each one is kept in
 * `calls` (oldest first) for assertions. testing/setup.ts puts the real fetch back after each test.
 */
export function fakeFetch(handler: (call: FakeCall) => Response | Promise<Response>) {
  const calls: FakeCall[] = [];
  const fetch = vi.fn(async (req: Request) => {
    const url = new URL(req.url);
    const text = req.method === 'GET' ? '' : await req.text();
    const call: FakeCall = { method: req.method, path: url.pathname, query: url.searchParams, body: text ? JSON.parse(text) : undefined, authorization: req.headers.get('Authorization') };
    calls.push(call);
    return handler(call);
  });
  vi.stubGlobal('fetch', fetch);
  return { fetch, calls };
}
