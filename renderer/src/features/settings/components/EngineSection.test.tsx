import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Schema } from '../../../api/client';
import { json, noFake, fakeFetch, type FakeCall } from '../../../testing/fake-api';
import { renderWithApp } from '../../../testing/render';
import { EngineSection } from './EngineSection';

type Settings = Schema<'EngineSettingsResult'>;
const tablePrice = { model: 'gpt-4o-mini', inputPerMillionUsd: 0.15, outputPerMillionUsd: 0.6, source: 'price_table' } as const;
const builtIn: Settings = { engine: 'local', model: null, baseUrl: null, apiKeySet: false, apiKeyHint: null, apiKeyFromEnvironment: false, price: tablePrice, structuredOutput: null };

/** The engine API: GET answers the current settings; PUT applies the body the way the server does (the key never comes back). */
function fakeEngine(initial: Settings, options: { put?: (call: FakeCall) => Response | null; test?: (call: FakeCall) => Response; models?: (call: FakeCall) => Response } = {}) {
  let settings = { ...initial };
  return fakeFetch((call) => {
    if (call.path === '/api/v1/workspace/engine' && call.method === 'GET') return json(200, settings);
    if (call.path === '/api/v1/workspace/engine' && call.method === 'PUT') {
      const refused = options.put?.(call);
      if (refused) return refused;
      const b = call.body as Schema<'EngineSettingsBody'>;
      const key = b.apiKey === undefined ? undefined : b.apiKey;
      settings = {
        ...settings,
        ...(b.engine ? { engine: b.engine } : {}),
        ...(b.model !== undefined ? { model: b.model } : {}),
        ...(b.baseUrl !== undefined ? { baseUrl: b.baseUrl } : {}),
        ...(key === undefined ? {} : key ? { apiKeySet: true, apiKeyHint: key.slice(-4) } : { apiKeySet: false, apiKeyHint: null }),
        ...(b.inputPricePerMillionUsd === null ? { price: tablePrice } : {}),
        ...(typeof b.inputPricePerMillionUsd === 'number' ? { price: { ...settings.price, inputPerMillionUsd: b.inputPricePerMillionUsd, outputPerMillionUsd: b.outputPricePerMillionUsd!, source: 'operator' as const } } : {}),
      };
      return json(200, settings);
    }
    if (call.path === '/api/v1/workspace/engine/models' && call.method === 'POST') {
      if (options.models) return options.models(call);
      return json(200, { ok: true, models: [], truncated: false, message: 'The server lists no models.', problem: null, hint: null });
    }
    if (call.path === '/api/v1/workspace/engine/test' && call.method === 'POST') {
      return (options.test ?? (() => json(200, { ok: true, engine: settings.engine, model: 'gpt-4o-mini', message: 'Connected to gpt-4o-mini: it answered "ok".', tested: 'saved' })))(call);
    }
    return noFake(call);
  });
}


const puts = (calls: FakeCall[]) => calls.filter((c) => c.method === 'PUT').map((c) => c.body);

describe('Settings > AI engine', () => {
  it('switches from the built-in engine to Ollama with a preset, and tests the connection', async () => {
    const desk = fakeEngine(builtIn);
    renderWithApp(<EngineSection />);
    const builtInRadio = await screen.findByRole('radio', { name: /Built-in \(offline\)/ });
    expect((builtInRadio as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByLabelText('Base URL')).toBeNull();
    // No grey example that reads as a value: the default is said in the hint.
    const priceAs = screen.getByLabelText('Price as model') as HTMLInputElement;
    expect(priceAs.placeholder).toBe('');
    expect(document.getElementById(priceAs.getAttribute('aria-describedby')!)?.textContent).toBe('Empty: priced as gpt-4o-mini.');

    fireEvent.click(screen.getByRole('radio', { name: /OpenAI-compatible/ }));
    fireEvent.change(screen.getByLabelText('Preset'), { target: { value: 'ollama' } });
    expect((screen.getByLabelText('Base URL') as HTMLInputElement).value).toBe('http://127.0.0.1:11434/v1');
    expect((screen.getByLabelText('Model') as HTMLInputElement).value).toBe('llama3.1');
    expect((screen.getByLabelText('API key') as HTMLInputElement).type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts(desk.calls)).toEqual([{ engine: 'openai', model: 'llama3.1', baseUrl: 'http://127.0.0.1:11434/v1' }]));

    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(screen.getByRole('status', { name: 'Connection test' }).textContent).toBe('Tested the saved settings. Works: Connected to gpt-4o-mini: it answered "ok".'));
  });

  it('tests what the form holds before it is saved, and says it tested the unsaved form', async () => {
    const desk = fakeEngine(builtIn, {
      test: (call) => {
        const b = call.body as Schema<'EngineTestBody'>;
        return b.model
          ? json(200, { ok: true, engine: 'openai', model: b.model, message: `Connected to ${b.model}. Structured answers: JSON mode.`, problem: null, hint: null, structuredOutput: 'json_object', tested: 'form' })
          : json(200, { ok: false, engine: 'openai', model: '', message: 'The OpenAI-compatible engine needs a model.', problem: 'not_configured', hint: 'Pick a preset, then find and choose a model (or type one).', structuredOutput: null, tested: 'form' });
      },
    });
    renderWithApp(<EngineSection />);
    fireEvent.click(await screen.findByRole('radio', { name: /OpenAI-compatible/ }));
    fireEvent.change(screen.getByLabelText('Base URL'), { target: { value: 'https://llm.example.com/v1' } });
    const model = screen.getByLabelText('Model') as HTMLInputElement;
    expect(model.value).toBe('');
    expect(model.placeholder).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const status = screen.getByRole('status', { name: 'Connection test' });
    await waitFor(() => expect(status.textContent).toBe('Tested the unsaved form. Not set up: The OpenAI-compatible engine needs a model. What to do: Pick a preset, then find and choose a model (or type one).'));
    fireEvent.change(model, { target: { value: 'acme-7b' } });
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: 'sk-typed-key-1357' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(status.textContent).toBe('Tested the unsaved form. Works: Connected to acme-7b. Structured answers: JSON mode.'));
    expect(desk.calls.filter((c) => c.path.endsWith('/test')).map((c) => c.body)).toEqual([
      { engine: 'openai', model: null, baseUrl: 'https://llm.example.com/v1' },
      { engine: 'openai', model: 'acme-7b', baseUrl: 'https://llm.example.com/v1', apiKey: 'sk-typed-key-1357' },
    ]);
    expect(puts(desk.calls)).toEqual([]);
  });

  it('shows a stored key only as its last 4 characters; replace sends the new key, clear removes it', async () => {
    const desk = fakeEngine({ engine: 'openai', model: 'gpt-4o-mini', baseUrl: 'https://api.openai.com/v1', apiKeySet: true, apiKeyHint: '1234', apiKeyFromEnvironment: false, price: tablePrice, structuredOutput: null });
    renderWithApp(<EngineSection />);
    expect((await screen.findByTestId('engine-key-status')).textContent).toBe('Key set •••• 1234');
    expect((screen.getByLabelText('Preset') as HTMLSelectElement).value).toBe('openai');
    expect(screen.queryByLabelText('New API key')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Replace' }));
    fireEvent.change(screen.getByLabelText('New API key'), { target: { value: 'sk-new-key-9876' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('engine-key-status').textContent).toBe('Key set •••• 9876'));
    expect(puts(desk.calls)).toEqual([{ engine: 'openai', model: 'gpt-4o-mini', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-new-key-9876' }]);
    expect(screen.queryByLabelText('New API key')).toBeNull();
    expect(document.body.textContent).not.toContain('sk-new-key-9876');

    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(screen.getByTestId('engine-key-status').textContent).toBe('No key set'));
    expect(puts(desk.calls).at(-1)).toEqual({ apiKey: null });
    expect(screen.getByLabelText('API key')).toBeTruthy();
  });

  it('shows the field the server refused, and a failed test with the provider error', async () => {
    fakeEngine(builtIn, {
      put: (call) => ((call.body as { baseUrl?: unknown }).baseUrl === null ? json(422, { error: 'validation_failed', message: 'baseUrl is required', details: [{ field: 'baseUrl', message: 'is required for the openai engine' }] }) : null),
      test: () => json(200, { ok: false, engine: 'openai', model: 'gpt-4o-mini', message: 'The provider rejected the API key (401).', tested: 'form' }),
    });
    renderWithApp(<EngineSection />);
    fireEvent.click(await screen.findByRole('radio', { name: /OpenAI-compatible/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('is required for the openai engine');
    expect(screen.getByLabelText('Base URL').getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(screen.getByRole('status', { name: 'Connection test' }).textContent).toBe('Tested the unsaved form. Failed: The provider rejected the API key (401).'));
  });

  it('says when the environment supplies the key, and offers no field for it', async () => {
    fakeEngine({ engine: 'openai', model: 'llama3.1', baseUrl: 'http://127.0.0.1:11434/v1', apiKeySet: true, apiKeyHint: '5678', apiKeyFromEnvironment: true, price: { ...tablePrice, model: 'llama3.1', source: 'local_server', inputPerMillionUsd: 0, outputPerMillionUsd: 0 }, structuredOutput: null });
    renderWithApp(<EngineSection />);
    expect((await screen.findByTestId('engine-key-status')).textContent).toBe('Key from DESK_OPENAI_API_KEY •••• 5678');
    expect(screen.queryByRole('button', { name: 'Replace' })).toBeNull();
    expect(screen.queryByLabelText(/API key/)).toBeNull();
  });

  it('finds the models of the URL in the form and fills the model from the pick; typing stays possible', async () => {
    const desk = fakeEngine(builtIn, {
      models: (call) => {
        const b = call.body as { baseUrl: string; apiKey?: string };
        if (b.baseUrl === 'https://openrouter.ai/api/v1' && b.apiKey !== 'sk-or-key-1234') {
          return json(200, { ok: false, models: [], truncated: false, message: 'The provider rejected the API key (401).', problem: 'key_refused', hint: 'Check the key at the provider.' });
        }
        return json(200, { ok: true, models: ['llama3.1:8b', 'qwen2.5:7b'], truncated: false, message: `The server at ${b.baseUrl} lists 2 models.`, problem: null, hint: null });
      },
    });
    renderWithApp(<EngineSection />);
    fireEvent.click(await screen.findByRole('radio', { name: /OpenAI-compatible/ }));
    fireEvent.change(screen.getByLabelText('Preset'), { target: { value: 'openrouter' } });
    expect((screen.getByLabelText('Base URL') as HTMLInputElement).value).toBe('https://openrouter.ai/api/v1');
    fireEvent.click(screen.getByRole('button', { name: 'Find models' }));
    await waitFor(() => expect(screen.getByRole('status', { name: 'Find models' }).textContent).toBe('Key refused: The provider rejected the API key (401). What to do: Check the key at the provider.'));
    expect(screen.queryByLabelText('Models on the server')).toBeNull();

    // The key typed in the form goes with the request; the answer fills the picker, which takes the focus.
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: 'sk-or-key-1234' } });
    fireEvent.click(screen.getByRole('button', { name: 'Find models' }));
    const picker = (await screen.findByLabelText('Models on the server')) as HTMLSelectElement;
    expect(desk.calls.filter((c) => c.path.endsWith('/models')).map((c) => c.body)).toEqual([{ baseUrl: 'https://openrouter.ai/api/v1' }, { baseUrl: 'https://openrouter.ai/api/v1', apiKey: 'sk-or-key-1234' }]);
    await waitFor(() => expect(document.activeElement).toBe(picker));
    expect([...picker.options].map((o) => o.value)).toEqual(['', 'llama3.1:8b', 'qwen2.5:7b']);
    fireEvent.change(picker, { target: { value: 'qwen2.5:7b' } });
    const model = screen.getByLabelText('Model') as HTMLInputElement;
    expect(model.value).toBe('qwen2.5:7b');
    fireEvent.change(model, { target: { value: 'qwen2.5:14b' } });
    expect(picker.value).toBe('');

    // A new base URL forgets what the old one listed.
    fireEvent.change(screen.getByLabelText('Base URL'), { target: { value: 'http://127.0.0.1:9999/v1' } });
    await waitFor(() => expect(screen.queryByLabelText('Models on the server')).toBeNull());
    expect((screen.getByLabelText('Preset') as HTMLSelectElement).value).toBe('custom');
  });

  it('names a failed test with what to do, and shows the structured-output mode the server took', async () => {
    fakeEngine(
      { ...builtIn, engine: 'openai', model: 'llama3.1', baseUrl: 'http://127.0.0.1:11434/v1', structuredOutput: 'json_object', price: { ...tablePrice, model: 'llama3.1', inputPerMillionUsd: 0, outputPerMillionUsd: 0, source: 'local_server' } },
      { test: () => json(200, { ok: false, engine: 'openai', model: 'llama3.1', message: 'The server at http://127.0.0.1:11434/v1 does not list llama3.1 (it has qwen2.5:7b).', problem: 'unknown_model', hint: 'Pull it with `ollama pull llama3.1`.', structuredOutput: null, tested: 'saved' }) },
    );
    renderWithApp(<EngineSection />);
    expect((await screen.findByTestId('engine-structured-output')).textContent).toBe('Structured answers: JSON mode');
    expect(screen.getByTestId('engine-price').textContent).toBe('llama3.1 on a local server: free (it runs on this machine).');
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Connection test' }).textContent).toBe(
        'Tested the saved settings. Unknown model: The server at http://127.0.0.1:11434/v1 does not list llama3.1 (it has qwen2.5:7b). What to do: Pull it with `ollama pull llama3.1`.',
      ),
    );
  });

  it('shows the price and its source; an unknown model asks for a price, which is checked before it is sent', async () => {
    const desk = fakeEngine({ ...builtIn, engine: 'openai', model: 'acme-ft-7', baseUrl: 'https://llm.example.com/v1', price: { model: 'acme-ft-7', inputPerMillionUsd: 0, outputPerMillionUsd: 0, source: 'unknown' } });
    renderWithApp(<EngineSection />);
    expect((await screen.findByTestId('engine-price')).textContent).toBe('acme-ft-7 is an unknown model: no price, so the daily cost cap cannot guard it. Set a price.');
    const input = screen.getByLabelText('Input, USD per million tokens');
    fireEvent.change(input, { target: { value: 'two' } });
    fireEvent.change(screen.getByLabelText('Output, USD per million tokens'), { target: { value: '8' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set price' }));
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(puts(desk.calls)).toEqual([]);
    fireEvent.change(input, { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set price' }));
    await waitFor(() => expect(screen.getByTestId('engine-price').textContent).toBe('acme-ft-7: $2.00 / $8.00 per million tokens (input / output), your price.'));
    expect(puts(desk.calls)).toEqual([{ inputPricePerMillionUsd: 2, outputPricePerMillionUsd: 8 }]);
    fireEvent.click(screen.getByRole('button', { name: 'Use the standard price' }));
    await waitFor(() => expect(puts(desk.calls).at(-1)).toEqual({ inputPricePerMillionUsd: null, outputPricePerMillionUsd: null }));
  });

  it('says the built-in engine only estimates at the model it prices as', async () => {
    fakeEngine(builtIn);
    renderWithApp(<EngineSection />);
    expect((await screen.findByTestId('engine-price')).textContent).toBe('gpt-4o-mini: $0.15 / $0.60 per million tokens (input / output), from the price table.');
    expect(screen.getByText(/an estimate, the built-in engine itself is free/)).toBeTruthy();
    expect(screen.queryByTestId('engine-structured-output')).toBeNull();
  });
});
