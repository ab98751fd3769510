import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { startChatServer, type ChatServer } from '../../testing/fakes/chat-server';
import { SECRETS_FILE, SecretStore } from '../../engine/secrets';
import { LocalEngine } from '../../engine/local';
import { OpenAIEngine } from '../../engine/openai';

const KEY = 'sk-live-abcdefghijklmnop1234';
let desk: TestDesk | null = null;
let chat: ChatServer;

beforeAll(async () => {
  chat = await startChatServer();
});
afterAll(async () => {
  await chat.close();
});
afterEach(async () => {
  await desk?.stop();
  desk = null;
});

const ENGINE = '/api/v1/workspace/engine';

async function engineRows(d: TestDesk) {
  const activity = await d.services.db.selectFrom('activity').select(['kind', 'detail']).where('kind', '=', 'workspace.engine').execute();
  const events = await d.services.db.selectFrom('outboxEvents').select('payload').where('event', '=', 'workspace.engine_changed').execute();
  return { activity, events: events.map((e) => JSON.parse(e.payload).data) };
}

describe('engine settings API', () => {
  it('starts on the built-in engine and is bearer-only', async () => {
    desk = await startTestDesk();
    const res = await desk.api('GET', ENGINE);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      engine: 'local', model: null, baseUrl: null, apiKeySet: false, apiKeyHint: null, apiKeyFromEnvironment: false,
      price: { model: 'gpt-4o-mini', inputPerMillionUsd: 0.15, outputPerMillionUsd: 0.6, source: 'price_table' }, structuredOutput: null,
    });
    for (const [method, p] of [['GET', ENGINE], ['PUT', ENGINE], ['POST', `${ENGINE}/test`], ['POST', `${ENGINE}/models`]] as const) {
      expect((await desk.api(method, p, method === 'PUT' ? { engine: 'local' } : undefined, null)).status).toBe(401);
    }
    expect(await desk.services.engineSettings.engine()).toBeInstanceOf(LocalEngine);
  });

  it('switches to an OpenAI-compatible endpoint; the key is stored outside the database and never shown', async () => {
    desk = await startTestDesk();
    const res = await desk.api('PUT', ENGINE, { engine: 'openai', model: 'gpt-4o-mini', baseUrl: `${chat.baseUrl}/`, apiKey: KEY });
    expect(res.status).toBe(200);
    // A server on this machine costs nothing per token.
    expect(res.body).toEqual({
      engine: 'openai', model: 'gpt-4o-mini', baseUrl: chat.baseUrl, apiKeySet: true, apiKeyHint: '1234', apiKeyFromEnvironment: false,
      price: { model: 'gpt-4o-mini', inputPerMillionUsd: 0, outputPerMillionUsd: 0, source: 'local_server' }, structuredOutput: null,
    });
    expect(await engineRows(desk)).toEqual({
      activity: [{ kind: 'workspace.engine', detail: `AI engine: OpenAI-compatible, model gpt-4o-mini, at ${chat.baseUrl}, API key replaced` }],
      events: [{ engine: 'openai', model: 'gpt-4o-mini', baseUrl: chat.baseUrl, apiKeySet: true, inputPricePerMillionUsd: null, outputPricePerMillionUsd: null }],
    });
    // The key is in the private secrets file, not in the database, any answer or the log.
    const file = path.join(desk.dataDir, SECRETS_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toContain(KEY);
    const dump = JSON.stringify(await Promise.all(['workspace', 'activity', 'outboxEvents'].map((t) => desk!.services.db.selectFrom(t as 'activity').selectAll().execute())));
    expect(dump).not.toContain(KEY);
    expect(JSON.stringify((await desk.api('GET', ENGINE)).body)).not.toContain(KEY);
    const engine = await desk.services.engineSettings.engine();
    expect(engine).toBeInstanceOf(OpenAIEngine);

    // Test connection goes to the endpoint with the key.
    chat.answer({ content: '{"ok":true}' });
    chat.requests.length = 0;
    const test = await desk.api('POST', `${ENGINE}/test`);
    expect(test.status).toBe(200);
    expect(test.body).toEqual({ ok: true, engine: 'openai', model: 'gpt-4o-mini', message: 'Connected to gpt-4o-mini. Structured answers: JSON schema.', problem: null, hint: null, structuredOutput: 'json_schema', tested: 'saved' });
    expect(chat.requests.map((r) => r.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);
    chat.answer({ status: 401, message: `Incorrect API key provided: ${KEY}` });
    const failed = await desk.api('POST', `${ENGINE}/test`);
    expect(failed.body).toEqual({
      ok: false, engine: 'openai', model: 'gpt-4o-mini', message: 'The provider rejected the API key (401): Incorrect API key provided: [redacted].',
      problem: 'key_refused', hint: 'Check the key at the provider, or the key the server was started with (e.g. vLLM --api-key).', structuredOutput: null, tested: 'saved',
    });

    // Same values again: nothing written. Clearing the key: one row, the file keeps no key.
    await desk.api('PUT', ENGINE, { engine: 'openai', model: 'gpt-4o-mini', apiKey: KEY });
    expect((await engineRows(desk)).activity).toHaveLength(1);
    const cleared = await desk.api('PUT', ENGINE, { apiKey: '' });
    expect(cleared.body).toMatchObject({ apiKeySet: false, apiKeyHint: null });
    expect((await engineRows(desk)).activity.at(-1)!.detail).toBe(`AI engine: OpenAI-compatible, model gpt-4o-mini, at ${chat.baseUrl}, API key cleared`);
    expect(fs.readFileSync(file, 'utf8')).not.toContain(KEY);

    await desk.stop({ keepDataDir: true });
    const log = fs.readFileSync(path.join(desk.dataDir, 'logs', 'desk.log'), 'utf8');
    expect(log).not.toContain(KEY);
    fs.rmSync(desk.dataDir, { recursive: true, force: true });
    desk = null;
  });

  it('rejects bad settings with a 422 naming the field and changes nothing', async () => {
    desk = await startTestDesk();
    const cases: [unknown, string][] = [
      [{ engine: 'openai', model: 'gpt-4o-mini' }, 'baseUrl'],
      [{ engine: 'openai', baseUrl: 'https://api.openai.com/v1' }, 'model'],
      [{ engine: 'claude' }, 'engine'],
      [{ baseUrl: 'ftp://example.com' }, 'baseUrl'],
      [{ baseUrl: 'not a url' }, 'baseUrl'],
      [{ baseUrl: 'https://user:pw@example.com/v1' }, 'baseUrl'],
      [{ model: 'x'.repeat(201) }, 'model'],
      [{ apiKey: 'has space inside' }, 'apiKey'],
      [{ apiKey: 'k'.repeat(501) }, 'apiKey'],
    ];
    for (const [body, field] of cases) await expectRejectedUnchanged(desk, { method: 'PUT', path: ENGINE, body }, { field });
    expect(fs.existsSync(path.join(desk.dataDir, SECRETS_FILE))).toBe(false);
  });

  it('a key the desktop encrypted reads as set but unusable headless, and says how to fix it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-engine-'));
    new SecretStore(dataDir, crypto.randomBytes(32)).set('engine.apiKey', KEY);
    desk = await startTestDesk({ dataDir, ownsDataDir: true });
    await desk.api('PUT', ENGINE, { engine: 'openai', model: 'gpt-4o-mini', baseUrl: chat.baseUrl });
    expect((await desk.api('GET', ENGINE)).body).toMatchObject({ apiKeySet: true, apiKeyHint: null });
    const test = await desk.api('POST', `${ENGINE}/test`);
    expect(test.body).toEqual({
      ok: false, engine: 'openai', model: 'gpt-4o-mini', message: 'The stored API key cannot be read here (encrypted by the desktop app, or its file is damaged): enter it again in Settings, or set DESK_OPENAI_API_KEY.',
      problem: 'key_unreadable', hint: 'Enter the key again under API key, then Save.', structuredOutput: null, tested: 'saved',
    });
    await desk.api('PUT', ENGINE, { apiKey: 'sk-headless-key-2222' });
    expect(desk.services.engineSettings.apiKey()).toBe('sk-headless-key-2222');
  });

  it('seeds a fresh workspace from the environment; the env key overrides without being written', async () => {
    desk = await startTestDesk({ engine: 'openai', openai: { baseUrl: chat.baseUrl, model: 'llama3.1', apiKey: 'sk-env-key-5678' } });
    expect((await desk.api('GET', ENGINE)).body).toMatchObject({ engine: 'openai', model: 'llama3.1', baseUrl: chat.baseUrl, apiKeySet: true, apiKeyHint: '5678', apiKeyFromEnvironment: true });
    expect((await engineRows(desk)).activity).toEqual([{ kind: 'workspace.engine', detail: `AI engine from the environment: OpenAI-compatible, model llama3.1 at ${chat.baseUrl}` }]);
    expect(desk.services.engineSettings.apiKey()).toBe('sk-env-key-5678');
    await desk.api('PUT', ENGINE, { apiKey: 'sk-stored-key-0000' });
    expect(desk.services.engineSettings.apiKey()).toBe('sk-env-key-5678');
    expect(fs.readFileSync(path.join(desk.dataDir, SECRETS_FILE), 'utf8')).not.toContain('sk-env-key-5678');

    // The built-in engine is always ready.
    await desk.api('PUT', ENGINE, { engine: 'local' });
    const test = await desk.api('POST', `${ENGINE}/test`);
    expect(test.body).toMatchObject({ ok: true, engine: 'local', model: 'llama3.1', problem: null, structuredOutput: null });
  });
});
