/**
 * Picks the engine of a cycle from the workspace's engine settings. `local` (the default) needs
 * nothing; its model (engineModel, else DEFAULT_MODEL) only prices what the same work would cost.
 * `openai` needs a base URL and a model; the key may be null (Ollama, LM Studio, vLLM need none).
 */
import type { EngineKind } from '../core/vocabulary';
import { LocalEngine } from './local';
import { OpenAIEngine } from './openai';
import type { StructuredOutputMode } from './structured-output';
import { EngineError, type Engine } from './types';
import { DEFAULT_MODEL } from './usage';

/** The workspace columns that choose the engine. */
export interface EngineSettings {
  engine: EngineKind;
  engineModel: string | null;
  engineBaseUrl: string | null;
  /** openai: how the server takes a structured answer, when already found (null: found on the first call). */
  structuredOutput?: StructuredOutputMode | null;
}

export interface EngineOptions {
  /** openai: per-request timeout in milliseconds. */
  timeoutMs?: number;
  /** openai: retries of connection errors, 408/409/429 and 5xx. */
  maxRetries?: number;
}

export function createEngine(settings: EngineSettings, apiKey: string | null, options: EngineOptions = {}): Engine {
  if (settings.engine === 'local') return new LocalEngine(settings.engineModel ?? DEFAULT_MODEL);
  if (!settings.engineBaseUrl || !settings.engineModel) {
    throw new EngineError('The OpenAI-compatible engine needs a base URL and a model: set them in Settings → AI engine.');
  }
  return new OpenAIEngine({ baseUrl: settings.engineBaseUrl, model: settings.engineModel, apiKey, structuredOutput: settings.structuredOutput ?? null, ...options });
}

export { EngineError } from './types';
export type { CycleDecisions, CycleInput, Engine } from './types';
