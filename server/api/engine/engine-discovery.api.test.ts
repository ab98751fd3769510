import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestDesk, type TestDesk } from '../../testing/desk';
import { expectRejectedUnchanged } from '../../testing/expect-rejected';
import { startChatServer, type ChatServer } from '../../testing/fakes/chat-server';

/** Settings → AI engine finds models, names what fails, remembers the structured-output mode, takes the operator's price. */

const ENGINE = '/api/v1/workspace/engine';
const KEY = 'sk-test-discovery-key-4321';
let desk: TestDesk;
let ollama: ChatServer;
let openai: ChatServer;
let closedUrl: string;

beforeAll(async () => {
  [ollama, openai] = await Promise.all([startChatServer(), startChatServer()]);
  // A port that was free a moment ago and is closed now: connection refused.
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/v1`;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});
afterAll(async () => {
  await Promise.all([ollama.close(), openai.close()]);
});
beforeEach(async () => {
  ollama.models = ['qwen2.5:7b', 'llama3.1:8b'];
  ollama.structuredOutput = 'json_object';
  ollama.requiredKey = null;
  ollama.answer({ content: '{"ok":true}' });
  ollama.requests.length = 0;
  openai.models = ['gpt-4o-mini', 'gpt-4o'];
  openai.structuredOutput = 'json_schema';
  openai.requiredKey = KEY;
  openai.answer({ content: '{"ok":true}' });
  openai.requests.length = 0;
  desk = await startTestDesk();
});
afterEach(async () => {
  await desk.stop();
});

const countRows = async (d: TestDesk) => ({
  activity: (await d.services.db.selectFrom('activity').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
  runs: (await d.services.db.selectFrom('runs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
});
const structuredOutput = async (d: TestDesk) => (await d.services.db.selectFrom('workspace').select('engineStructuredOutput').executeTakeFirstOrThrow()).engineStructuredOutput;

describe('POST /workspace/engine/models', () => {
  it("lists a server's models, sorted, before anything is saved", async () => {
    const res = await desk.api('POST', `${ENGINE}/models`, { baseUrl: `${ollama.baseUrl}/` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, models: ['llama3.1:8b', 'qwen2.5:7b'], truncated: false, message: `The server at ${ollama.baseUrl} lists 2 models.`, problem: null, hint: null });
    expect(ollama.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models']);
    expect((await desk.api('GET', ENGINE)).body).toMatchObject({ engine: 'local', baseUrl: null });
  });

  it('asks with the key given; without one a key server says the key is refused', async () => {
    const withKey = await desk.api('POST', `${ENGINE}/models`, { baseUrl: openai.baseUrl, apiKey: KEY });
    expect(withKey.body).toMatchObject({ ok: true, models: ['gpt-4o', 'gpt-4o-mini'] });
    const without = await desk.api('POST', `${ENGINE}/models`, { baseUrl: openai.baseUrl });
    expect(without.body).toMatchObject({ ok: false, models: [], problem: 'key_refused', hint: 'This server wants an API key: enter it under API key.' });
    const wrong = await desk.api('POST', `${ENGINE}/models`, { baseUrl: openai.baseUrl, apiKey: 'sk-wrong-key-000000' });
    expect(wrong.body).toMatchObject({ ok: false, problem: 'key_refused', message: 'The provider rejected the API key (401): Incorrect API key provided: [redacted].' });
  });

  it('sends the stored key only to the saved base URL', async () => {
    await desk.api('PUT', ENGINE, { engine: 'openai', baseUrl: openai.baseUrl, model: 'gpt-4o-mini', apiKey: KEY });
    expect((await desk.api('POST', `${ENGINE}/models`, { baseUrl: openai.baseUrl })).body).toMatchObject({ ok: true, models: ['gpt-4o', 'gpt-4o-mini'] });
    expect(openai.requests.at(-1)!.authorization).toBe(`Bearer ${KEY}`);
    await desk.api('POST', `${ENGINE}/models`, { baseUrl: ollama.baseUrl });
    expect(ollama.requests.at(-1)!.authorization).toBe('Bearer no-key');
    // An explicit null asks without a key even at the saved URL.
    expect((await desk.api('POST', `${ENGINE}/models`, { baseUrl: openai.baseUrl, apiKey: null })).body).toMatchObject({ problem: 'key_refused' });
  });

  it('names an unreachable server, and bounds the list', async () => {
    const dead = await desk.api('POST', `${ENGINE}/models`, { baseUrl: closedUrl });
    expect(dead.body).toMatchObject({ ok: false, models: [], problem: 'unreachable', hint: 'Check the base URL, and that the server is running and reachable from this machine.' });
    expect(dead.body.message).toMatch(new RegExp(`^Nothing answers at ${closedUrl.replace(/[.]/g, '\\.')}: Could not reach the provider`));
    ollama.models = Array.from({ length: 600 }, (_, i) => `m${String(i).padStart(3, '0')}`);
    const many = await desk.api('POST', `${ENGINE}/models`, { baseUrl: ollama.baseUrl });
    expect(many.body.models).toHaveLength(500);
    expect(many.body).toMatchObject({ ok: true, truncated: true, message: `The server at ${ollama.baseUrl} lists 500+ models (the first 500 shown).` });
    expect(many.body.models.at(-1)).toBe('m499');
  });

  it('refuses a missing or bad URL or key with a 422 naming the field', async () => {
    for (const [body, field] of [
      [{}, 'baseUrl'],
      [{ baseUrl: '' }, 'baseUrl'],
      [{ baseUrl: 'ftp://example.com' }, 'baseUrl'],
      [{ baseUrl: 'not a url' }, 'baseUrl'],
      [{ baseUrl: ollama.baseUrl, apiKey: 'has space' }, 'apiKey'],
    ] as const) {
      await expectRejectedUnchanged(desk, { method: 'POST', path: `${ENGINE}/models`, body }, { field });
    }
    expect(ollama.requests).toEqual([]);
  });
});

describe('POST /workspace/engine/test', () => {
  const use = (baseUrl: string, model: string, apiKey: string | null = null) => desk.api('PUT', ENGINE, { engine: 'openai', baseUrl, model, apiKey });

  it('finds JSON mode on a server without json_schema, remembers it, and records nothing', async () => {
    await use(ollama.baseUrl, 'llama3.1:8b');
    const before = await countRows(desk);
    const res = await desk.api('POST', `${ENGINE}/test`);
    expect(res.body).toEqual({ ok: true, engine: 'openai', model: 'llama3.1:8b', message: 'Connected to llama3.1:8b. Structured answers: JSON mode.', problem: null, hint: null, structuredOutput: 'json_object', tested: 'saved' });
    // The list, json_schema refused, JSON mode answered with the schema in the prompt.
    expect(ollama.requests.map((r) => (r.method === 'GET' ? r.path : (r.body.response_format as { type: string }).type))).toEqual(['/v1/models', 'json_schema', 'json_object']);
    expect(JSON.stringify(ollama.requests[2].body.messages)).toContain('JSON schema');
    expect(ollama.requests[2].body.max_tokens).toBe(64);
    expect(await structuredOutput(desk)).toBe('json_object');
    expect((await desk.api('GET', ENGINE)).body.structuredOutput).toBe('json_object');
    expect(await countRows(desk)).toEqual(before);

    // A new model forgets it.
    await use(ollama.baseUrl, 'qwen2.5:7b');
    expect(await structuredOutput(desk)).toBeNull();
  });

  it('moves on from a mode the server takes but answers without JSON', async () => {
    ollama.answer((body) => ({ content: (body.response_format as { type?: string } | undefined)?.type === 'json_object' ? '{"ok":true}' : 'Sure! ok' }));
    ollama.structuredOutput = 'json_schema';
    await use(ollama.baseUrl, 'llama3.1:8b');
    expect((await desk.api('POST', `${ENGINE}/test`)).body).toMatchObject({ ok: true, structuredOutput: 'json_object' });
    ollama.answer({ content: 'Sure! ok' });
    expect((await desk.api('POST', `${ENGINE}/test`)).body).toMatchObject({
      ok: false, problem: 'no_structured_output', message: 'The model llama3.1:8b takes no structured answer: JSON schema, JSON mode, tool calls were refused (it answered without a JSON object).',
    });
  });

  it('asks again with max_completion_tokens when the model takes only that (reasoning models)', async () => {
    openai.answer((body) =>
      body.max_tokens !== undefined
        ? { status: 400, message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead." }
        : { content: '{"ok":true}' },
    );
    await use(openai.baseUrl, 'gpt-4o', KEY);
    expect((await desk.api('POST', `${ENGINE}/test`)).body).toMatchObject({ ok: true, structuredOutput: 'json_schema' });
    expect(openai.requests.filter((r) => r.method === 'POST').map((r) => [r.body.max_tokens, r.body.max_completion_tokens])).toEqual([[64, undefined], [undefined, 1024]]);
  });

  it('falls back to a forced tool call', async () => {
    ollama.structuredOutput = 'tools';
    await use(ollama.baseUrl, 'qwen2.5:7b');
    expect((await desk.api('POST', `${ENGINE}/test`)).body).toMatchObject({ ok: true, structuredOutput: 'tools', message: 'Connected to qwen2.5:7b. Structured answers: tool calls.' });
    expect(ollama.requests.at(-1)!.body.tool_choice).toEqual({ type: 'function', function: { name: 'connection_check' } });
    expect(await structuredOutput(desk)).toBe('tools');
  });

  it('takes llama3.1 for the llama3.1:latest Ollama lists', async () => {
    ollama.models = ['llama3.1:latest'];
    await use(ollama.baseUrl, 'llama3.1');
    expect((await desk.api('POST', `${ENGINE}/test`)).body).toMatchObject({ ok: true, problem: null });
  });

  it('names a server that refuses every way of structured output', async () => {
    ollama.structuredOutput = 'none';
    await use(ollama.baseUrl, 'llama3.1:8b');
    const res = await desk.api('POST', `${ENGINE}/test`);
    expect(res.body).toMatchObject({ ok: false, problem: 'no_structured_output', structuredOutput: null });
    expect(res.body.message).toBe('The model llama3.1:8b takes no structured answer: JSON schema, JSON mode, tool calls were refused (tools is not supported by this server).');
    expect(ollama.requests.filter((r) => r.method === 'POST')).toHaveLength(3);
    expect(res.body.hint).toMatch(/JSON mode or tool calling/);
    expect(await structuredOutput(desk)).toBeNull();
  });

  it('names a closed port unreachable', async () => {
    await use(closedUrl, 'llama3.1');
    const res = await desk.api('POST', `${ENGINE}/test`);
    expect(res.body).toMatchObject({ ok: false, problem: 'unreachable', hint: 'Check the base URL, and that the server is running and reachable from this machine.' });
  });

  it('names a refused key, without the key', async () => {
    await use(openai.baseUrl, 'gpt-4o-mini', 'sk-wrong-key-1111111');
    const res = await desk.api('POST', `${ENGINE}/test`);
    expect(res.body).toMatchObject({ ok: false, problem: 'key_refused', message: 'The provider rejected the API key (401): Incorrect API key provided: [redacted].' });
    expect(JSON.stringify(res.body)).not.toContain('sk-wrong-key-1111111');
    // Only the list was asked: a refused key costs no chat request.
    expect(openai.requests.map((r) => r.path)).toEqual(['/v1/models']);
  });

  it('names an unknown model: missing from the list, or a 404 from the chat', async () => {
    await use(openai.baseUrl, 'gpt-5-nano', KEY);
    const missing = await desk.api('POST', `${ENGINE}/test`);
    expect(missing.body).toMatchObject({ ok: false, problem: 'unknown_model', message: `The server at ${openai.baseUrl} does not list gpt-5-nano (it has gpt-4o, gpt-4o-mini).` });
    expect(missing.body.hint).toMatch(/Find models/);
    expect(openai.requests.filter((r) => r.method === 'POST')).toEqual([]);

    // A server without a model list: the chat's 404 names it.
    openai.models = { status: 404, message: 'not found' };
    openai.answer({ status: 404, message: 'The model `gpt-5-nano` does not exist or you do not have access to it.', code: 'model_not_found' });
    const notFound = await desk.api('POST', `${ENGINE}/test`);
    expect(notFound.body).toMatchObject({ ok: false, problem: 'unknown_model', message: 'The provider does not know this model or endpoint (404): The model `gpt-5-nano` does not exist or you do not have access to it.' });
  });

  it('names missing settings', async () => {
    await desk.services.db.updateTable('workspace').set({ engine: 'openai', engineModel: null, engineBaseUrl: null }).execute();
    expect((await desk.api('POST', `${ENGINE}/test`)).body).toMatchObject({ ok: false, problem: 'not_configured' });
  });
});

describe('the price that applies', () => {
  const price = async () => (await desk.api('GET', ENGINE)).body.price;

  it("takes the operator's price for a model the table does not know, and clears it", async () => {
    await desk.api('PUT', ENGINE, { engine: 'openai', baseUrl: 'https://llm.example.com/v1', model: 'acme-ft-7' });
    expect(await price()).toEqual({ model: 'acme-ft-7', inputPerMillionUsd: 0, outputPerMillionUsd: 0, source: 'unknown' });
    const res = await desk.api('PUT', ENGINE, { inputPricePerMillionUsd: 2.5, outputPricePerMillionUsd: 10 });
    expect(res.status).toBe(200);
    expect(res.body.price).toEqual({ model: 'acme-ft-7', inputPerMillionUsd: 2.5, outputPerMillionUsd: 10, source: 'operator' });
    const row = await desk.services.db.selectFrom('workspace').select(['engineInputPrice', 'engineOutputPrice']).executeTakeFirstOrThrow();
    expect(row).toEqual({ engineInputPrice: 2_500_000, engineOutputPrice: 10_000_000 });
    const activity = await desk.services.db.selectFrom('activity').select('detail').where('kind', '=', 'workspace.engine').orderBy('id').execute();
    expect(activity.at(-1)!.detail).toBe('AI engine: OpenAI-compatible, model acme-ft-7, at https://llm.example.com/v1, own price $2.50 / $10.00 per million tokens');
    const events = await desk.services.db.selectFrom('outboxEvents').select('payload').where('event', '=', 'workspace.engine_changed').orderBy('id').execute();
    expect(JSON.parse(events.at(-1)!.payload).data).toMatchObject({ inputPricePerMillionUsd: 2.5, outputPricePerMillionUsd: 10 });

    // The same price again writes nothing; null for both clears it.
    await desk.api('PUT', ENGINE, { inputPricePerMillionUsd: 2.5, outputPricePerMillionUsd: 10 });
    expect(await desk.services.db.selectFrom('activity').select('id').where('kind', '=', 'workspace.engine').execute()).toHaveLength(2);
    await desk.api('PUT', ENGINE, { inputPricePerMillionUsd: null, outputPricePerMillionUsd: null });
    expect(await price()).toMatchObject({ source: 'unknown' });
    expect((await desk.services.db.selectFrom('activity').select('detail').where('kind', '=', 'workspace.engine').orderBy('id').execute()).at(-1)!.detail).toMatch(/own price cleared$/);
  });

  it('prices a known model from the table, and a server on this machine at zero', async () => {
    await desk.api('PUT', ENGINE, { engine: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' });
    expect(await price()).toEqual({ model: 'gpt-4o-mini', inputPerMillionUsd: 0.15, outputPerMillionUsd: 0.6, source: 'price_table' });
    await desk.api('PUT', ENGINE, { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1' });
    expect(await price()).toEqual({ model: 'llama3.1', inputPerMillionUsd: 0, outputPerMillionUsd: 0, source: 'local_server' });
    // The operator's price wins, even on this machine (a GPU has a cost too).
    await desk.api('PUT', ENGINE, { inputPricePerMillionUsd: 0.1, outputPricePerMillionUsd: 0.2 });
    expect(await price()).toEqual({ model: 'llama3.1', inputPerMillionUsd: 0.1, outputPerMillionUsd: 0.2, source: 'operator' });
  });

  it('refuses a price that is not both, not a number, negative or above 1000, naming the field', async () => {
    for (const [body, field] of [
      [{ inputPricePerMillionUsd: 1 }, 'outputPricePerMillionUsd'],
      [{ outputPricePerMillionUsd: 1 }, 'inputPricePerMillionUsd'],
      [{ inputPricePerMillionUsd: null, outputPricePerMillionUsd: 1 }, 'inputPricePerMillionUsd'],
      [{ inputPricePerMillionUsd: -0.01, outputPricePerMillionUsd: 1 }, 'inputPricePerMillionUsd'],
      [{ inputPricePerMillionUsd: 1, outputPricePerMillionUsd: 1000.5 }, 'outputPricePerMillionUsd'],
      [{ inputPricePerMillionUsd: 'cheap', outputPricePerMillionUsd: 1 }, 'inputPricePerMillionUsd'],
    ] as const) {
      await expectRejectedUnchanged(desk, { method: 'PUT', path: ENGINE, body }, { field });
    }
  });
});
