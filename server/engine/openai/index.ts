/**
 * The `openai` engine: a cycle sent to any OpenAI-compatible endpoint (OpenAI, OpenRouter,
 * Ollama, LM Studio, vLLM) through the official SDK. Memory is retrieved per work candidate, the
 * prompt is fitted to what is left of today's cap (budget.ts), and the answer must follow the
 * decisions schema in the way the server supports (answer-format.ts). A bad answer never
 * half-applies: one cut off at its bound is asked again once with fewer tasks, one that is not
 * valid JSON or breaks the schema gets one repair request, and anything else fails the cycle
 * whole, carrying what the provider billed.
 *
 * Usage: the billed usage of every call is the cycle's. It is split per task in proportion to each
 * task's share of the last prompt: input tokens by the tokens of the task's own section plus the
 * blocks of the new signals placed on it; output tokens by the tokens of the decisions that name
 * the task. Shared text (instructions, header, signals judged noise, memory drafts) follows the
 * same shares.
 */
import OpenAI from 'openai';
import type { EngineKind } from '../../core/vocabulary';
import type { StructuredOutputMode } from '../structured-output';
import { CycleCancelledError, EngineError, type CycleDecisions, type CycleInput, type Engine, type EngineMemory, type TokenUsage } from '../types';
import { countTokens, loadTokenizer } from '../usage';
import { answerFormat, answerText, fallbackAfter, refusesFormat, schemaInstruction } from './answer-format';
import { CycleMeter } from '../meter';
import { doesNotFit, neededOutput, requestTokens, shrinking } from './budget';
import { ChatCaller, realSleep, type Sleep } from './calls';
import { providerError } from './errors';
import { MEMORY_PER_TASK, buildPrompt, fullSize, memoryQuery, planPrompt, splitProportionally, type BuiltPrompt, type PlanSize, type PromptPlan } from './messages';
import { DECISIONS_SCHEMA, toDecisions } from './schema';

export interface OpenAIEngineOptions {
  baseUrl: string;
  model: string;
  /** Local servers (Ollama, LM Studio) need none. */
  apiKey: string | null;
  /** Per request, milliseconds (default 120 s: a cycle's answer can be long). */
  timeoutMs?: number;
  /** Tries after the first of a connection error, 408/409/429 or 5xx (default 2). */
  maxRetries?: number;
  /** How the server takes a structured answer, when already found (null: found on the first call). */
  structuredOutput?: StructuredOutputMode | null;
  /** Waits between tries (tests record them instead of waiting). */
  sleep?: Sleep;
  /** Now in ms, for a Retry-After given as a date. */
  now?: () => number;
}

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_RETRIES = 2;
const SCHEMA_NAME = 'cycle_decisions';

type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/** A prompt that fits: what is sent, and the bound its answer is given. */
interface Fitted {
  size: PlanSize;
  plan: PromptPlan;
  prompt: BuiltPrompt;
  messages: Message[];
  inputTokens: number;
  maxOutputTokens: number;
  workBudget: number;
}

export class OpenAIEngine implements Engine {
  readonly kind: EngineKind = 'openai';
  readonly model: string;
  private readonly client: OpenAI;
  private readonly secrets: string[];
  private readonly caller: ChatCaller;
  private mode: StructuredOutputMode | null;

  constructor(options: OpenAIEngineOptions) {
    this.model = options.model;
    this.mode = options.structuredOutput ?? null;
    this.secrets = options.apiKey ? [options.apiKey] : [];
    this.client = new OpenAI({
      baseURL: options.baseUrl,
      // The SDK refuses to start without a key (and would read OPENAI_API_KEY): local servers ignore it.
      apiKey: options.apiKey ?? 'no-key',
      timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxRetries: 0,
      // The SDK's own logging could print request details; Desk logs the outcome itself.
      logLevel: 'off',
    });
    this.caller = new ChatCaller({
      client: this.client, model: this.model, baseUrl: options.baseUrl, maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      secrets: this.secrets, sleep: options.sleep ?? realSleep, now: options.now ?? Date.now,
    });
  }

  async runCycle(input: CycleInput): Promise<CycleDecisions> {
    await loadTokenizer();
    const meter = new CycleMeter(input.budget);
    const full = fullSize(input);
    const memoryByTask = new Map<string, EngineMemory[]>();
    for (const id of planPrompt(input, full).candidates) {
      const task = input.tasks.find((t) => t.id === id)!;
      memoryByTask.set(id, await input.searchMemory(id, memoryQuery(task), MEMORY_PER_TASK));
    }
    let mode: StructuredOutputMode = this.mode ?? 'json_schema';
    let fitted = this.fit(input, full, full, memoryByTask, mode, meter);
    let cutOff = false;
    let repaired = false;
    for (let attempt = 1; ; attempt++) {
      input.onModelCall?.({ attempt, inputTokens: fitted.inputTokens, maxOutputTokens: fitted.maxOutputTokens });
      let res: OpenAI.Chat.Completions.ChatCompletion;
      try {
        res = await this.caller.call(fitted.messages, answerFormat(mode, SCHEMA_NAME, DECISIONS_SCHEMA), fitted.maxOutputTokens, input.abortSignal);
      } catch (err) {
        const refused = refusesFormat(err);
        const next = refused ? fallbackAfter(mode) : null;
        if (next === null) {
          const base = err instanceof EngineError ? err : providerError(err, this.secrets);
          const out = refused ? new EngineError(`The server takes no structured answer (JSON schema, JSON mode or tool calls): ${base.message} Choose a model that supports tool calling or JSON mode.`) : base;
          throw out.withBilled({ ...meter.billed });
        }
        // The server does not take this way of asking: the next one, with the prompt it needs.
        mode = next;
        fitted = this.fit(input, full, fitted.size, memoryByTask, mode, meter);
        continue;
      }
      const choice = res.choices[0];
      const text = choice ? answerText(mode, choice) : '';
      meter.bill({
        inputTokens: res.usage?.prompt_tokens ?? countTokens(fitted.messages.map((m) => String(m.content ?? '')).join('\n')),
        outputTokens: res.usage?.completion_tokens ?? countTokens(text),
      });
      const billed = (): TokenUsage => ({ ...meter.billed });
      if (input.abortSignal?.aborted) throw new CycleCancelledError().withBilled(billed());
      if (!choice) throw new EngineError('The provider answered without a choice.').withBilled(billed());
      if (choice.message.refusal) throw new EngineError(`The model refused the cycle: ${choice.message.refusal.slice(0, 300)}`).withBilled(billed());
      if (choice.finish_reason === 'length') {
        if (cutOff) throw new EngineError(`The model's answer was cut off at its bound of ${fitted.maxOutputTokens} tokens twice; nothing was applied.`).withBilled(billed());
        // Once: the same cycle with fewer tasks to work (or fewer signals), in what is left of the cap.
        cutOff = true;
        const smaller = fitted.size.candidates > 0 ? { ...fitted.size, candidates: Math.floor(fitted.size.candidates / 2) } : { ...fitted.size, signals: Math.floor(fitted.size.signals / 2) };
        try {
          fitted = this.fit(input, full, smaller, memoryByTask, mode, meter);
        } catch {
          throw new EngineError(`The model's answer was cut off at its bound of ${fitted.maxOutputTokens} tokens, and what is left of today's cost cap does not pay for a smaller retry; nothing was applied.`).withBilled(billed());
        }
        continue;
      }
      try {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          throw new EngineError('The model\'s answer is not valid JSON.');
        }
        const shownMemory = new Map([...fitted.plan.candidates].map((id) => [id, (memoryByTask.get(id) ?? []).slice(0, fitted.plan.memoryPerTask)]));
        const decisions = toDecisions(parsed, { signals: fitted.plan.signals, tasks: fitted.plan.tasks, memoryByTask: shownMemory, workBudget: fitted.workBudget });
        const usage = billed();
        return { ...decisions, usage, usageByTask: splitUsage(usage, fitted.prompt, decisions), maxOutputTokens: fitted.maxOutputTokens, ...(mode !== this.mode ? { structuredOutput: mode } : {}) };
      } catch (err) {
        if (!(err instanceof EngineError)) throw err;
        if (repaired) throw new EngineError(`${err.message} (after a repair request)`).withBilled(billed());
        repaired = true;
        const repair = this.repair(fitted, text, err.message, meter);
        if (repair === null) throw err.withBilled(billed());
        fitted = repair;
      }
    }
  }

  /**
   * The largest plan from `start` down that fits what is left of the cap with an answer bound
   * large enough for it; the smallest one's figures when none does.
   */
  private fit(input: CycleInput, full: PlanSize, start: PlanSize, memoryByTask: Map<string, EngineMemory[]>, mode: StructuredOutputMode, meter: CycleMeter): Fitted {
    const schemaLine = schemaInstruction(mode, DECISIONS_SCHEMA);
    // The schema travels in the request (response_format, tools) and is counted as prompt.
    const extra = mode === 'json_object' ? '' : JSON.stringify(DECISIONS_SCHEMA);
    let smallest: { inputTokens: number; needed: number; plan: PromptPlan } | null = null;
    for (const size of shrinking(start)) {
      // Worked tasks shrunk by the budget: new tasks may not take their place.
      const workBudget = size.candidates < full.candidates ? size.candidates : input.workBudget;
      const plan = planPrompt(input, size);
      const prompt = buildPrompt({ ...input, workBudget }, plan, memoryByTask, schemaLine);
      const inputTokens = requestTokens([prompt.system, prompt.user], extra);
      const needed = neededOutput({ signals: plan.signals.length, candidates: plan.candidates.size });
      const maxOutputTokens = meter.bound(inputTokens);
      if (maxOutputTokens >= needed) {
        const messages: Message[] = [{ role: 'system', content: prompt.system }, { role: 'user', content: prompt.user }];
        return { size, plan, prompt, messages, inputTokens, maxOutputTokens, workBudget };
      }
      smallest = { inputTokens, needed, plan };
    }
    const s = smallest!;
    const what = `${s.plan.signals.length} new signal${s.plan.signals.length === 1 ? '' : 's'}, ${s.plan.candidates.size} task${s.plan.candidates.size === 1 ? '' : 's'} worked, ${s.plan.tasks.length} shown`;
    throw doesNotFit(meter, s.inputTokens, s.needed, what);
  }

  /** The repair request: the same prompt, the answer, and what was wrong with it; null when the cap leaves no room. */
  private repair(fitted: Fitted, answer: string, problem: string, meter: CycleMeter): Fitted | null {
    const messages: Message[] = [
      ...fitted.messages,
      { role: 'assistant', content: answer },
      { role: 'user', content: `Your answer could not be used: ${problem} Answer again with the complete JSON object only, following the schema, with every id taken from the prompt.` },
    ];
    const inputTokens = requestTokens(messages.map((m) => String(m.content ?? '')), JSON.stringify(DECISIONS_SCHEMA));
    const maxOutputTokens = meter.bound(inputTokens);
    if (maxOutputTokens < neededOutput({ signals: fitted.plan.signals.length, candidates: fitted.plan.candidates.size })) return null;
    return { ...fitted, messages, inputTokens, maxOutputTokens };
  }
}

function splitUsage(usage: TokenUsage, prompt: BuiltPrompt, d: Omit<CycleDecisions, 'usage' | 'usageByTask'>): Record<string, TokenUsage> {
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
