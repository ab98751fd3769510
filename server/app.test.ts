import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import helmet from 'helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_HELMET, STRICT_HELMET, directRoutes, precomputedHeaders } from './app';
import { RegisterRoutes } from './generated/routes';
import { openApiDocument } from './openapi/document';
import { startTestDesk, type TestDesk } from './testing/desk';

/** Security headers on every kind of response, and how the built UI is served. */

let desk: TestDesk;
let uiDir: string;

beforeAll(async () => {
  uiDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-ui-'));
  fs.mkdirSync(path.join(uiDir, 'assets'));
  fs.writeFileSync(path.join(uiDir, 'index.html'), '<!doctype html><title>Desk</title><div id="root"></div>');
  fs.writeFileSync(path.join(uiDir, 'assets', 'index-abc123.js'), 'console.log("desk")');
  desk = await startTestDesk({ uiDir });
});
afterAll(async () => {
  await desk.stop();
  fs.rmSync(uiDir, { recursive: true, force: true });
});

const get = (urlPath: string, token: string | null = null) =>
  fetch(desk.url + urlPath, { headers: token ? { authorization: `Bearer ${token}` } : {}, redirect: 'manual' });

describe('security headers', () => {
  const responses: [string, () => Promise<Response>][] = [
    ['the UI at /', () => get('/')],
    ['a client route of the UI', () => get('/settings')],
    ['a UI asset', () => get('/assets/index-abc123.js')],
    ['a missing UI asset', () => get('/assets/index-old999.js')],
    ['an API answer', () => get('/api/v1/workspace', desk.token)],
    ['a 401', () => get('/api/v1/workspace')],
    ['an unknown API route', () => get('/api/v1/nope', desk.token)],
    ['the public OpenAPI document', () => get('/api/v1/openapi.json')],
    ['the API reference page', () => get('/api/docs/')],
  ];

  it.each(responses)('are on %s', async (_what, send) => {
    const res = await send();
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });

  it.each(responses)('never push a plain-HTTP local server to https: %s', async (_what, send) => {
    // Safari upgrades even loopback requests under upgrade-insecure-requests, and the UI's assets then fail.
    const res = await send();
    expect(res.headers.get('content-security-policy')).not.toContain('upgrade-insecure-requests');
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('precomputed security headers', () => {
  /** Every header of a response of a tiny app guarded by `middleware`, the date aside. */
  async function headersWith(middleware: RequestHandler): Promise<Record<string, string>> {
    const app = express();
    app.use(middleware);
    app.get('/', (_req, res) => {
      res.json({ ok: true });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      const headers = Object.fromEntries(res.headers.entries());
      delete headers.date;
      return headers;
    } finally {
      server.close();
    }
  }

  it.each([
    ['the strict set', STRICT_HELMET],
    ['the API reference page', DOCS_HELMET],
    ['helmet defaults', {}],
  ])('are exactly the headers helmet itself sets: %s', async (_what, options) => {
    const own = await headersWith(helmet(options));
    expect(own['content-security-policy']).toBeTruthy();
    expect(own['x-powered-by']).toBeUndefined();
    expect(await headersWith(precomputedHeaders(helmet(options)))).toEqual(own);
  });

  it('refuses a middleware whose headers depend on the request', () => {
    const perRequest: RequestHandler = (req, _res, next) => setImmediate(next);
    expect(() => precomputedHeaders(perRequest)).toThrow(/fixed headers/);
  });
});

describe('the UI', () => {
  it('serves index.html for client routes, never cached', async () => {
    for (const route of ['/', '/settings', '/sources/src_01ABC']) {
      const res = await get(route);
      expect(res.status, route).toBe(200);
      expect(res.headers.get('content-type'), route).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control'), route).toBe('no-cache');
      expect(await res.text(), route).toContain('<div id="root">');
    }
  });

  it('serves assets as themselves and a missing file as 404, not as the app', async () => {
    const asset = await get('/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    for (const missing of ['/assets/index-old999.js', '/favicon.ico', '/robots.txt']) {
      const res = await get(missing);
      expect(res.status, missing).toBe(404);
      expect(await res.text(), missing).not.toContain('<div id="root">');
    }
  });
});

describe('the API reference', () => {
  it('serves swagger-ui with the whole document (loaded on the first request), and leaves other paths to the app', async () => {
    const page = await get('/api/docs/');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Desk API reference</title>');
    const init = await get('/api/docs/swagger-ui-init.js');
    expect(init.status).toBe(200);
    const script = await init.text();
    expect(script).toContain('"/api/v1/signals"');
    expect(script).toMatch(/"openapi": *"3\./);
    expect((await get('/api/docs/swagger-ui.css')).headers.get('content-type')).toMatch(/text\/css/);
    // Not a file of swagger-ui: the app's own 404 page for an unknown path, not an error.
    expect((await get('/api/docs/no-such-file.js')).status).toBeLessThan(500);
  });
});

describe('a refused bearer request', () => {
  it('names the scheme it expects (RFC 6750)', async () => {
    for (const token of [null, 'wrong-token']) {
      const res = await get('/api/v1/workspace', token);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="desk"');
    }
    expect((await get('/api/v1/workspace', desk.token)).headers.get('www-authenticate')).toBeNull();
  });
});

describe('direct dispatch of fixed-path API routes', () => {
  const handler = (name: string): RequestHandler => Object.defineProperty(() => undefined, 'name', { value: name });
  const auth = handler('runAuthenticationMiddleware');
  const bearer = [{ bearer: [] }];
  const spec = {
    paths: {
      '/api/v1/items/{id}': { get: { operationId: 'GetItem', security: bearer } },
      '/api/v1/items/stale': { get: { operationId: 'GetStale', security: bearer } },
      '/api/v1/items': { get: { operationId: 'ListItems', security: bearer }, post: { operationId: 'CreateItem', security: bearer } },
      '/api/v1/public': { get: { operationId: 'GetPublic', security: [] } },
      '/api/v1/public-too': { get: { operationId: 'GetPublicToo' } },
      '/api/v1/Items': { get: { operationId: 'ListItemsAgain', security: bearer } },
    },
  };

  it('takes fixed paths with only tsoa authentication, by operationId, not those an earlier route shadows or with middlewares', () => {
    const final = handler('final');
    const routes = directRoutes((router) => {
      router.get('/api/v1/items/:id', auth, handler('byId'));
      router.get('/api/v1/items/stale', auth, handler('stale')); // Express serves /items/:id for it
      router.get('/api/v1/items', auth, final);
      router.post('/api/v1/items', auth, handler('extra'), handler('create')); // a middleware of its own
      router.get('/api/v1/public', handler('public'));
      // A public operation's middleware is not authentication, whatever its function is called.
      router.get('/api/v1/public-too', handler('runAuthenticationMiddleware'), handler('publicToo'));
      router.get('/api/v1/Items', auth, handler('second')); // a later duplicate never runs
      router.get('/api/v1/undocumented', handler('undocumented'));
    }, spec);
    expect([...routes.keys()].sort()).toEqual(['GetPublic', 'ListItems']);
    expect(routes.get('ListItems')).toBe(final);
  });

  it('does not depend on the names of the generated functions: tsoa’s routes renamed (as a minifier would) dispatch the same', () => {
    const byName = directRoutes(RegisterRoutes, openApiDocument);
    const renamed = directRoutes((router) => {
      const anonymous = (verb: 'get' | 'post' | 'put' | 'patch' | 'delete') => (routePath: string, ...handlers: RequestHandler[]) =>
        (router[verb] as (p: string, ...h: RequestHandler[]) => unknown)(routePath, ...handlers.map((h, i) => Object.defineProperty(h, 'name', { value: `h${i}` })));
      RegisterRoutes({ get: anonymous('get'), post: anonymous('post'), put: anonymous('put'), patch: anonymous('patch'), delete: anonymous('delete') } as unknown as express.Router);
    }, openApiDocument);
    expect([...renamed.keys()].sort()).toEqual([...byName.keys()].sort());
    // Each is the operation of that method and fixed path in the document, the hot paths among them.
    const operations = new Map<string, string>();
    for (const [template, item] of Object.entries((openApiDocument as unknown as { paths: Record<string, Record<string, { operationId: string }>> }).paths)) {
      for (const op of Object.values(item)) operations.set(op.operationId, template);
    }
    for (const id of renamed.keys()) expect(operations.get(id), id).not.toMatch(/\{/);
    expect(renamed.has('GetWorkspace')).toBe(true);
    expect(renamed.has('CreateSignal')).toBe(true);
    expect(renamed.size).toBeGreaterThan(50);
  });

  it('answers a direct route exactly as the router does: a fixed path and its case and slash variants', async () => {
    const variants = ['/api/v1/workspace', '/API/v1/Workspace', '/api/v1/workspace/'];
    const answers = await Promise.all(variants.map((p) => get(p, desk.token)));
    const bodies = await Promise.all(answers.map((r) => r.text()));
    for (const [i, res] of answers.entries()) {
      expect(res.status, variants[i]).toBe(200);
      expect(bodies[i], variants[i]).toBe(bodies[0]);
    }
    const head = await fetch(desk.url + '/api/v1/workspace', { method: 'HEAD', headers: { authorization: `Bearer ${desk.token}` } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(bodies[0])));
  });
});
