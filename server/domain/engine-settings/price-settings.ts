/**
 * The operator's price of the engine's model (Settings → AI engine): given in USD per million
 * tokens, stored as integer micro-USD per million (0019), both or neither. And the price that
 * applies, as Settings shows it (pricing.ts decides it).
 */
import type { WorkspaceTable } from '../../../db/schema';
import { invalid } from '../../core/errors';
import { resolvePrice, type PriceSource } from '../../engine/pricing';
import { microToUsd } from '../cost/rules';

/** The most a price may be, USD per million tokens (the dearest listed models are far below). */
export const MAX_PRICE_PER_MILLION_USD = 1000;

export interface PricePatch {
  inputPricePerMillionUsd?: number | null;
  outputPricePerMillionUsd?: number | null;
}

/** What a patch does to the stored price: undefined leaves it, null clears it (the table, or zero on this machine, applies again). */
export type PriceChange = undefined | null | { input: number; output: number };

const FIELDS = { input: 'inputPricePerMillionUsd', output: 'outputPricePerMillionUsd' } as const;

function checkAmount(field: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid(field, 'must be a number (USD per million tokens)');
  if (v < 0 || v > MAX_PRICE_PER_MILLION_USD) throw invalid(field, `must be between 0 and ${MAX_PRICE_PER_MILLION_USD} (USD per million tokens)`);
  return Math.round(v * 1_000_000);
}

/** Both or neither; null for both clears. 422 naming the field otherwise. */
export function checkPrice(patch: PricePatch): PriceChange {
  const { inputPricePerMillionUsd: input, outputPricePerMillionUsd: output } = patch;
  if (input === undefined && output === undefined) return undefined;
  if (input === undefined) throw invalid(FIELDS.input, `must be given with ${FIELDS.output} (both, or null for both to clear the price)`);
  if (output === undefined) throw invalid(FIELDS.output, `must be given with ${FIELDS.input} (both, or null for both to clear the price)`);
  if (input === null && output === null) return null;
  if (input === null) throw invalid(FIELDS.input, `must be a number while ${FIELDS.output} is set (null for both clears the price)`);
  if (output === null) throw invalid(FIELDS.output, `must be a number while ${FIELDS.input} is set (null for both clears the price)`);
  return { input: checkAmount(FIELDS.input, input), output: checkAmount(FIELDS.output, output) };
}

/** "$0.15 / $0.60 per million tokens" (input / output). */
export function priceText(inputMicro: number, outputMicro: number): string {
  const f = (m: number) => `$${microToUsd(m).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 })}`;
  return `${f(inputMicro)} / ${f(outputMicro)} per million tokens`;
}

export interface PriceView {
  /** The model priced: the configured one, or gpt-4o-mini for the built-in engine without one. */
  model: string;
  /** USD per million input tokens. */
  inputPerMillionUsd: number;
  /** USD per million output tokens. */
  outputPerMillionUsd: number;
  /**
   * Where the price comes from: `operator` (set in Settings), `local_server` (a server on this
   * machine: free), `price_table` (the public price table), `unknown` (no price: counted as zero,
   * so the daily cost cap cannot guard it until one is set).
   */
  source: PriceSource;
}

export function priceView(row: Pick<WorkspaceTable, 'engine' | 'engineModel' | 'engineBaseUrl' | 'engineInputPrice' | 'engineOutputPrice'>): PriceView {
  const p = resolvePrice(row);
  return { model: p.model, inputPerMillionUsd: microToUsd(p.inputPerMillion), outputPerMillionUsd: microToUsd(p.outputPerMillion), source: p.source };
}
