import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRequest } from './http-request';

/** The tests' node:http client answers as fetch did for what the tests read. */
describe('httpRequest', () => {
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    // Echoes what it received; /bom answers text behind a byte-order mark, /moved a redirect.
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.url === '/bom') return void res.end('\ufeffid,title\n');
        if (req.url === '/moved') return void res.writeHead(302, { location: '/bom' }).end();
        res.setHeader('set-cookie', ['a=1', 'b=2']);
        res.end(JSON.stringify({ method: req.method, length: req.headers['content-length'] ?? null, body: Buffer.concat(chunks).toString('utf8') }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("sends a DELETE's body with its length, so the next request on the connection is not read as its tail", async () => {
    const first = await httpRequest(`${url}/x`, { method: 'DELETE', headers: { 'content-type': 'application/json' }, body: '{"é":1}' });
    expect(JSON.parse(first.text)).toEqual({ method: 'DELETE', length: '8', body: '{"é":1}' });
    const next = await httpRequest(`${url}/y`, { method: 'GET' });
    expect(JSON.parse(next.text)).toEqual({ method: 'GET', length: null, body: '' });
  });

  it('reads text without its byte-order mark and keeps every header; follows no redirect', async () => {
    expect((await httpRequest(`${url}/bom`, { method: 'GET' })).text).toBe('id,title\n');
    const echoed = await httpRequest(`${url}/x`, { method: 'GET' });
    expect(echoed.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    const moved = await httpRequest(`${url}/moved`, { method: 'GET' });
    expect([moved.status, moved.headers.get('location')]).toEqual([302, '/bom']);
  });
});
