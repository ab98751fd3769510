import { queryOptions } from '@tanstack/react-query';
import { api, unwrap, type Schema } from '../../api/client';
import { useDeskMutation } from '../../api/mutation';
import { queryKeys } from '../../api/query-keys';

/** Query and mutations of Settings > AI engine (/api/v1/workspace/engine). */

export type EngineSettings = Schema<'EngineSettingsResult'>;
export type EngineSettingsBody = Schema<'EngineSettingsBody'>;
export type EngineTestAnswer = Schema<'EngineTestAnswer'>;
export type EngineChoice = Schema<'EngineChoice'>;

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

/** Test connection: records nothing, so it refreshes nothing. */
export const useTestEngine = () =>
  useDeskMutation<EngineTestAnswer, void>({
    mutationFn: () => unwrap(api.POST('/api/v1/workspace/engine/test')),
    affects: [],
    logged: false,
  });

/** OpenAI-compatible servers people run; choosing one fills the base URL (and a model when none is typed). */
export const ENDPOINT_PRESETS = [
  { id: 'openai', label: 'OpenAI', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', needsKey: true },
  { id: 'ollama', label: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1', needsKey: false },
  { id: 'lmstudio', label: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1', model: '', needsKey: false },
  { id: 'vllm', label: 'vLLM', baseUrl: 'http://127.0.0.1:8000/v1', model: '', needsKey: false },
] as const;

export const presetFor = (baseUrl: string): string => ENDPOINT_PRESETS.find((p) => p.baseUrl === baseUrl.trim().replace(/\/+$/, ''))?.id ?? 'custom';

/** The model the built-in engine prices its work at when none is set (server/engine/usage.ts). */
export const DEFAULT_PRICING_MODEL = 'gpt-4o-mini';
