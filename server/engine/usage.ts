/**
 * Token counting and pricing shared by both engines and the cost accounting.
 * - Tokens: gpt-tokenizer (pure JS, o200k_base, the encoding of current OpenAI models); the local
 *   engine counts what it composed, so its cost reads what the same work would cost on a model.
 * - Prices: @pydantic/genai-prices, a maintained price table kept as data (per model, per million
 *   tokens). A model it does not know (a local Ollama model) is priced at zero and says so.
 */
import { calcPrice } from '@pydantic/genai-prices';
import { MICRO_USD_PER_USD } from '../domain/cost/rules';
import type { TokenUsage } from './types';

/** The model the built-in engine prices its work at when none is configured. */
export const DEFAULT_MODEL = 'gpt-4o-mini';

type Counter = (text: string) => number;
let counter: Counter | null = null;
let loading: Promise<void> | null = null;

/**
 * Loads the tokenizer's tables (o200k: ~0.3 s and ~55 MiB), once, on the first cycle rather than
 * at start: a desk that has not run a cycle yet starts faster and smaller. Engines await it at the
 * start of runCycle; countTokens is synchronous after that.
 */
export function loadTokenizer(): Promise<void> {
  // Called on its module object: under some loaders the named export is the encoder's unbound method.
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => {
    const encoding = (m.default ?? m) as { countTokens(text: string): number };
    counter = (text: string) => encoding.countTokens(text);
  });
  return loading;
}

/** Tokens of `text` (after loadTokenizer resolved; calling it before is a programming error). */
export function countTokens(text: string): number {
  if (text === '') return 0;
  if (counter === null) throw new Error('countTokens before loadTokenizer(): await loadTokenizer() first');
  return counter(text);
}

export interface Price {
  /** Integer micro-USD (1 USD = 1,000,000). */
  costMicroUsd: number;
  /** False when the price table does not know the model (cost 0). */
  priced: boolean;
}

const cache = new Map<string, { inputPerToken: number; outputPerToken: number } | null>();

/** Per-token USD rates of a model, from the price table (remembered per model). */
function rates(model: string): { inputPerToken: number; outputPerToken: number } | null {
  let known = cache.get(model);
  if (known === undefined) {
    const million = 1_000_000;
    const result = calcPrice({ input_tokens: million, output_tokens: million }, model);
    known = result ? { inputPerToken: result.input_price / million, outputPerToken: result.output_price / million } : null;
    cache.set(model, known);
  }
  return known;
}

export function priceUsage(model: string, usage: TokenUsage): Price {
  const r = rates(model);
  if (r === null) return { costMicroUsd: 0, priced: false };
  const usd = usage.inputTokens * r.inputPerToken + usage.outputTokens * r.outputPerToken;
  return { costMicroUsd: Math.round(usd * MICRO_USD_PER_USD), priced: true };
}
