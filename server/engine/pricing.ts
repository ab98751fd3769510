/**
 * What a model costs, and where that figure comes from. One price serves the cycle's budget (the
 * completion bound is sized with it) and the cost ledger (what the cycle is charged), so the two
 * can never disagree.
 *
 * Order: the operator's own price (Settings) → a server on this machine (Ollama, LM Studio, vLLM
 * on loopback: free to run, so zero) → the price table of @pydantic/genai-prices (kept as data,
 * matched by model and by the provider the base URL names) → unknown (zero, and Settings says the
 * cap cannot guard it until a price is set).
 */
import { calcPrice } from '@pydantic/genai-prices';
import type { EngineKind } from '../core/vocabulary';
import type { TokenUsage } from './types';

/** The model the built-in engine prices its work at when none is configured. */
export const DEFAULT_MODEL = 'gpt-4o-mini';

export type PriceSource = 'operator' | 'local_server' | 'price_table' | 'unknown';
export const PRICE_SOURCES: readonly PriceSource[] = ['operator', 'local_server', 'price_table', 'unknown'];

/** Micro-USD per million tokens: integers, like every stored amount of money. */
export interface ModelPrice {
  model: string;
  inputPerMillion: number;
  outputPerMillion: number;
  source: PriceSource;
}

/** The workspace columns a price is resolved from. */
export interface PriceSettings {
  engine: EngineKind;
  engineModel: string | null;
  engineBaseUrl: string | null;
  engineInputPrice: number | null;
  engineOutputPrice: number | null;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1|0\.0\.0\.0)$/i;

/** Whether the base URL names this machine (a server run locally costs nothing per token). */
export function isLocalServer(baseUrl: string | null): boolean {
  if (baseUrl === null) return false;
  try {
    return LOOPBACK.test(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

const table = new Map<string, { input: number; output: number } | null>();

/** The price table's rates for a model (at the provider the URL names, when it does), per million tokens in micro-USD. */
export function tablePrice(model: string, baseUrl: string | null): { input: number; output: number } | null {
  const key = `${model}\n${baseUrl ?? ''}`;
  let known = table.get(key);
  if (known === undefined) {
    const million = 1_000_000;
    const options = baseUrl !== null && !isLocalServer(baseUrl) ? { providerApiUrl: baseUrl } : {};
    let result = calcPrice({ input_tokens: million, output_tokens: million }, model, options);
    // A URL the table does not know (a proxy): the model alone.
    if (result === null && 'providerApiUrl' in options) result = calcPrice({ input_tokens: million, output_tokens: million }, model);
    known = result ? { input: Math.round(result.input_price * million), output: Math.round(result.output_price * million) } : null;
    table.set(key, known);
  }
  return known;
}

/** The price a workspace's cycles are budgeted and charged at. */
export function resolvePrice(s: PriceSettings): ModelPrice {
  const model = s.engineModel ?? DEFAULT_MODEL;
  const baseUrl = s.engine === 'openai' ? s.engineBaseUrl : null;
  if (s.engineInputPrice !== null && s.engineOutputPrice !== null) {
    return { model, inputPerMillion: s.engineInputPrice, outputPerMillion: s.engineOutputPrice, source: 'operator' };
  }
  if (s.engine === 'openai' && isLocalServer(baseUrl)) return { model, inputPerMillion: 0, outputPerMillion: 0, source: 'local_server' };
  const known = tablePrice(model, baseUrl);
  if (known !== null) return { model, inputPerMillion: known.input, outputPerMillion: known.output, source: 'price_table' };
  return { model, inputPerMillion: 0, outputPerMillion: 0, source: 'unknown' };
}

/** The exact cost of some usage, in (fractional) micro-USD. */
export function exactCost(price: ModelPrice, usage: TokenUsage): number {
  return (usage.inputTokens * price.inputPerMillion + usage.outputTokens * price.outputPerMillion) / 1_000_000;
}

/** What some usage costs, integer micro-USD (what the ledger records). */
export function costOf(price: ModelPrice, usage: TokenUsage): number {
  return Math.round(exactCost(price, usage));
}
