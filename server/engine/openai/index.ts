/**
 * The `openai` engine: one chat-completions call per cycle to any OpenAI-compatible endpoint
 * (OpenAI, Ollama, LM Studio, vLLM) through the official SDK, with a strict JSON schema for the
 * answer. Memory is retrieved per work candidate before the prompt is built.
 *
 * Usage: the response's usage is the cycle's. It is split per task in proportion to each task's
 * share: input tokens by the prompt tokens of the task's own section plus the blocks of the new
 * signals placed on it; output tokens by the tokens of the decisions that name the task. Shared
 * text (instructions, header, signals judged noise, memory drafts) is spread by the same shares.
 */
import OpenAI from 'openai';
import type { EngineKind } from '../../config';
import { EngineError, type CycleDecisions, type CycleInput, type Engine, type EngineMemory, type TokenUsage } from '../types';
import { countTokens, loadTokenizer } from '../usage';
import type { StructuredOutputMode } from '../structured-output';
import { providerError } from './errors';
import { MEMORY_PER_TASK, buildPrompt, memoryQuery, planPrompt, splitProportionally } from './messages';
import { DECISIONS_SCHEMA, toDecisions } from './schema';

export interface OpenAIEngineOptions {
  baseUrl: string;
  model: string;
  /** Local servers (Ollama, LM Studio) need none. */
  apiKey: string | null;
  /** Per request, milliseconds (default 120 s: a cycle's answer can be long). */
  timeoutMs?: number;
  /** Retries of connection errors, 408/409/429 and 5xx, with the SDK's backoff (default 2). */
  maxRetries?: number;
  /** How the server takes a structured answer, when already found (null: found on the first call). */
  structuredOutput?: StructuredOutputMode | null;
}

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_RETRIES = 2;

export class OpenAIEngine implements Engine {
  readonly kind: EngineKind = 'openai';
  readonly model: string;
  private readonly client: OpenAI;
  private readonly secrets: string[];

  constructor(options: OpenAIEngineOptions) {
    this.model = options.model;
    this.secrets = options.apiKey ? [options.apiKey] : [];
    this.client = new OpenAI({
      baseURL: options.baseUrl,
      // The SDK refuses to start without a key (and would read OPENAI_API_KEY): local servers ignore it.
      apiKey: options.apiKey ?? 'no-key',
      timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      // The SDK's own logging could print request details; Desk logs the outcome itself.
      logLevel: 'off',
    });
  }

  private async complete(system: string, user: string, schema: boolean, signal?: AbortSignal): Promise<OpenAI.Chat.Completions.ChatCompletion> {
    try {
      return await this.client.chat.completions.create(
        {
          model: this.model,
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: user },
          ],
          ...(schema ? { response_format: { type: 'json_schema', json_schema: { name: 'cycle_decisions', strict: true, schema: DECISIONS_SCHEMA } } } : {}),
        },
        { signal },
      );
    } catch (err) {
      throw providerError(err, this.secrets);
    }
  }

  /** A tiny request that proves the endpoint, the key and the model work (Settings → Test connection). */
  async check(signal?: AbortSignal): Promise<string> {
    const res = await this.complete('You check a connection.', 'Reply with the single word: ok', false, signal);
    const answer = res.choices[0]?.message?.content?.trim() ?? '';
    return `Connected to ${this.model}${answer === '' ? '' : `: it answered "${answer.slice(0, 40)}"`}.`;
  }

  async runCycle(input: CycleInput): Promise<CycleDecisions> {
    await loadTokenizer();
    const plan = planPrompt(input);
    const memoryByTask = new Map<string, EngineMemory[]>();
    for (const id of plan.candidates) {
      const task = plan.tasks.find((t) => t.id === id)!;
      memoryByTask.set(id, await input.searchMemory(id, memoryQuery(task), MEMORY_PER_TASK));
    }
    const prompt = buildPrompt(input, plan, memoryByTask);
    const res = await this.complete(prompt.system, prompt.user, true, input.abortSignal);
    const choice = res.choices[0];
    if (!choice) throw new EngineError('The provider answered without a choice.');
    if (choice.message.refusal) throw new EngineError(`The model refused the cycle: ${choice.message.refusal.slice(0, 300)}`);
    if (choice.finish_reason === 'length') throw new EngineError('The model\'s answer was cut off (it reached its output token limit).');
    let parsed: unknown;
    try {
      parsed = JSON.parse(choice.message.content ?? '');
    } catch {
      throw new EngineError('The model\'s answer is not valid JSON.');
    }
    const decisions = toDecisions(parsed, { signals: plan.signals, tasks: plan.tasks, memoryByTask, workBudget: input.workBudget });
    const usage: TokenUsage = {
      inputTokens: res.usage?.prompt_tokens ?? countTokens(prompt.system + prompt.user),
      outputTokens: res.usage?.completion_tokens ?? countTokens(choice.message.content ?? ''),
    };
    return { ...decisions, usage, usageByTask: splitUsage(usage, prompt, decisions) };
  }
}

function splitUsage(usage: TokenUsage, prompt: ReturnType<typeof buildPrompt>, d: Omit<CycleDecisions, 'usage' | 'usageByTask'>): Record<string, TokenUsage> {
  const inWeights = new Map<string, number>();
  const outWeights = new Map<string, number>();
  const add = (m: Map<string, number>, ref: string, n: number): void => void m.set(ref, (m.get(ref) ?? 0) + n);
  for (const [id, n] of prompt.taskTokens) add(inWeights, id, n);
  const placeSignals = (ref: string, ids: string[]): void => ids.forEach((id) => add(inWeights, ref, prompt.signalTokens.get(id) ?? 0));
  for (const t of d.newTasks) {
    placeSignals(t.ref, t.signalIds);
    add(outWeights, t.ref, countTokens(JSON.stringify(t)));
  }
  for (const u of d.taskUpdates) {
    placeSignals(u.taskId, u.addSignalIds);
    add(outWeights, u.taskId, countTokens(JSON.stringify(u)));
  }
  for (const a of d.artifacts) add(outWeights, a.taskRef, countTokens(`${a.title}\n${a.content}`));
  for (const w of d.workLog) add(outWeights, w.taskRef, countTokens(w.entry));
  const input = splitProportionally(usage.inputTokens, inWeights);
  const output = splitProportionally(usage.outputTokens, outWeights.size > 0 ? outWeights : inWeights);
  const out: Record<string, TokenUsage> = {};
  for (const ref of new Set([...input.keys(), ...output.keys()])) {
    out[ref] = { inputTokens: input.get(ref) ?? 0, outputTokens: output.get(ref) ?? 0 };
  }
  return out;
}
