import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Locator, type Page } from '@playwright/test';
import { startChatServer, type ChatServer } from '../server/testing/fakes/chat-server';
import { expectAccessible } from './axe';
import { expect, test, startCliDesk, type RunningCliDesk, lookAt } from './desk';

/**
 * Settings → AI engine against a fake "Ollama" (no key, JSON mode only) and a fake "OpenAI" (a key,
 * json_schema), both on 127.0.0.1: presets, Find models, Test connection and each failure it names,
 * the structured-output mode and the price with its source. No traffic leaves this machine: the
 * presets' own URLs are only saved, never asked.
 */

const KEY = 'sk-e2e-openai-key-2468';
let desk: RunningCliDesk;
let ollama: ChatServer;
let openai: ChatServer;
let closedUrl: string;

test.beforeAll(async () => {
  [desk, ollama, openai] = await Promise.all([startCliDesk(), startChatServer(), startChatServer()]);
  ollama.models = ['llama3.1:8b', 'qwen2.5:7b'];
  ollama.structuredOutput = 'json_object';
  ollama.answer({ content: '{"ok":true}' });
  openai.models = ['gpt-4o-mini', 'gpt-4o'];
  openai.requiredKey = KEY;
  openai.answer({ content: '{"ok":true}' });
  // A port that was free a moment ago and is closed now: connection refused.
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/v1`;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

test.afterAll(async () => {
  await Promise.all([desk?.stop(), ollama?.close(), openai?.close()]);
});

async function openEngine(page: Page): Promise<Locator> {
  await page.goto(desk.openUrl);
  await expect(page).not.toHaveURL(/token=/);
  await page.goto(`${desk.baseUrl}/settings/engine`);
  const section = page.locator('section#engine');
  await expect(section.getByRole('heading', { name: 'AI engine' })).toBeVisible();
  return section;
}

/** Saves the form, waits for the server to hold `expected`, then runs Test connection. */
async function saveAndTest(section: Locator, expected: Record<string, unknown>) {
  await section.getByRole('button', { name: 'Save', exact: true }).click();
  await expect.poll(async () => (await desk.api('GET', '/api/v1/workspace/engine')).body).toMatchObject(expected);
  await section.getByRole('button', { name: 'Test connection' }).click();
}

test('finds the models of a fake Ollama and a fake OpenAI, and names each failure', async ({ page }) => {
  const section = await openEngine(page);
  const status = section.getByRole('status', { name: 'Connection test' });
  const found = section.getByRole('status', { name: 'Find models' });
  const baseUrl = section.getByLabel('Base URL');
  const model = section.getByLabel('Model', { exact: true });

  // The built-in engine's figures are estimates at gpt-4o-mini, from the price table.
  await expect(section.getByTestId('engine-price')).toHaveText('gpt-4o-mini: $0.15 / $0.60 per million tokens (input / output), from the price table.');

  await section.getByRole('radio', { name: /OpenAI-compatible/ }).check();
  const preset = section.getByLabel('Preset');
  for (const [label, url] of [
    ['OpenAI', 'https://api.openai.com/v1'],
    ['Ollama', 'http://127.0.0.1:11434/v1'],
    ['LM Studio', 'http://127.0.0.1:1234/v1'],
    ['vLLM', 'http://127.0.0.1:8000/v1'],
    ['OpenRouter', 'https://openrouter.ai/api/v1'],
  ] as const) {
    await preset.selectOption({ label });
    await expect(baseUrl).toHaveValue(url);
  }
  await preset.selectOption({ label: 'Custom' });
  await expect(baseUrl).toHaveValue('');

  // Unsaved and incomplete: Test connection tries the form, not the saved built-in engine.
  await model.fill('');
  await section.getByRole('button', { name: 'Test connection' }).click();
  await expect(status).toHaveText('Tested the unsaved form. Not set up: The OpenAI-compatible engine needs a base URL and a model. What to do: Pick a preset, then find and choose a model (or type one).');
  await expect(model).not.toHaveAttribute('placeholder', /./);

  // Fake Ollama, by URL: a server on this machine lists its models without a click.
  await baseUrl.fill(ollama.baseUrl);
  await expect(found).toHaveText(`The server at ${ollama.baseUrl} lists 2 models.`);
  await expect(section.getByLabel('Models on the server')).not.toBeFocused();
  // By keyboard: Find models asks again, then the picker takes the focus.
  await model.fill('llama3.1');
  await model.press('Tab');
  await expect(section.getByRole('button', { name: 'Find models' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(found).toHaveText(`The server at ${ollama.baseUrl} lists 2 models.`);
  const picker = section.getByLabel('Models on the server');
  await expect(picker).toBeFocused();
  await expect(picker.locator('option')).toHaveText(['Choose one of 2…', 'llama3.1:8b', 'qwen2.5:7b']);

  // The typed model is not on the server: Test connection names it.
  await saveAndTest(section, { engine: 'openai', baseUrl: ollama.baseUrl, model: 'llama3.1' });
  await expect(status).toHaveText(`Tested the saved settings. Unknown model: The server at ${ollama.baseUrl} does not list llama3.1 (it has llama3.1:8b, qwen2.5:7b). What to do: Check the model's name, or pick one of the server's models with Find models.`);
  await lookAt(section, 'engine-unknown-model');
  await expectAccessible(page, 'section#engine');

  // Picked from the list: it works, by JSON mode, remembered and shown; a server on this machine is free.
  // By keyboard: the arrow keys step through the server's models and fill the model.
  await picker.focus();
  await page.keyboard.press('ArrowDown');
  await expect(model).toHaveValue('llama3.1:8b');
  await saveAndTest(section, { model: 'llama3.1:8b' });
  await expect(status).toHaveText('Tested the saved settings. Works: Connected to llama3.1:8b. Structured answers: JSON mode.');
  await expect(section.getByTestId('engine-structured-output')).toHaveText('Structured answers: JSON mode');
  await expect(section.getByTestId('engine-price')).toHaveText('llama3.1:8b on a local server: free (it runs on this machine).');
  expect((await desk.api('GET', '/api/v1/workspace/engine')).body.structuredOutput).toBe('json_object');

  // A server that takes no structured output at all.
  ollama.structuredOutput = 'none';
  await section.getByRole('button', { name: 'Test connection' }).click();
  await expect(status).toContainText('Tested the saved settings. No structured output: The model llama3.1:8b takes no structured answer: JSON schema, JSON mode, tool calls were refused');
  await expect(status).toContainText('What to do: Use a model or server that supports JSON mode or tool calling');
  ollama.structuredOutput = 'json_object';

  // Fake OpenAI: without the key the list is refused; with it, its models.
  await baseUrl.fill(openai.baseUrl);
  await expect(picker).toHaveCount(0);
  await section.getByRole('button', { name: 'Find models' }).click();
  await expect(found).toHaveText(/^Key refused: The provider rejected the API key \(401\).* What to do: This server wants an API key: enter it under API key\.$/);
  await section.getByLabel('API key', { exact: true }).fill(KEY);
  await section.getByRole('button', { name: 'Find models' }).click();
  await expect(picker.locator('option')).toHaveText(['Choose one of 2…', 'gpt-4o', 'gpt-4o-mini']);
  await picker.selectOption('gpt-4o-mini');
  await saveAndTest(section, { baseUrl: openai.baseUrl, model: 'gpt-4o-mini', apiKeySet: true, structuredOutput: null });
  await expect(status).toHaveText('Tested the saved settings. Works: Connected to gpt-4o-mini. Structured answers: JSON schema.');
  await expect(section.getByTestId('engine-structured-output')).toHaveText('Structured answers: JSON schema');
  expect(openai.requests.at(-1)!.authorization).toBe(`Bearer ${KEY}`);

  // The stored key is used for the saved URL's list.
  await section.getByRole('button', { name: 'Find models' }).click();
  await expect(found).toHaveText(`The server at ${openai.baseUrl} lists 2 models.`);

  // An unknown model at OpenAI.
  await model.fill('gpt-5-nano');
  await saveAndTest(section, { model: 'gpt-5-nano' });
  await expect(status).toHaveText(new RegExp(`^Tested the saved settings\\. Unknown model: The server at ${openai.baseUrl.replace(/\./g, '\\.')} does not list gpt-5-nano`));

  // A wrong key.
  await model.fill('gpt-4o-mini');
  await section.getByRole('button', { name: 'Replace' }).click();
  await section.getByLabel('New API key').fill('sk-wrong-key-13579');
  await saveAndTest(section, { model: 'gpt-4o-mini', apiKeyHint: '3579' });
  await expect(status).toHaveText(/^Tested the saved settings\. Key refused: The provider rejected the API key \(401\): Incorrect API key provided: \[redacted\]\. What to do: Check the key at the provider/);
  await expect(page.getByText('sk-wrong-key-13579')).toHaveCount(0);

  // Nothing listens: unreachable, in Find models and in Test connection.
  await baseUrl.fill(closedUrl);
  await section.getByRole('button', { name: 'Find models' }).click();
  await expect(found).toHaveText(/^Unreachable: .*Could not reach the provider.* What to do: Check the base URL, and that the server is running/);
  await saveAndTest(section, { baseUrl: closedUrl });
  await expect(status).toHaveText(/^Tested the saved settings\. Unreachable: .* What to do: Check the base URL, and that the server is running and reachable from this machine\.$/);
  await lookAt(section, 'engine-unreachable');
  await expectAccessible(page, 'section#engine');
});

test("prices: the table's, and the operator's for a model it does not know", async ({ page, consoleGuard }) => {
  consoleGuard.allow(/status of 422 .* @ .*\/api\/v1\/workspace\/engine$/, 'a negative price is refused on purpose; the refusal shows next to the field');
  const section = await openEngine(page);
  // Saved only, never asked: no traffic leaves this machine.
  await desk.api('PUT', '/api/v1/workspace/engine', { engine: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: null });
  await page.reload();
  await expect(section.getByTestId('engine-price')).toHaveText('gpt-4o-mini: $0.15 / $0.60 per million tokens (input / output), from the price table.');

  await section.getByLabel('Model', { exact: true }).fill('acme-ft-7');
  await section.getByLabel('Base URL').fill('https://llm.example.com/v1');
  await section.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(section.getByTestId('engine-price')).toHaveText('acme-ft-7 is an unknown model: no price, so the daily cost cap cannot guard it. Set a price.');

  const input = section.getByLabel('Input, USD per million tokens');
  await input.fill('-1');
  await section.getByLabel('Output, USD per million tokens').fill('8');
  await section.getByRole('button', { name: 'Set price' }).click();
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  await expect(input).toHaveAccessibleDescription(/Must be at least 0/);
  await input.fill('2');
  await input.press('Enter');
  await expect(section.getByTestId('engine-price')).toHaveText('acme-ft-7: $2.00 / $8.00 per million tokens (input / output), your price.');
  expect((await desk.api('GET', '/api/v1/workspace/engine')).body.price).toEqual({ model: 'acme-ft-7', inputPerMillionUsd: 2, outputPerMillionUsd: 8, source: 'operator' });

  await section.getByRole('button', { name: 'Use the standard price' }).click();
  await expect(section.getByTestId('engine-price')).toHaveText(/^acme-ft-7 is an unknown model/);

  // Back on the built-in engine, the Cost page says its figures are an estimate at the configured model.
  await section.getByRole('radio', { name: /Built-in/ }).check();
  await section.getByRole('button', { name: 'Save', exact: true }).click();
  await expect.poll(async () => (await desk.api('GET', '/api/v1/workspace/engine')).body.engine).toBe('local');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Cost' }).click();
  await expect(page.getByTestId('cost-estimate-note')).toContainText("Estimated: what acme-ft-7 would charge for the built-in engine's work (no price known for it: counted as $0).");
});
