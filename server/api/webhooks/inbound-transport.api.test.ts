import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestDesk, type TestDesk } from '../../testing/desk';

let desk: TestDesk | null = null;

afterEach(async () => {
  await desk?.stop();
  desk = null;
});

/** A raw request (node:http), so the test chooses the method and sees every header. */
function request(d: TestDesk, method: string, urlPath: string, body?: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: unknown }>((resolve, reject) => {
    const headers: Record<string, string | number> = body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    const req = http.request(`${d.url}${urlPath}`, { method, headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the inbound webhook transport', () => {
  it('counts each accepted delivery in the RateLimit header and answers the route\'s own JSON', async () => {
    desk = await startTestDesk({ webhookRateLimitPerMinute: 5 });
    const path = `/api/webhooks/signals/${desk.token}`;
    for (let i = 0; i < 3; i++) {
      const res = await request(desk, 'POST', path, JSON.stringify({ title: `s${i}` }));
      expect(res.status).toBe(201);
      expect(res.headers.ratelimit).toMatch(new RegExp(`^"5-in-1min"; r=${4 - i}; t=\\d+$`));
      expect(res.headers['ratelimit-policy']).toMatch(/^"5-in-1min"; q=5; w=60; pk=:[A-Za-z0-9+/=]+:$/);
      expect(res.headers['content-security-policy']).toBeDefined();
      expect(res.body).toEqual({ accepted: 1, duplicates: 0, signalIds: [expect.stringMatching(/^sig_/)] });
    }
  });

  it('answers any other method with the right token as an unknown route, creating nothing', async () => {
    desk = await startTestDesk();
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const res = await request(desk, method, `/api/webhooks/signals/${desk.token}`, JSON.stringify({ title: 'x' }));
      expect(res.status, method).toBe(404);
      expect(res.body).toEqual({ error: 'not_found', message: 'No such API route.' });
    }
    expect(await desk.services.db.selectFrom('signals').select('id').execute()).toEqual([]);
  });

  it('refuses JSON too deep to validate with 400 malformed_body before the route reads it', async () => {
    desk = await startTestDesk();
    const deep = `${'['.repeat(500)}${']'.repeat(500)}`;
    const res = await request(desk, 'POST', `/api/webhooks/signals/${desk.token}`, `{"title":"x","detail":${deep}}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'malformed_body' });
    expect(await desk.services.db.selectFrom('signals').select('id').execute()).toEqual([]);
  });
});
