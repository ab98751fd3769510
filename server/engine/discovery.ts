/**
 * Finding out what an OpenAI-compatible server offers, for Settings → AI engine: the models it
 * lists (GET /models), whether the configured one answers, and how it takes a structured answer.
 * A failure is an answer here, never an error: each is named (`EngineProblem`), told in the
 * provider's own words (redacted), with what to do about it for the server the URL names.
 *
 * Nothing here records cost: Test connection sends a few tiny requests the user asked for.
 */
import OpenAI from 'openai';
import { answerFormat, answerText, fallbackAfter, refusesFormat, schemaInstruction } from './openai/answer-format';
import { providerError, redact } from './openai/errors';
import type { StructuredOutputMode } from './structured-output';

/**
 * Why a server cannot be used as configured:
 * - `unreachable`: nothing answers at the URL (refused, DNS, timeout);
 * - `key_refused`: 401/403;
 * - `unknown_model`: the server does not have the model (404, or missing from its list);
 * - `no_structured_output`: it refuses json_schema, JSON mode and tool calls alike;
 * - `not_configured`: no base URL or model to try;
 * - `key_unreadable`: the stored key cannot be decrypted by this process;
 * - `provider_error`: anything else the server answered (429, 5xx, an unexpected 404...).
 */
export type EngineProblem = 'unreachable' | 'key_refused' | 'unknown_model' | 'no_structured_output' | 'not_configured' | 'key_unreadable' | 'provider_error';

export interface Diagnosis {
  problem: EngineProblem;
  /** What happened, with the provider's words redacted. */
  message: string;
  /** What to do about it. */
  hint: string;
}

export interface Endpoint {
  baseUrl: string;
  apiKey: string | null;
  timeoutMs: number;
}

/** The most model ids an answer carries (OpenRouter lists several hundred). */
export const MAX_MODELS = 500;
/** The probe's completion bound: the answer is `{"ok":true}`. */
const PROBE_MAX_TOKENS = 64;
/** Reasoning models (max_completion_tokens) spend part of the bound thinking before they answer. */
const PROBE_MAX_COMPLETION_TOKENS = 1024;
const PROBE_SCHEMA: Record<string, unknown> = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false };
const MODE_NAMES: Record<StructuredOutputMode, string> = { json_schema: 'JSON schema', json_object: 'JSON mode', tools: 'tool calls' };

export const modeName = (mode: StructuredOutputMode): string => MODE_NAMES[mode];

function clientFor(e: Endpoint): OpenAI {
  return new OpenAI({
    baseURL: e.baseUrl,
    // The SDK refuses to start without a key (and would read OPENAI_API_KEY): local servers ignore it.
    apiKey: e.apiKey ?? 'no-key',
    timeout: e.timeoutMs,
    // One try: the user is waiting, and a retried refusal says nothing new.
    maxRetries: 0,
    logLevel: 'off',
  });
}

type ServerKind = 'ollama' | 'lmstudio' | 'vllm' | 'openrouter' | 'openai' | 'other';

/** Which server a base URL names (by its well-known host or port), so a hint can say what to run. */
export function serverKind(baseUrl: string): ServerKind {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return 'other';
  }
  if (url.hostname === 'api.openai.com') return 'openai';
  if (url.hostname.endsWith('openrouter.ai')) return 'openrouter';
  if (url.port === '11434') return 'ollama';
  if (url.port === '1234') return 'lmstudio';
  if (url.port === '8000') return 'vllm';
  return 'other';
}

function unreachableHint(kind: ServerKind): string {
  if (kind === 'ollama') return 'Start Ollama (`ollama serve`) or check the port (11434).';
  if (kind === 'lmstudio') return "Start LM Studio's local server (Developer → Start server) or check the port (1234).";
  if (kind === 'vllm') return 'Start vLLM (`vllm serve <model>`) or check the port (8000).';
  return 'Check the base URL, and that the server is running and reachable from this machine.';
}

function keyHint(kind: ServerKind, hadKey: boolean): string {
  if (!hadKey) return 'This server wants an API key: enter it under API key.';
  if (kind === 'openai') return 'Check the key at the provider (platform.openai.com → API keys): it may be revoked, mistyped or lack access to this model.';
  if (kind === 'openrouter') return 'Check the key at the provider (openrouter.ai → Keys): it may be revoked or out of credit.';
  return 'Check the key at the provider, or the key the server was started with (e.g. vLLM --api-key).';
}

function modelHint(kind: ServerKind, model: string): string {
  if (kind === 'ollama') return `Pull it with \`ollama pull ${model}\`, or pick one of the server's models with Find models.`;
  if (kind === 'lmstudio') return `Download and load ${model} in LM Studio, or pick one of the server's models with Find models.`;
  if (kind === 'vllm') return `vLLM serves the model it was started with (\`vllm serve <model>\`): pick it with Find models.`;
  return "Check the model's name, or pick one of the server's models with Find models.";
}

/** A failed call to the server, named, with what to do. `model` is null when only the model list was asked for. */
export function diagnose(err: unknown, e: Endpoint, model: string | null): Diagnosis {
  const kind = serverKind(e.baseUrl);
  const secrets = e.apiKey ? [e.apiKey] : [];
  const message = providerError(err, secrets).message;
  if (err instanceof OpenAI.APIConnectionError) return { problem: 'unreachable', message: `Nothing answers at ${e.baseUrl}: ${message}`, hint: unreachableHint(kind) };
  if (err instanceof OpenAI.APIError) {
    if (err.status === 401 || err.status === 403) return { problem: 'key_refused', message, hint: keyHint(kind, e.apiKey !== null) };
    if (err.status === 404 && model !== null) return { problem: 'unknown_model', message, hint: modelHint(kind, model) };
    if (err.status === 404) return { problem: 'provider_error', message, hint: 'The server answered, but has no model list at this URL: check the path (it usually ends in /v1).' };
    if (err.status === 429) return { problem: 'provider_error', message, hint: 'Wait a moment, or check the plan, quota or credit at the provider.' };
  }
  return { problem: 'provider_error', message, hint: "Read the provider's message above; try again, or check the server's log." };
}

export type ModelList = { ok: true; models: string[]; truncated: boolean } | ({ ok: false } & Diagnosis);

/** The server's own model ids (GET /models), sorted, at most MAX_MODELS. */
export async function listModels(e: Endpoint): Promise<ModelList> {
  try {
    const page = await clientFor(e).models.list();
    const ids = [...new Set(page.data.map((m) => m.id).filter((id): id is string => typeof id === 'string' && id !== ''))].sort((a, b) => a.localeCompare(b));
    return { ok: true, models: ids.slice(0, MAX_MODELS), truncated: ids.length > MAX_MODELS };
  } catch (err) {
    return { ok: false, ...diagnose(err, e, null) };
  }
}

/** Whether a listed id is the model (Ollama lists `llama3.1:latest` for `llama3.1`). */
const lists = (ids: readonly string[], model: string): boolean => ids.includes(model) || (!model.includes(':') && ids.includes(`${model}:latest`));

/** A server that takes max_completion_tokens only (OpenAI's reasoning models) says so in its 400. */
const wantsCompletionTokens = (err: unknown): boolean => err instanceof OpenAI.APIError && err.status === 400 && /max_completion_tokens/.test(err.message);

async function ask(client: OpenAI, model: string, mode: StructuredOutputMode): Promise<OpenAI.Chat.Completions.ChatCompletion> {
  const instruction = schemaInstruction(mode, PROBE_SCHEMA);
  const body = {
    model,
    messages: [
      { role: 'system' as const, content: ['You check a connection.', instruction].filter(Boolean).join('\n') },
      { role: 'user' as const, content: 'Answer with ok set to true.' },
    ],
    ...answerFormat(mode, 'connection_check', PROBE_SCHEMA),
  };
  try {
    return await client.chat.completions.create({ ...body, max_tokens: PROBE_MAX_TOKENS });
  } catch (err) {
    if (!wantsCompletionTokens(err)) throw err;
    return client.chat.completions.create({ ...body, max_completion_tokens: PROBE_MAX_COMPLETION_TOKENS });
  }
}

function providerMessage(err: unknown): string {
  const body = err instanceof OpenAI.APIError ? (err.error as { message?: unknown } | undefined) : undefined;
  return typeof body?.message === 'string' ? body.message : err instanceof Error ? err.message : String(err);
}

function isJsonObject(text: string): boolean {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

export type Probe = { ok: true; mode: StructuredOutputMode } | ({ ok: false } & Diagnosis);

/**
 * How the server takes a structured answer: json_schema, else JSON mode, else a forced tool call
 * (the same requests the cycle sends, answer-format.ts), each tried once with a tiny schema. A
 * mode the server refuses, or answers without a JSON object, moves on to the next.
 */
export async function probeStructuredOutput(e: Endpoint, model: string): Promise<Probe> {
  const client = clientFor(e);
  const secrets = e.apiKey ? [e.apiKey] : [];
  const refused: string[] = [];
  let last = '';
  for (let mode: StructuredOutputMode | null = 'json_schema'; mode !== null; mode = fallbackAfter(mode)) {
    try {
      const res = await ask(client, model, mode);
      const choice = res.choices[0];
      // Cut short by the bound, the answer says nothing about the format, which the server took.
      if (choice && (isJsonObject(answerText(mode, choice)) || choice.finish_reason === 'length')) return { ok: true, mode };
      refused.push(modeName(mode));
      last = 'it answered without a JSON object';
    } catch (err) {
      if (!refusesFormat(err)) return { ok: false, ...diagnose(err, e, model) };
      refused.push(modeName(mode));
      last = providerMessage(err);
    }
  }
  return {
    ok: false,
    problem: 'no_structured_output',
    // The provider's words of the last refusal: the others say the same of the other modes.
    message: redact(`The model ${model} takes no structured answer: ${refused.join(', ')} were refused (${last}).`, secrets),
    hint: 'Use a model or server that supports JSON mode or tool calling (e.g. a recent Ollama or vLLM, or a tool-capable model such as llama3.1 or qwen2.5).',
  };
}

export type ConnectionCheck = { ok: true; mode: StructuredOutputMode; message: string } | ({ ok: false } & Diagnosis);

/**
 * Settings → Test connection: the model list first (a dead server or a refused key show there
 * without spending a token; a model the server lists not is named before any chat), then the
 * structured-output probe. A server without a model list (404, 405...) goes straight to the probe.
 */
export async function checkConnection(e: Endpoint, model: string): Promise<ConnectionCheck> {
  const list = await listModels(e);
  if (!list.ok && (list.problem === 'unreachable' || list.problem === 'key_refused')) return list;
  if (list.ok && !list.truncated && list.models.length > 0 && !lists(list.models, model)) {
    const some = list.models.slice(0, 5).join(', ');
    return {
      ok: false,
      problem: 'unknown_model',
      message: `The server at ${e.baseUrl} does not list ${model} (it has ${some}${list.models.length > 5 ? ', …' : ''}).`,
      hint: modelHint(serverKind(e.baseUrl), model),
    };
  }
  const probe = await probeStructuredOutput(e, model);
  if (!probe.ok) return probe;
  return { ok: true, mode: probe.mode, message: `Connected to ${model}. Structured answers: ${modeName(probe.mode)}.` };
}
