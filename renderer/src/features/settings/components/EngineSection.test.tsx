import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Schema } from '../../../api/client';
import { json, noFake, fakeFetch, type FakeCall } from '../../../testing/fake-api';
import { cleanUpAfterEach, renderWithApp } from '../../../testing/render';
import { EngineSection } from './EngineSection';

type Settings = Schema<'EngineSettingsResult'>;
const tablePrice = { model: 'gpt-4o-mini', inputPerMillionUsd: 0.15, outputPerMillionUsd: 0.6, source: 'price_table' } as const;
const builtIn: Settings = { engine: 'local', model: null, baseUrl: null, apiKeySet: false, apiKeyHint: null, apiKeyFromEnvironment: false, price: tablePrice, structuredOutput: null };

/** The engine API: GET answers the current settings; PUT applies the body the way the server does (the key never comes back). */
function fakeEngine(initial: Settings, options: { put?: (call: FakeCall) => Response | null; test?: () => Response } = {}) {
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
      };
      return json(200, settings);
    }
    if (call.path === '/api/v1/workspace/engine/test' && call.method === 'POST') return (options.test ?? (() => json(200, { ok: true, engine: settings.engine, model: 'gpt-4o-mini', message: 'Connected to gpt-4o-mini: it answered "ok".' })))();
    return noFake(call);
  });
}

cleanUpAfterEach();

const puts = (calls: FakeCall[]) => calls.filter((c) => c.method === 'PUT').map((c) => c.body);

describe('Settings > AI engine', () => {
  it('switches from the built-in engine to Ollama with a preset, and tests the connection', async () => {
    const desk = fakeEngine(builtIn);
    renderWithApp(<EngineSection />);
    const builtInRadio = await screen.findByRole('radio', { name: /Built-in \(offline\)/ });
    expect((builtInRadio as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByLabelText('Base URL')).toBeNull();
    expect((screen.getByLabelText('Price as model') as HTMLInputElement).placeholder).toBe('gpt-4o-mini');

    fireEvent.click(screen.getByRole('radio', { name: /OpenAI-compatible/ }));
    fireEvent.change(screen.getByLabelText('Preset'), { target: { value: 'ollama' } });
    expect((screen.getByLabelText('Base URL') as HTMLInputElement).value).toBe('http://127.0.0.1:11434/v1');
    expect((screen.getByLabelText('Model') as HTMLInputElement).value).toBe('llama3.1');
    expect((screen.getByLabelText('API key') as HTMLInputElement).type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(puts(desk.calls)).toEqual([{ engine: 'openai', model: 'llama3.1', baseUrl: 'http://127.0.0.1:11434/v1' }]));

    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(screen.getByRole('status', { name: 'Connection test' }).textContent).toBe('Works: Connected to gpt-4o-mini: it answered "ok".'));
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
      test: () => json(200, { ok: false, engine: 'openai', model: 'gpt-4o-mini', message: 'The provider rejected the API key (401).' }),
    });
    renderWithApp(<EngineSection />);
    fireEvent.click(await screen.findByRole('radio', { name: /OpenAI-compatible/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('is required for the openai engine');
    expect(screen.getByLabelText('Base URL').getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(screen.getByRole('status', { name: 'Connection test' }).textContent).toBe('Failed: The provider rejected the API key (401).'));
  });

  it('says when the environment supplies the key, and offers no field for it', async () => {
    fakeEngine({ engine: 'openai', model: 'llama3.1', baseUrl: 'http://127.0.0.1:11434/v1', apiKeySet: true, apiKeyHint: '5678', apiKeyFromEnvironment: true, price: { ...tablePrice, model: 'llama3.1', source: 'local_server', inputPerMillionUsd: 0, outputPerMillionUsd: 0 }, structuredOutput: null });
    renderWithApp(<EngineSection />);
    expect((await screen.findByTestId('engine-key-status')).textContent).toBe('Key from DESK_OPENAI_API_KEY •••• 5678');
    expect(screen.queryByRole('button', { name: 'Replace' })).toBeNull();
    expect(screen.queryByLabelText(/API key/)).toBeNull();
  });
});
