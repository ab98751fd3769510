import http from 'node:http';
import zlib from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorHandler } from '../app';
import { DeskError } from '../core/errors';
import { dbFingerprint } from '../testing/db-fingerprint';
import { startTestDesk, type TestDesk } from '../testing/desk';

/** The one error shape, and no 500 for anything a client can send. */

let desk: TestDesk;

beforeAll(async () => {
  desk = await startTestDesk();
});
afterAll(async () => {
  await desk.stop();
});

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** Plain http.request, so any header or byte sequence can be sent. */
function raw(method: string, path: string, headers: Record<string, string>, body?: Buffer | string, baseUrl = desk.url): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const u = new URL(baseUrl);
    const req = http.request({ host: u.hostname, port: u.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** Every error body is exactly { error: snake_case, message, details?: [{ field, message }] }, as JSON. */
function expectErrorShape(res: RawResponse, status: number, what: string) {
  expect(res.status, `${what} -> ${res.text}`).toBe(status);
  expect(res.headers['content-type'], what).toMatch(/^application\/json/);
  const body = JSON.parse(res.text);
  expect(Object.keys(body).every((k) => ['error', 'message', 'details'].includes(k)), what).toBe(true);
  expect(body.error, what).toMatch(/^[a-z]+(_[a-z]+)*$/);
  expect(typeof body.message, what).toBe('string');
  expect(body.message.length, what).toBeGreaterThan(0);
  expect(res.text, what).not.toMatch(/\n\s+at /); // no stack trace
  if (body.details !== undefined) {
    expect(Array.isArray(body.details), what).toBe(true);
    for (const d of body.details) {
      expect(Object.keys(d).sort(), what).toEqual(['field', 'message']);
      expect(typeof d.field, what).toBe('string');
      expect(typeof d.message, what).toBe('string');
    }
  }
  return body as { error: string; message: string; details?: { field: string; message: string }[] };
}

const auth = () => ({ authorization: `Bearer ${desk.token}` });
const json = () => ({ ...auth(), 'content-type': 'application/json' });

describe('error responses', () => {
  it('malformed JSON is 400 malformed_body', async () => {
    for (const body of ['{', '{"loopState": "on",}', "{'loopState': 'on'}", 'undefined', '{"loopState": on}']) {
      const err = expectErrorShape(await raw('PATCH', '/api/v1/workspace/loop', json(), body), 400, body);
      expect(err.error).toBe('malformed_body');
    }
  });

  it('a body over the limit is 413, whether sent plain or compressed', async () => {
    const big = JSON.stringify({ tags: ['a'], pad: 'x'.repeat(1_100_000) });
    expect(expectErrorShape(await raw('PUT', '/api/v1/workspace/focus-tags', json(), big), 413, 'plain').error).toBe('body_too_large');
    const bomb = zlib.gzipSync(Buffer.alloc(5_000_000, 32));
    const res = await raw('PATCH', '/api/v1/workspace/loop', { ...json(), 'content-encoding': 'gzip' }, bomb);
    expect(expectErrorShape(res, 413, 'gzip').error).toBe('body_too_large');
  });

  it('a body just under the limit is read (and then validated)', async () => {
    const body = JSON.stringify({ loopState: 'on', pad: 'x'.repeat(1_000_000) });
    const err = expectErrorShape(await raw('PATCH', '/api/v1/workspace/loop', json(), body), 422, 'under the limit');
    expect(err.details?.map((d) => d.field)).toEqual(['pad']);
  });

  it('an unknown /api route is 404 not_found, with or without a token', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/nope'],
      ['POST', '/api/v1/workspace/nope'],
      ['DELETE', '/api/v1/workspace'],
      ['PROPFIND', '/api/v1/workspace'],
      ['GET', '/api/v2/workspace'],
      ['GET', '/api'],
      ['GET', '/api/v1/%ZZ'],
      ['GET', '/api/v1/openapi.json/extra'],
    ]) {
      for (const headers of [auth(), {}]) {
        const err = expectErrorShape(await raw(method, path, headers), 404, `${method} ${path}`);
        expect(err.error).toBe('not_found');
      }
    }
  });

  it('an extra property is 422 naming it', async () => {
    const res = await raw('PATCH', '/api/v1/workspace/loop', json(), JSON.stringify({ loopState: 'on', loopstate: 'off' }));
    const err = expectErrorShape(res, 422, 'extra');
    expect(err.error).toBe('validation_failed');
    expect(err.details).toEqual([{ field: 'loopstate', message: expect.stringContaining('excess') }]);
    expect(err.message).toContain('loopstate');
  });

  it('a validation failure names every bad field', async () => {
    const res = await raw('PATCH', '/api/v1/workspace/approval-policy', json(), JSON.stringify({ watchHours: 0, overdueHours: 9999 }));
    const err = expectErrorShape(res, 422, 'two fields');
    expect(err.details?.map((d) => d.field).sort()).toEqual(['overdueHours', 'watchHours']);
  });

  it('values of the wrong type are refused, not coerced (bodyCoercion off)', async () => {
    const res = await raw('PATCH', '/api/v1/workspace/loop-interval', json(), JSON.stringify({ loopIntervalMinutes: '30' }));
    expect(expectErrorShape(res, 422, 'string for integer').details?.[0].field).toBe('loopIntervalMinutes');
    const tags = await raw('PUT', '/api/v1/workspace/focus-tags', json(), JSON.stringify({ tags: 'billing' }));
    expect(expectErrorShape(tags, 422, 'string for array').details?.[0].field).toBe('tags');
  });

  it('a query integer that is not one says so, naming the parameter (not "limit: limit")', async () => {
    for (const [path, field] of [
      ['/api/v1/tasks?limit=1e400', 'limit'],
      ['/api/v1/activity?limit=2.5', 'limit'],
      ['/api/v1/cost/by-tag?trajectoryDays=abc', 'trajectoryDays'],
    ]) {
      const res = await raw('GET', path, auth());
      expect(expectErrorShape(res, 422, path).details).toEqual([{ field, message: 'Must be an integer.' }]);
    }
  });

  it('an enum failure lists the allowed values', async () => {
    const res = await raw('PATCH', '/api/v1/workspace/loop', json(), JSON.stringify({ loopState: 'bogus' }));
    expect(expectErrorShape(res, 422, 'enum').details).toEqual([{ field: 'loopState', message: 'Must be one of: on, paused, off.' }]);
  });

  it('401 has the shape too', async () => {
    expect(expectErrorShape(await raw('GET', '/api/v1/workspace', {}), 401, 'no token').error).toBe('unauthorized');
  });

  it('an unsupported charset or encoding is refused with the shape', async () => {
    let res = await raw('PATCH', '/api/v1/workspace/loop', { ...auth(), 'content-type': 'application/json; charset=latin1' }, '{"loopState":"on"}');
    expectErrorShape(res, 415, 'charset');
    res = await raw('PATCH', '/api/v1/workspace/loop', { ...json(), 'content-encoding': 'br' }, 'x');
    expectErrorShape(res, 415, 'br');
    res = await raw('PATCH', '/api/v1/workspace/loop', { ...json(), 'content-encoding': 'gzip' }, 'not gzip');
    expectErrorShape(res, 400, 'bad gzip');
  });
});

describe('no 500 for bad input, and nothing changes', () => {
  it('answers every bad request with a 4xx in the one shape and leaves the workspace as it was', async () => {
    const before = await dbFingerprint(desk.services.db);

    const bodies: [string, string, string | Buffer, Record<string, string>?][] = [
      ['PATCH', '/api/v1/workspace/loop', 'null'],
      ['PATCH', '/api/v1/workspace/loop', '[]'],
      ['PATCH', '/api/v1/workspace/loop', '"off"'],
      ['PATCH', '/api/v1/workspace/loop', '123'],
      ['PATCH', '/api/v1/workspace/loop', ''],
      ['PATCH', '/api/v1/workspace/loop', '{"loopState":{"$ne":"on"}}'],
      ['PATCH', '/api/v1/workspace/loop', '{"__proto__":{"loopState":"off"}}'],
      ['PATCH', '/api/v1/workspace/loop', '{"loopState":"off","constructor":{"prototype":{"polluted":1}}}'],
      ['PATCH', '/api/v1/workspace/loop', '['.repeat(50_000) + ']'.repeat(50_000)],
      ['PATCH', '/api/v1/workspace/loop', '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000)],
      ['PATCH', '/api/v1/workspace/loop', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])],
      ['PATCH', '/api/v1/workspace/loop', '{"loopState":"off"}', { 'content-type': 'text/plain' }],
      ['PATCH', '/api/v1/workspace/loop', 'loopState=off', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['PATCH', '/api/v1/workspace/loop-interval', '{"loopIntervalMinutes":1e400}'],
      ['PATCH', '/api/v1/workspace/loop-interval', '{"loopIntervalMinutes":-0}'],
      ['PATCH', '/api/v1/workspace/loop-interval', '{"loopIntervalMinutes":"NaN"}'],
      ['PATCH', '/api/v1/workspace/loop-interval', '{"loopIntervalMinutes":"Infinity"}'],
      ['PATCH', '/api/v1/workspace/loop-interval', '{"loopIntervalMinutes":true}'],
      ['PATCH', '/api/v1/workspace/loop-interval', '{"loopIntervalMinutes":9007199254740993}'],
      ['PATCH', '/api/v1/workspace/pause-until', '{"pauseUntilAt":"+275760-09-13T00:00:00Z"}'],
      ['PATCH', '/api/v1/workspace/pause-until', '{"pauseUntilAt":"9999-99-99"}'],
      ['PATCH', '/api/v1/workspace/pause-until', '{"pauseUntilAt":"2026-03-10"}'],
      ['PATCH', '/api/v1/workspace/pause-until', '{"pauseUntilAt":["2026-03-11T10:00:00Z"]}'],
      ['PATCH', '/api/v1/workspace/pause-until', '{"pauseUntilAt":{"toISOString":1}}'],
      ['PUT', '/api/v1/workspace/focus-tags', '{"tags":null}'],
      ['PUT', '/api/v1/workspace/focus-tags', '{"tags":[null]}'],
      ['PUT', '/api/v1/workspace/focus-tags', JSON.stringify({ tags: Array(100_000).fill('a') })],
      ['PUT', '/api/v1/workspace/focus-tags', JSON.stringify({ tags: ['a'.repeat(500_000)] })],
      ['PUT', '/api/v1/workspace/focus-tags', JSON.stringify({ tags: ['tag\u0000'] })],
      ['PATCH', '/api/v1/workspace/timezone', '{"timezone":"../../etc/passwd"}'],
      ['PATCH', '/api/v1/workspace/timezone', JSON.stringify({ timezone: 'Europe/'.repeat(10_000) })],
      ['PATCH', '/api/v1/workspace/digest-email', '{"digestEmail":123}'],
      ['PATCH', '/api/v1/workspace/digest-email', JSON.stringify({ digestEmail: `${'a.'.repeat(100_000)}@x` })],
      ['PATCH', '/api/v1/workspace/cost-cap', '{"dailyCostCapUsdCents":1e21}'],
      ['PUT', '/api/v1/workspace/source-chronic-spike-config', '{"sourceChronicSpikeAction":"pause","thresholdDays":"many"}'],
      ['PATCH', '/api/v1/workspace/approval-policy', '{"watchHours":null,"overdueHours":null}'],
    ];
    for (const [method, path, body, extra] of bodies) {
      const res = await raw(method, path, { ...json(), ...extra }, body);
      const what = `${method} ${path} ${String(body).slice(0, 60)}`;
      expect(res.status, `${what} -> ${res.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${what} -> ${res.text.slice(0, 300)}`).toBeLessThan(500);
      expectErrorShape(res, res.status, what);
    }

    const queries = [
      '/api/v1/activity?limit=1e999',
      '/api/v1/activity?limit=1&limit=2',
      '/api/v1/activity?limit[a]=1',
      '/api/v1/activity?kind=a&kind=b',
      '/api/v1/activity?kind[x]=a',
      '/api/v1/activity?q=a&q=b',
      '/api/v1/activity?since=a&since=b',
      '/api/v1/activity?since=%2B275760-09-13T00:00:00Z',
      '/api/v1/activity?since=2026-03-10T12:00:00%2B99:99',
      `/api/v1/activity?q=${'%25'.repeat(201)}`,
      `/api/v1/activity?kind=${'a,'.repeat(5000)}`,
      '/api/v1/workspace/focus-history?sinceDays=1e10',
      '/api/v1/workspace/focus-history?sinceDays=',
      '/api/v1/workspace/focus-history?limit=NaN',
      '/api/v1/workspace/focus-history?limit=0x10',
    ];
    for (const path of queries) {
      const res = await raw('GET', path, auth());
      expect(res.status, `${path} -> ${res.text.slice(0, 300)}`).toBe(422);
      expectErrorShape(res, 422, path);
    }

    // queries that are odd but harmless are answered normally
    for (const path of ['/api/v1/activity?q=%ZZ', '/api/v1/activity?%ZZ', '/api/v1/activity?since=0000-01-01', `/api/v1/activity?kind=${'workspace.plan,'.repeat(600)}`]) {
      expect((await raw('GET', path, auth())).status, path).toBe(200);
    }

    expect(await dbFingerprint(desk.services.db)).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('errorHandler', () => {
  async function serve(thrown: unknown) {
    const app = express();
    const log = { error: vi.fn() };
    app.get('/boom', () => {
      throw thrown;
    });
    app.use(errorHandler(log));
    const server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      return { res: await raw('GET', '/boom', {}, undefined, `http://127.0.0.1:${port}`), log };
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  it('maps a DeskError to its status, code and details; the message reads as a sentence', async () => {
    const { res } = await serve(new DeskError(409, 'limit_reached', 'too many', [{ field: 'x', message: 'too many' }]));
    expect(expectErrorShape(res, 409, 'desk error')).toEqual({ error: 'limit_reached', message: 'Too many.', details: [{ field: 'x', message: 'Too many.' }] });
  });

  it('hides an unexpected error behind 500 internal_error and logs it', async () => {
    const { res, log } = await serve(new Error('secret path /home/me/db'));
    const body = expectErrorShape(res, 500, 'crash');
    expect(body.error).toBe('internal_error');
    expect(res.text).not.toContain('secret path');
    expect(log.error).toHaveBeenCalledWith(expect.stringContaining('secret path'));
  });

  it('keeps a 4xx status an http-errors style error carries', async () => {
    const { res } = await serve(Object.assign(new Error('Range Not Satisfiable'), { status: 416 }));
    expect(expectErrorShape(res, 416, '416').error).toBe('bad_request');
  });
});
