import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { diagnose, serverKind } from './discovery';

/** The hints name what to run for the server the URL names (the API tests cover the codes end to end). */

const at = (baseUrl: string, apiKey: string | null = null) => ({ baseUrl, apiKey, timeoutMs: 1000 });
const refused = new OpenAI.APIConnectionError({ cause: new Error('connect ECONNREFUSED 127.0.0.1:11434') });
const status = (code: number, message: string) => OpenAI.APIError.generate(code, { error: { message } }, undefined, new Headers());

describe('discovery hints', () => {
  it('knows the servers people run by host or port', () => {
    expect(['https://api.openai.com/v1', 'https://openrouter.ai/api/v1', 'http://127.0.0.1:11434/v1', 'http://localhost:1234/v1', 'http://127.0.0.1:8000/v1', 'http://10.0.0.2:9000/v1', 'nonsense'].map(serverKind)).toEqual([
      'openai', 'openrouter', 'ollama', 'lmstudio', 'vllm', 'other', 'other',
    ]);
  });

  it('tells what to start, pull or check', () => {
    expect(diagnose(refused, at('http://127.0.0.1:11434/v1'), 'llama3.1')).toEqual({
      problem: 'unreachable',
      message: 'Nothing answers at http://127.0.0.1:11434/v1: Could not reach the provider: connect ECONNREFUSED 127.0.0.1:11434.',
      hint: 'Start Ollama (`ollama serve`) or check the port (11434).',
    });
    expect(diagnose(refused, at('http://127.0.0.1:1234/v1'), null).hint).toMatch(/^Start LM Studio's local server/);
    expect(diagnose(status(404, 'model "llama3.1" not found, try pulling it first'), at('http://127.0.0.1:11434/v1'), 'llama3.1')).toMatchObject({
      problem: 'unknown_model',
      hint: 'Pull it with `ollama pull llama3.1`, or pick one of the server\'s models with Find models.',
    });
    const key = 'sk-proj-abcdefghijklmnop';
    const rejected = diagnose(status(401, `Incorrect API key provided: ${key}`), at('https://api.openai.com/v1', key), 'gpt-4o-mini');
    expect(rejected).toMatchObject({ problem: 'key_refused', hint: expect.stringMatching(/^Check the key at the provider \(platform\.openai\.com/) });
    expect(rejected.message).not.toContain(key);
    expect(diagnose(status(429, 'Rate limit reached'), at('https://openrouter.ai/api/v1', key), 'x')).toMatchObject({ problem: 'provider_error', hint: expect.stringMatching(/quota or credit/) });
    // A 404 for the model list (no model asked) is a wrong path, not an unknown model.
    expect(diagnose(status(404, 'Not Found'), at('http://127.0.0.1:8000'), null)).toMatchObject({ problem: 'provider_error', hint: expect.stringMatching(/ends in \/v1/) });
  });
});
