import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from './openapi/document';
import { hostAllowed, hostileJson, isLoopbackName, operationTable, originAllowed, MAX_JSON_DEPTH } from './http-guards';
import { startTestDesk, type TestDesk } from './testing/desk';

/** Host allow-list, Origin check, auth before the body is read, hostile JSON: against a real desk. */

let desk: TestDesk;
let uiDir: string;
let port: number;

beforeAll(async () => {
  uiDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-ui-'));
  fs.writeFileSync(path.join(uiDir, 'index.html'), '<!doctype html><title>Desk</title><div id="root"></div>');
  desk = await startTestDesk({ uiDir });
  port = Number(new URL(desk.url).port);
});
afterAll(async () => {
  await desk.stop();
  fs.rmSync(uiDir, { recursive: true, force: true });
});

interface Raw {
  status: number;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read response fields freely
  json(): any;
}

/** http.request, so the Host and Origin headers can be anything. */
function raw(method: string, urlPath: string, headers: Record<string, string | number>, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers, setHost: !('host' in headers) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, text, json: () => JSON.parse(text) });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const bearer = () => ({ authorization: `Bearer ${desk.token}` });
const jsonBearer = () => ({ ...bearer(), 'content-type': 'application/json' });

describe('Host allow-list (DNS rebinding)', () => {
  it.each(['/', '/settings', '/api/docs/', '/api/v1/openapi.json', '/api/v1/workspace', '/api/v1/nope'])('a foreign Host gets 421 on %s', async (urlPath) => {
    for (const host of [`evil.example:${port}`, 'evil.example', `localhost.evil.example:${port}`, `127.0.0.1.nip.io:${port}`]) {
      const res = await raw('GET', urlPath, { ...bearer(), host });
      expect(res.status, `${host} ${urlPath}`).toBe(421);
      expect(res.json()).toEqual({ error: 'host_not_allowed', message: expect.stringContaining('Host') });
      expect(res.text).not.toContain('<div id="root">');
    }
  });

  it('the desk answers under every loopback name with its port', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`, `127.8.9.10:${port}`]) {
      expect((await raw('GET', '/api/v1/workspace', { ...bearer(), host })).status, host).toBe(200);
      expect((await raw('GET', '/', { host })).status, host).toBe(200);
    }
  });

  it('a loopback name with another port is refused too', async () => {
    expect((await raw('GET', '/api/v1/workspace', { ...bearer(), host: `127.0.0.1:${port + 1}` })).status).toBe(421);
    expect((await raw('GET', '/api/v1/workspace', { ...bearer(), host: '127.0.0.1' })).status).toBe(421);
  });

  it('the inbound webhook answers under any host name (a tunnel reaches it so), and still needs its token', async () => {
    const body = JSON.stringify({ title: 'via a tunnel' });
    const ok = await raw('POST', `/api/webhooks/signals/${desk.token}`, { host: 'abc123.tunnel.example', 'content-type': 'application/json', origin: 'https://tunnel.example' }, body);
    expect(ok.status, ok.text).toBe(201);
    const wrong = await raw('POST', '/api/webhooks/signals/wrong-token', { host: 'abc123.tunnel.example', 'content-type': 'application/json' }, body);
    expect(wrong.status).toBe(404);
  });
});

describe('Origin check on changes', () => {
  const loop = () => desk.api('GET', '/api/v1/workspace').then((r) => r.body.loopState);

  it('refuses a change posted by a page of another origin, and changes nothing', async () => {
    const before = await loop();
    for (const origin of ['http://evil.example', `http://evil.example:${port}`, 'null', `https://127.0.0.1.evil.example:${port}`]) {
      const res = await raw('PATCH', '/api/v1/workspace/loop', { ...jsonBearer(), origin }, JSON.stringify({ loopState: before === 'off' ? 'on' : 'off' }));
      expect(res.status, origin).toBe(403);
      expect(res.json().error).toBe('origin_not_allowed');
    }
    expect(await loop()).toBe(before);
  });

  it('accepts a change from the UI itself (same origin) and from clients that send no Origin', async () => {
    const same = await raw('PATCH', '/api/v1/workspace/loop', { ...jsonBearer(), origin: `http://127.0.0.1:${port}` }, JSON.stringify({ loopState: 'paused' }));
    expect(same.status, same.text).toBe(200);
    expect(await loop()).toBe('paused');
    const script = await raw('PATCH', '/api/v1/workspace/loop', jsonBearer(), JSON.stringify({ loopState: 'on' }));
    expect(script.status).toBe(200);
    expect(await loop()).toBe('on');
  });

  it('reads from a foreign origin are left to the browser (no CORS header, so the page cannot read them)', async () => {
    const res = await raw('GET', '/api/v1/workspace', { ...bearer(), origin: 'http://evil.example' });
    expect(res.status).toBe(200);
  });
});

describe('auth before the body is read', () => {
  it('a malformed body without a valid token is 401, not 400', async () => {
    for (const headers of [{ 'content-type': 'application/json' }, { 'content-type': 'application/json', authorization: 'Bearer wrong' }] as Record<string, string>[]) {
      const res = await raw('PATCH', '/api/v1/workspace/loop', headers, '{"loopState": on');
      expect(res.status).toBe(401);
      expect(res.json().error).toBe('unauthorized');
    }
  });

  it('a 900 kB body with a wrong token is refused before it is even sent in full', async () => {
    // Only the first kilobyte is sent: a server that reads the body first would wait for the rest.
    const answer = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, method: 'POST', path: '/api/v1/sources', headers: { 'content-type': 'application/json', authorization: 'Bearer wrong', 'content-length': 900_000 } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        },
      );
      req.on('error', (err) => (err.message.includes('socket hang up') ? undefined : reject(err)));
      req.write(`{"name":"${'x'.repeat(1000)}`);
      setTimeout(() => reject(new Error('no answer while the body was incomplete: the body is read before the token is checked')), 3000).unref();
    });
    expect(answer).toBe(401);
  });

  it('public routes still answer without a token, and a valid token still gets its body parsed', async () => {
    expect((await raw('GET', '/api/v1/openapi.json', {})).status).toBe(200);
    const res = await raw('PATCH', '/api/v1/workspace/loop', jsonBearer(), JSON.stringify({ loopState: 'on' }));
    expect(res.status).toBe(200);
  });

  it('the public and bearer operations are read from the OpenAPI document', () => {
    const ops = operationTable(openApiDocument);
    // Fixed paths carry the key of their body limit (HEAD is served as GET, case and a trailing slash folded); every
    // operation its operationId, which app.ts dispatches direct routes by.
    expect(ops.match('GET', '/api/v1/openapi.json')).toEqual({ public: true, key: 'GET /api/v1/openapi.json', operationId: 'Openapi' });
    expect(ops.match('POST', '/api/webhooks/signals/abc')).toEqual({ public: true, operationId: 'ReceiveInboundSignals' });
    expect(ops.match('GET', '/api/v1/workspace')).toEqual({ public: false, key: 'GET /api/v1/workspace', operationId: 'GetWorkspace' });
    expect(ops.match('HEAD', '/api/v1/Workspace/')).toEqual({ public: false, key: 'GET /api/v1/workspace', operationId: 'GetWorkspace' });
    expect(ops.match('PATCH', '/api/v1/sources/src_1')).toEqual({ public: false, operationId: 'UpdateSource' });
    expect(ops.match('DELETE', '/api/v1/workspace')).toBeUndefined();
    expect(ops.match('GET', '/api/v1/sources/a/b')).toBeUndefined();
  });
});

describe('hostile JSON bodies', () => {
  it('1e400 (Infinity once parsed) is 400 and does not remove the daily cost cap', async () => {
    const before = (await desk.api('GET', '/api/v1/workspace')).body.dailyCostCapUsdCents;
    expect(before).toEqual(expect.any(Number));
    for (const value of ['1e400', '-1e400']) {
      const res = await raw('PATCH', '/api/v1/workspace/cost-cap', jsonBearer(), `{"dailyCostCapUsdCents":${value}}`);
      expect(res.status, res.text).toBe(400);
      expect(res.json()).toEqual({ error: 'malformed_body', message: expect.stringContaining('finite') });
    }
    expect((await desk.api('GET', '/api/v1/workspace')).body.dailyCostCapUsdCents).toBe(before);
  });

  it('5,000 nested arrays on a union-typed field are 400, not 500', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const res = await raw('PATCH', '/api/v1/workspace/loop', jsonBearer(), `{"loopState":${deep}}`);
    expect(res.status, res.text.slice(0, 200)).toBe(400);
    expect(res.json()).toEqual({ error: 'malformed_body', message: expect.stringContaining(`deeper than ${MAX_JSON_DEPTH}`) });
    const cap = await raw('PATCH', '/api/v1/workspace/cost-cap', jsonBearer(), `{"dailyCostCapUsdCents":${deep}}`);
    expect(cap.status).toBe(400);
  });

  it('the inbound webhook refuses them too', async () => {
    const url = `/api/webhooks/signals/${desk.token}`;
    const headers = { 'content-type': 'application/json' };
    expect((await raw('POST', url, headers, '{"title":"x","priority":1e400}')).status).toBe(400);
    const deep = await raw('POST', url, headers, `{"title":"x","kind":${'['.repeat(5000)}${']'.repeat(5000)}}`);
    expect(deep.status, deep.text.slice(0, 200)).toBe(400);
    expect(deep.json().error).toBe('malformed_body');
  });
});

describe('unit: the rules', () => {
  const arrival = { localPort: 4477, localAddress: '127.0.0.1' };

  it('loopback names', () => {
    for (const name of ['localhost', '127.0.0.1', '127.255.0.9', '[::1]']) expect(isLoopbackName(name), name).toBe(true);
    for (const name of ['evil.example', '127.0.0.1.nip.io', 'localhost.evil.example', '10.0.0.1', '[::2]']) expect(isLoopbackName(name), name).toBe(false);
  });

  it('hosts: loopback or DESK_HOST, with the port; the address the connection came in on', () => {
    expect(hostAllowed('localhost:4477', '127.0.0.1', arrival)).toBe(true);
    expect(hostAllowed('desk.lan:4477', 'desk.lan', arrival)).toBe(true);
    expect(hostAllowed('DESK.lan:4477', 'desk.lan', arrival)).toBe(true);
    expect(hostAllowed('desk.lan:4477', '127.0.0.1', arrival)).toBe(false);
    expect(hostAllowed('desk.lan:80', 'desk.lan', arrival)).toBe(false);
    expect(hostAllowed('[fe80::1]:4477', 'fe80::1', arrival)).toBe(true);
    // A desk bound to every interface is reached at the LAN address it arrived on, never under a name.
    const lan = { localPort: 4477, localAddress: '::ffff:192.168.1.5' };
    expect(hostAllowed('192.168.1.5:4477', '0.0.0.0', lan)).toBe(true);
    expect(hostAllowed('0.0.0.0:4477', '0.0.0.0', lan)).toBe(false);
    expect(hostAllowed('evil.example:4477', '0.0.0.0', lan)).toBe(false);
    for (const bad of [undefined, '', 'user@localhost:4477', 'localhost:4477/x', 'local host:4477']) expect(hostAllowed(bad, '127.0.0.1', arrival), String(bad)).toBe(false);
  });

  it('origins', () => {
    expect(originAllowed('http://127.0.0.1:4477', '127.0.0.1', arrival)).toBe(true);
    expect(originAllowed('http://localhost:4477', '127.0.0.1', arrival)).toBe(true);
    for (const bad of ['null', 'http://evil.example', 'http://127.0.0.1:3000', 'file://', 'http://127.0.0.1:4477/path']) expect(originAllowed(bad, '127.0.0.1', arrival), bad).toBe(false);
  });

  it('hostile JSON: non-finite numbers anywhere, nesting past the bound', () => {
    expect(hostileJson({ a: [1, { b: 'x' }], c: null, d: true })).toBeNull();
    expect(hostileJson({ a: [1, { b: Infinity }] })).toMatch(/finite/);
    expect(hostileJson(-Infinity)).toMatch(/finite/);
    let atBound: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH; i++) atBound = [atBound];
    expect(hostileJson(atBound)).toBeNull();
    expect(hostileJson([atBound])).toMatch(/deeper/);
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = { x: deep };
    expect(hostileJson(deep)).toMatch(/deeper/);
  });
});
