/**
 * What one cycle may still spend: what its calls were billed so far, against what was left of
 * today's cap when it began. Both engines size their work with it (the openai engine its
 * completion bound, the local engine what it triages and drafts).
 */
import { exactCost } from './pricing';
import type { CycleBudget, TokenUsage } from './types';

/** The longest answer a cycle asks for: five drafts, a hundred signals triaged and their work log. */
export const MAX_OUTPUT_TOKENS = 8192;

export const usd = (micro: number): string => `$${(micro / 1_000_000).toFixed(micro < 10_000 ? 4 : 2)}`;

export class CycleMeter {
  /** Tokens billed by the calls so far (a failed or cut-off call is paid for too). */
  readonly billed: TokenUsage = { inputTokens: 0, outputTokens: 0 };

  constructor(readonly budget: CycleBudget) {}

  bill(usage: TokenUsage): void {
    this.billed.inputTokens += usage.inputTokens;
    this.billed.outputTokens += usage.outputTokens;
  }

  /** Micro-USD still free for this cycle's next call (Infinity without a cap). */
  left(): number {
    const { remainingMicroUsd } = this.budget;
    return remainingMicroUsd === null ? Infinity : remainingMicroUsd - exactCost(this.budget.price, this.billed);
  }

  /**
   * The largest completion a call with this many prompt tokens can be given: MAX_OUTPUT_TOKENS,
   * or less so that prompt plus answer fit what is left; negative when not even the prompt fits.
   */
  bound(inputTokens: number): number {
    const left = this.left();
    if (left === Infinity) return MAX_OUTPUT_TOKENS;
    const { inputPerMillion, outputPerMillion } = this.budget.price;
    const afterPrompt = left - (inputTokens * inputPerMillion) / 1_000_000;
    if (afterPrompt < 0) return -1;
    if (outputPerMillion === 0) return MAX_OUTPUT_TOKENS;
    return Math.min(MAX_OUTPUT_TOKENS, Math.floor((afterPrompt * 1_000_000) / outputPerMillion));
  }

  /** Whether this much more usage still fits. */
  affords(usage: TokenUsage): boolean {
    return exactCost(this.budget.price, { inputTokens: this.billed.inputTokens + usage.inputTokens, outputTokens: this.billed.outputTokens + usage.outputTokens }) <= (this.budget.remainingMicroUsd ?? Infinity);
  }

  /** What a call of this size may cost at most (for the message of a cycle that does not fit). */
  worstCase(inputTokens: number, outputTokens: number): number {
    return exactCost(this.budget.price, { inputTokens, outputTokens });
  }
}


