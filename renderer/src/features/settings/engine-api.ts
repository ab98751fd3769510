import { queryOptions } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';

/** Query and mutations of Settings > AI engine (/api/v1/workspace/engine). */

export type EngineSettings = Schema<'EngineSettingsResult'>;
export type EngineSettingsBody = Schema<'EngineSettingsBody'>;
export type EngineTestAnswer = Schema<'EngineTestAnswer'>;
export type EngineChoice = Schema<'EngineChoice'>;
export type EngineModelsAnswer = Schema<'EngineModelsAnswer'>;
export type EngineModelsBody = Schema<'EngineModelsBody'>;
export type EngineTestBody = Schema<'EngineTestBody'>;
export type EnginePrice = EngineSettings['price'];
export type EngineProblem = NonNullable<EngineTestAnswer['problem']>;
export type StructuredOutputMode = NonNullable<EngineSettings['structuredOutput']>;

export const engineSettingsQuery = () =>
  queryOptions({
    queryKey: queryKeys.workspace.engine,
    queryFn: () => unwrap(api.GET('/api/v1/workspace/engine')),
  });

export const useSaveEngineSettings = () =>
  useDeskMutation<EngineSettings, EngineSettingsBody>({
    mutationFn: (body) => unwrap(api.PUT('/api/v1/workspace/engine', { body })),
    update: (qc, data) => qc.setQueryData(engineSettingsQuery().queryKey, data),
    affects: [queryKeys.workspace.engine],
  });

/**
 * Test connection of what the form holds (saved or not; the answer's `tested` says which): no
 * activity; it may remember the structured-output mode, so the settings are read again.
 */
export const useTestEngine = () =>
  useDeskMutation<EngineTestAnswer, EngineTestBody>({
    mutationFn: (body) => unwrap(api.POST('/api/v1/workspace/engine/test', { body })),
    affects: (data) => (data.structuredOutput ? [queryKeys.workspace.engine] : []),
    logged: false,
  });

/** Find models: asks a server for its models before anything is saved; changes nothing. */
export const useFindModels = () =>
  useDeskMutation<EngineModelsAnswer, EngineModelsBody>({
    mutationFn: (body) => unwrap(api.POST('/api/v1/workspace/engine/models', { body })),
    affects: [],
    logged: false,
  });

/** A failure as Settings names it (the problem codes of Test connection and Find models). */
export const PROBLEM_LABELS: Record<EngineProblem, string> = {
  unreachable: 'Unreachable',
  key_refused: 'Key refused',
  unknown_model: 'Unknown model',
  no_structured_output: 'No structured output',
  not_configured: 'Not set up',
  key_unreadable: 'Key unreadable',
  provider_error: 'Provider error',
};

export const MODE_LABELS: Record<StructuredOutputMode, string> = { json_schema: 'JSON schema', json_object: 'JSON mode', tools: 'tool calls' };

const usd = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 })}`;

/** "gpt-4o-mini: $0.15 / $0.60 per million tokens (input / output), from the price table", and the like. */
export function priceLine(p: EnginePrice): string {
  const rates = `${usd(p.inputPerMillionUsd)} / ${usd(p.outputPerMillionUsd)} per million tokens (input / output)`;
  if (p.source === 'local_server') return `${p.model} on a local server: free (it runs on this machine).`;
  if (p.source === 'unknown') return `${p.model} is an unknown model: no price, so the daily cost cap cannot guard it. Set a price.`;
  return `${p.model}: ${rates}, ${p.source === 'operator' ? 'your price' : 'from the price table'}.`;
}

/** OpenAI-compatible servers people run; choosing one fills the base URL (and a model when none is typed). */
export const ENDPOINT_PRESETS = [
  { id: 'openai', label: 'OpenAI', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', needsKey: true },
  { id: 'ollama', label: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1', needsKey: false },
  { id: 'lmstudio', label: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1', model: '', needsKey: false },
  { id: 'vllm', label: 'vLLM', baseUrl: 'http://127.0.0.1:8000/v1', model: '', needsKey: false },
  { id: 'openrouter', label: 'OpenRouter', baseUrl: 'https://openrouter.ai/api/v1', model: '', needsKey: true },
] as const;

export const presetFor = (baseUrl: string): string => ENDPOINT_PRESETS.find((p) => p.baseUrl === baseUrl.trim().replace(/\/+$/, ''))?.id ?? 'custom';

/** The model the built-in engine prices its work at when none is set (server/engine/usage.ts). */
export const DEFAULT_PRICING_MODEL = 'gpt-4o-mini';
