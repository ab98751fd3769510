/**
 * Token counting and pricing shared by both engines and the cost accounting.
 * - Tokens: gpt-tokenizer (pure JS, o200k_base, the encoding of current OpenAI models); the local
 *   engine counts what it composed, so its cost reads what the same work would cost on a model.
 * - Prices: @pydantic/genai-prices, a maintained price table kept as data (per model, per million
 *   tokens). A model it does not know (a local Ollama model) is priced at zero and says so.
 */
import { calcPrice } from '@pydantic/genai-prices';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { MICRO_USD_PER_USD } from '../domain/cost/rules';
import type { TokenUsage } from './types';

/** The model the built-in engine prices its work at when none is configured. */
export const DEFAULT_MODEL = 'gpt-4o-mini';

export function countTokens(text: string): number {
  return text === '' ? 0 : countO200k(text);
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
