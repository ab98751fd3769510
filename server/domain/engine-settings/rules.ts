/** Pure rules of the engine settings (Settings → AI engine): the bounds of what the operator enters, and how long a check waits. */
import { invalid } from '../../core/errors';
import type { EngineKind } from '../../core/vocabulary';

export const ENGINE_KINDS: readonly EngineKind[] = ['local', 'openai'];
export const MAX_MODEL_LENGTH = 200;
export const MAX_BASE_URL_LENGTH = 500;
export const MAX_API_KEY_LENGTH = 500;
/** How long Test connection waits for the provider (per request). */
export const TEST_TIMEOUT_MS = 20_000;
/** How long Find models waits for the server's list. */
export const MODELS_TIMEOUT_MS = 10_000;

const CONTROL = /\p{Cc}/u;

export function checkModel(value: string | null): string | null {
  if (value === null) return null;
  const model = value.trim();
  if (model === '') return null;
  if (model.length > MAX_MODEL_LENGTH) throw invalid('model', `must be at most ${MAX_MODEL_LENGTH} characters`);
  if (CONTROL.test(model)) throw invalid('model', 'must not contain control characters');
  return model;
}

/** An http(s) base URL (loopback allowed: Ollama, LM Studio, vLLM run locally), without a trailing slash. */
export function checkBaseUrl(field: string, value: string | null): string | null {
  if (value === null) return null;
  const url = value.trim().replace(/\/+$/, '');
  if (url === '') return null;
  if (url.length > MAX_BASE_URL_LENGTH) throw invalid(field, `must be at most ${MAX_BASE_URL_LENGTH} characters`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid(field, 'must be an http(s) URL, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalid(field, 'must be an http(s) URL');
  if (parsed.username || parsed.password) throw invalid(field, 'must not contain a user name or password (put the key in apiKey)');
  return url;
}

export function checkApiKey(value: string | null): string | null {
  if (value === null) return null;
  const key = value.trim();
  if (key === '') return null;
  if (key.length > MAX_API_KEY_LENGTH) throw invalid('apiKey', `must be at most ${MAX_API_KEY_LENGTH} characters`);
  if (/\s/.test(key) || CONTROL.test(key)) throw invalid('apiKey', 'must not contain spaces or control characters');
  return key;
}
