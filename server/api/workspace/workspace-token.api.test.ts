import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../core/clock';
import { createLogger } from '../../core/log';
import { startDesk } from '../../start';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { createManualSource } from '../../testing/fixtures/sources';

let desk: TestDesk | null = null;
afterEach(async () => {
  await desk?.stop();
  desk = null;
});

async function push(d: TestDesk, token: string, body: unknown) {
  const res = await fetch(`${d.url}/api/webhooks/signals/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

describe('POST /api/v1/workspace/token/rotate', () => {
  it('makes a new 256-bit token: the old bearer token gets 401 and the old webhook URL 404 at once, the new ones work', async () => {
    const d = (desk = await startTestDesk());
    const old = d.token;
    const source = await createManualSource(d, { label: 'Zapier' });
    const scoped = (await d.api('POST', `/api/v1/sources/${source.id}/ingest-tokens`, {})).body.token as string;
    const res = await d.api('POST', '/api/v1/workspace/token/rotate', undefined, old);
    expect(res.status).toBe(200);
    const { token } = res.body;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(token).not.toBe(old);
    expect(res.body).toEqual({ token, webhookUrl: `${d.url}/api/webhooks/signals/${token}`, rotatedAt: d.clock.now().toISOString() });

    // the old token: refused by the API and the webhook, changing nothing
    const refused = await expectRejectedUnchanged(d, { method: 'GET', path: '/api/v1/workspace', token: old }, { status: 401, error: 'unauthorized' });
    expect(refused.body.message).toBe('Invalid bearer token.');
    await expectRejectedUnchanged(d, { method: 'POST', path: '/api/v1/workspace/token/rotate', token: old }, { status: 401 });
    const oldHook = await expectRejectedUnchanged(d, () => fetch(`${d.url}/api/webhooks/signals/${old}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"x"}' }).then(async (r) => ({ status: r.status, body: await r.json(), headers: r.headers })), { status: 404 });
    expect(oldHook.body).toEqual({ error: 'not_found', message: 'No such API route.' });

    // the new ones work; the test desk follows the rotation
    expect(d.token).toBe(token);
    expect((await d.api('GET', '/api/v1/workspace', undefined, token)).status).toBe(200);
    expect((await push(d, token, { title: 'after rotation' })).status).toBe(201);
    expect((await d.api('GET', '/api/v1/integrations/inbound')).body.inboundWebhook.localUrl).toBe(`${d.url}/api/webhooks/signals/${token}`);
    // scoped ingest URLs are not affected
    expect((await push(d, scoped, { title: 'scoped still works' })).status).toBe(201);
  });

  it('writes one activity row and one event in the same change, with no token in either, nor in the log', async () => {
    const d = (desk = await startTestDesk());
    const old = d.token;
    const { token } = (await d.api('POST', '/api/v1/workspace/token/rotate')).body;
    const activity = (await d.api('GET', '/api/v1/activity?kind=workspace.token_rotated')).body.activities;
    expect(activity).toEqual([expect.objectContaining({ kind: 'workspace.token_rotated', detail: 'Workspace token rotated: the old bearer token and webhook URL no longer work' })]);
    const events = await d.services.db.selectFrom('outboxEvents').selectAll().where('event', '=', 'workspace.token_rotated').execute();
    expect(events.map((e) => JSON.parse(e.payload).data)).toEqual([{ rotatedAt: d.clock.now().toISOString() }]);
    const rows = JSON.stringify([await d.services.db.selectFrom('activity').selectAll().execute(), await d.services.db.selectFrom('outboxEvents').selectAll().execute()]);
    expect(rows).not.toContain(token);
    expect(rows).not.toContain(old);
  });

  it('scrubs the new token from the log, like the first one', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-rotate-log-'));
    const log = createLogger({ dataDir });
    const running = await startDesk({ dataDir, port: 0, host: '127.0.0.1', engine: 'local', openai: {}, seed: { plan: 'free', timezone: 'UTC' } }, { clock: new ManualClock('2026-03-10T12:00:00.000Z'), runScheduler: false, logger: log });
    try {
      const res = await fetch(`${running.url}/api/v1/workspace/token/rotate`, { method: 'POST', headers: { authorization: `Bearer ${running.token}` } });
      const { token } = (await res.json()) as { token: string };
      expect(running.token).toBe(token);
      log.info(`a message that quotes the new token ${token}`);
      log.info({ note: `and in a field: ${token}` }, 'field');
    } finally {
      await running.stop();
      await log.close();
    }
    const text = fs.readFileSync(path.join(dataDir, 'logs', 'desk.log'), 'utf8');
    expect(text).toContain('a message that quotes the new token [redacted]');
    expect(text).not.toContain(running.token);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('survives a restart: the rotated token is the one the desk starts with', async () => {
    let d = (desk = await startTestDesk());
    const { token } = (await d.api('POST', '/api/v1/workspace/token/rotate')).body;
    const { dataDir } = d;
    await d.stop({ keepDataDir: true });
    d = desk = await startTestDesk({ dataDir, ownsDataDir: true });
    expect(d.token).toBe(token);
    expect((await d.api('GET', '/api/v1/workspace', undefined, token)).status).toBe(200);
  });

  it('is bearer-only and documented', async () => {
    const d = (desk = await startTestDesk());
    await expectRejectedUnchanged(d, { method: 'POST', path: '/api/v1/workspace/token/rotate', token: null }, { status: 401 });
    await expectRejectedUnchanged(d, { method: 'POST', path: '/api/v1/workspace/token/rotate', token: 'wrong-token-wrong-token' }, { status: 401 });
    const doc = (await d.api('GET', '/api/v1/openapi.json', undefined, null)).body;
    const op = doc.paths['/api/v1/workspace/token/rotate'].post;
    expect(op.operationId).toBe('RotateWorkspaceToken');
    expect(op.description).toContain('old webhook URL');
  });
});
