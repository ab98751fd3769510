import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { startChatServer, type ChatServer } from '../../testing/fakes/chat-server';

/**
 * Test connection tries what the form holds, saved or not (issue 29, part 2): a switch to an
 * OpenAI-compatible server that is not yet saved is tried at that server, and the answer says so.
 */

const ENGINE = '/api/v1/workspace/engine';
const KEY = 'sk-form-test-key-8642';
let desk: TestDesk;
let server: ChatServer;
let other: ChatServer;

beforeAll(async () => {
  [server, other] = await Promise.all([startChatServer(), startChatServer()]);
});
afterAll(async () => {
  await Promise.all([server.close(), other.close()]);
});
beforeEach(async () => {
  for (const s of [server, other]) {
    s.models = ['llama3.1:8b', 'qwen2.5:7b'];
    s.structuredOutput = 'json_object';
    s.requiredKey = null;
    s.answer({ content: '{"ok":true}' });
    s.requests.length = 0;
  }
  desk = await startTestDesk();
});
afterEach(async () => {
  await desk.stop();
});

const saved = async () => (await desk.api('GET', ENGINE)).body;

describe('POST /workspace/engine/test with the form', () => {
  it('tries the unsaved OpenAI-compatible form, not the saved built-in engine, and saves nothing', async () => {
    const before = await saved();
    const res = await desk.api('POST', `${ENGINE}/test`, { engine: 'openai', baseUrl: server.baseUrl, model: 'llama3.1:8b' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true, engine: 'openai', model: 'llama3.1:8b', message: 'Connected to llama3.1:8b. Structured answers: JSON mode.',
      problem: null, hint: null, structuredOutput: 'json_object', tested: 'form',
    });
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/models', '/v1/chat/completions', '/v1/chat/completions']);
    // Not saved, so the mode found is not remembered for the saved (built-in) settings.
    expect(await saved()).toEqual(before);
  });

  it('says what the form lacks instead of answering for the saved engine', async () => {
    const res = await desk.api('POST', `${ENGINE}/test`, { engine: 'openai', baseUrl: server.baseUrl, model: '' });
    expect(res.body).toMatchObject({ ok: false, engine: 'openai', problem: 'not_configured', message: 'The OpenAI-compatible engine needs a model.', tested: 'form' });
    const neither = await desk.api('POST', `${ENGINE}/test`, { engine: 'openai' });
    expect(neither.body).toMatchObject({ ok: false, problem: 'not_configured', message: 'The OpenAI-compatible engine needs a base URL and a model.' });
    expect(server.requests).toEqual([]);
  });

  it('tries a model picked in the form at the saved server, and names one the server lacks', async () => {
    await desk.api('PUT', ENGINE, { engine: 'openai', baseUrl: server.baseUrl, model: 'llama3.1:8b' });
    const missing = await desk.api('POST', `${ENGINE}/test`, { model: 'mistral:7b' });
    expect(missing.body).toMatchObject({ ok: false, problem: 'unknown_model', tested: 'form', message: `The server at ${server.baseUrl} does not list mistral:7b (it has llama3.1:8b, qwen2.5:7b).` });
    // The form equal to the saved settings is the saved settings; the mode found is remembered.
    const same = await desk.api('POST', `${ENGINE}/test`, { engine: 'openai', baseUrl: `${server.baseUrl}/`, model: 'llama3.1:8b' });
    expect(same.body).toMatchObject({ ok: true, tested: 'saved' });
    expect((await saved()).structuredOutput).toBe('json_object');
    expect((await desk.api('POST', `${ENGINE}/test`)).body).toMatchObject({ ok: true, tested: 'saved' });
  });

  it('uses the saved key for a blank key field at the saved server only; a typed key is used once and never stored', async () => {
    server.requiredKey = KEY;
    other.requiredKey = KEY;
    await desk.api('PUT', ENGINE, { engine: 'openai', baseUrl: server.baseUrl, model: 'llama3.1:8b', apiKey: KEY });
    const blank = await desk.api('POST', `${ENGINE}/test`, { engine: 'openai', baseUrl: server.baseUrl, model: 'qwen2.5:7b', apiKey: '' });
    expect(blank.body).toMatchObject({ ok: true, tested: 'form' });
    expect(server.requests.every((r) => r.authorization === `Bearer ${KEY}`)).toBe(true);

    // Another server never gets the saved key: the blank field sends none, and it is refused.
    const elsewhere = await desk.api('POST', `${ENGINE}/test`, { baseUrl: other.baseUrl });
    expect(elsewhere.body).toMatchObject({ ok: false, problem: 'key_refused', tested: 'form', hint: 'This server wants an API key: enter it under API key.' });
    expect(other.requests.map((r) => r.authorization)).toEqual(['Bearer no-key']);

    await desk.api('PUT', ENGINE, { apiKey: null });
    const typed = await desk.api('POST', `${ENGINE}/test`, { baseUrl: other.baseUrl, apiKey: KEY });
    expect(typed.body).toMatchObject({ ok: true, tested: 'form' });
    expect(other.requests.at(-1)!.authorization).toBe(`Bearer ${KEY}`);
    expect(await saved()).toMatchObject({ apiKeySet: false, baseUrl: server.baseUrl });
    expect(JSON.stringify(typed.body)).not.toContain(KEY);
  });

  it('tries the built-in engine of the form while an OpenAI-compatible one is saved', async () => {
    await desk.api('PUT', ENGINE, { engine: 'openai', baseUrl: server.baseUrl, model: 'llama3.1:8b' });
    const res = await desk.api('POST', `${ENGINE}/test`, { engine: 'local', model: 'gpt-4o' });
    expect(res.body).toMatchObject({ ok: true, engine: 'local', model: 'gpt-4o', tested: 'form' });
    expect(server.requests).toEqual([]);
  });

  it('refuses a field PUT would refuse, with a sentence naming it, and changes nothing', async () => {
    const bad = await expectRejectedUnchanged(desk, { method: 'POST', path: `${ENGINE}/test`, body: { engine: 'openai', baseUrl: 'ftp://example.com', model: 'x' } }, { field: 'baseUrl' });
    expect(bad.body.message).toBe('BaseUrl must be an http(s) URL.');
    await expectRejectedUnchanged(desk, { method: 'POST', path: `${ENGINE}/test`, body: { apiKey: 'has space' } }, { field: 'apiKey' });
    await expectRejectedUnchanged(desk, { method: 'POST', path: `${ENGINE}/test`, body: { engine: 'claude' } }, { field: 'engine' });
  });
});
