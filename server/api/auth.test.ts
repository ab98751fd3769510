import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbFingerprint } from '../testing/db-fingerprint';
import { startTestDesk, type TestDesk } from '../testing/desk';
import { bearerOf, tokenMatches } from './auth';

/**
 * The auth sweep: every operation the served OpenAPI document lists with a security requirement
 * refuses a request without a token and one with a wrong token, before it does anything.
 */

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

interface Operation {
  method: string;
  path: string;
  secured: boolean;
}

let desk: TestDesk;
let operations: Operation[];

beforeAll(async () => {
  desk = await startTestDesk();
  const res = await desk.api('GET', '/api/v1/openapi.json', undefined, null);
  expect(res.status).toBe(200);
  const doc = res.body as { security?: Record<string, string[]>[]; paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>> };
  operations = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      // An operation's own `security` wins; `[]` or `[{}]` means public.
      const security = op.security ?? doc.security ?? [];
      const secured = security.length > 0 && security.every((req) => Object.keys(req).length > 0);
      operations.push({ method: method.toUpperCase(), path, secured });
    }
  }
});
afterAll(async () => {
  await desk.stop();
});

/** `{id}`-style parameters become ids that exist nowhere. */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'zz_does_not_exist_01');

function expectUnauthorized(res: Awaited<ReturnType<TestDesk['api']>>, what: string) {
  expect(res.status, what).toBe(401);
  expect(res.body, what).toEqual({ error: 'unauthorized', message: expect.any(String) });
  expect(res.body.message.length, what).toBeGreaterThan(0);
}

describe('auth sweep over openapi.json', () => {
  it('the document lists the secured workspace routes and the public spec route', () => {
    expect(operations.filter((o) => o.secured).length).toBeGreaterThan(10);
    expect(operations).toContainEqual({ method: 'GET', path: '/api/v1/workspace', secured: true });
    expect(operations).toContainEqual({ method: 'GET', path: '/api/v1/activity', secured: true });
    expect(operations).toContainEqual({ method: 'GET', path: '/api/v1/openapi.json', secured: false });
  });

  it('every secured operation refuses a missing token', async () => {
    for (const op of operations.filter((o) => o.secured)) {
      const body = op.method === 'GET' || op.method === 'DELETE' ? undefined : {};
      expectUnauthorized(await desk.api(op.method, concrete(op.path), body, null), `${op.method} ${op.path} without a token`);
    }
  });

  it('every secured operation refuses a wrong token', async () => {
    const wrong = `${desk.token.slice(0, -2)}xx`;
    for (const op of operations.filter((o) => o.secured)) {
      const body = op.method === 'GET' || op.method === 'DELETE' ? undefined : {};
      // The three at once: ~700 requests one after another pass the test's time on a busy machine.
      const answers = await Promise.all([wrong, 'x', desk.token + desk.token].map((token) => desk.api(op.method, concrete(op.path), body, token)));
      for (const res of answers) expectUnauthorized(res, `${op.method} ${op.path} with a wrong token`);
    }
  });

  it('a refused request changes nothing', async () => {
    const before = await dbFingerprint(desk.services.db);
    for (const op of operations.filter((o) => o.secured && o.method !== 'GET')) {
      await desk.api(op.method, concrete(op.path), { loopState: 'off', plan: 'team', tags: ['x'] }, 'wrong-token');
    }
    expect(await dbFingerprint(desk.services.db)).toEqual(before);
  });

  it('public operations are GETs and answer without a token', async () => {
    const open = operations.filter((o) => !o.secured && !o.path.includes('{token}'));
    for (const op of open) {
      expect(op.method, `${op.path} is public, so it must not change anything`).toBe('GET');
      const res = await desk.api(op.method, concrete(op.path), undefined, null);
      expect(res.status, `${op.method} ${op.path}`).not.toBe(401);
      expect(res.status, `${op.method} ${op.path}`).toBeLessThan(500);
    }
    const spec = await desk.api('GET', '/api/v1/openapi.json', undefined, null);
    expect(spec.status).toBe(200);
    expect(spec.body.openapi).toBe('3.1.0');
  });

  it('operations addressed by the token in their path refuse a wrong one like an unknown route', async () => {
    const addressed = operations.filter((o) => !o.secured && o.path.includes('{token}'));
    const before = await dbFingerprint(desk.services.db);
    for (const op of addressed) {
      for (const token of ['wrong', `${desk.token.slice(0, -2)}xx`]) {
        const res = await desk.api(op.method, op.path.replace('{token}', token), { title: 'hello' }, null);
        expect(res.status, `${op.method} ${op.path}`).toBe(404);
        expect(res.body).toEqual({ error: 'not_found', message: expect.any(String) });
      }
    }
    expect(await dbFingerprint(desk.services.db)).toEqual(before);
  });

  it('the right token passes, in any case of the scheme name', async () => {
    expect((await desk.api('GET', '/api/v1/workspace')).status).toBe(200);
    const res = await fetch(`${desk.url}/api/v1/workspace`, { headers: { authorization: `bearer ${desk.token}` } });
    expect(res.status).toBe(200);
  });

  it('other authorization schemes and malformed headers are refused', async () => {
    for (const header of [`Basic ${desk.token}`, desk.token, 'Bearer', 'Bearer ', `Bearer ${desk.token} extra`, `Token ${desk.token}`]) {
      const res = await fetch(`${desk.url}/api/v1/workspace`, { headers: { authorization: header } });
      expect(res.status, header).toBe(401);
      expect(await res.json()).toEqual({ error: 'unauthorized', message: expect.any(String) });
    }
  });

  it('on one keep-alive connection: the right token again passes, a wrong one after it is refused, a rotated one no longer passes', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const port = Number(new URL(desk.url).port);
    const call = (authorization: string) =>
      new Promise<{ status: number; socket: unknown }>((resolve, reject) => {
        const req = http.request({ agent, host: '127.0.0.1', port, path: '/api/v1/workspace', headers: { authorization } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, socket: req.socket }));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      const first = await call(`Bearer ${desk.token}`);
      const second = await call(`Bearer ${desk.token}`);
      const wrong = await call(`Bearer ${desk.token}x`);
      expect([first.status, second.status, wrong.status]).toEqual([200, 200, 401]);
      expect(second.socket).toBe(first.socket); // the same connection each time
      const old = desk.token;
      expect((await call(`Bearer ${old}`)).status).toBe(200);
      const rotated = await desk.api('POST', '/api/v1/workspace/token/rotate');
      expect(rotated.status).toBe(200);
      expect((await call(`Bearer ${old}`)).status).toBe(401);
      expect((await call(`Bearer ${desk.token}`)).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('the inbound webhook on one keep-alive connection: the right path token again passes, a wrong one is a 404, a rotated one no longer passes', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const port = Number(new URL(desk.url).port);
    const body = JSON.stringify({ title: 'Kept connection' });
    const push = (token: string) =>
      new Promise<{ status: number; socket: unknown }>((resolve, reject) => {
        const req = http.request({ agent, host: '127.0.0.1', port, method: 'POST', path: `/api/webhooks/signals/${token}`, headers: { 'content-type': 'application/json' } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, socket: req.socket }));
        });
        req.on('error', reject);
        req.end(body);
      });
    try {
      const old = desk.token;
      const first = await push(old);
      const second = await push(old);
      const wrong = await push(`${old}x`);
      expect([first.status, second.status, wrong.status]).toEqual([201, 201, 404]);
      expect(second.socket).toBe(first.socket);
      expect((await push(old)).status).toBe(201);
      expect((await desk.api('POST', '/api/v1/workspace/token/rotate')).status).toBe(200);
      expect((await push(old)).status).toBe(404);
      expect((await push(desk.token)).status).toBe(201);
    } finally {
      agent.destroy();
    }
  });

  it('the token is not accepted in the query string', async () => {
    const res = await desk.api('GET', `/api/v1/workspace?token=${desk.token}`, undefined, null);
    expect(res.status).toBe(401);
  });
});

describe('auth helpers', () => {
  it('tokenMatches compares exactly', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true);
    expect(tokenMatches('abc', 'abd')).toBe(false);
    expect(tokenMatches('abc', 'abcd')).toBe(false);
    expect(tokenMatches('', 'abc')).toBe(false);
    // The expected token's digest is kept: a new expected token (a rotation) is compared as itself.
    expect(tokenMatches('abc', 'xyz')).toBe(false);
    expect(tokenMatches('xyz', 'xyz')).toBe(true);
    expect(tokenMatches('abc', 'xyz')).toBe(false);
    expect(tokenMatches('abc', 'abc')).toBe(true);
  });

  it('bearerOf reads only a well-formed bearer header', () => {
    const req = (authorization?: string) => ({ headers: authorization === undefined ? {} : { authorization } }) as never;
    expect(bearerOf(req())).toBeNull();
    expect(bearerOf(req('Bearer abc'))).toBe('abc');
    expect(bearerOf(req('bearer   abc  '))).toBe('abc');
    expect(bearerOf(req('Bearer a b'))).toBeNull();
    expect(bearerOf(req('Basic abc'))).toBeNull();
  });
});
