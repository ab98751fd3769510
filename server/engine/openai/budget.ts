/**
 * The cap as a ceiling: before each model call, the prompt is counted and priced, and the
 * completion is bounded so that the prompt plus the longest answer the bound allows, at the
 * model's price, fits in what is left of today's cap (less what this cycle's earlier calls were
 * billed). A plan too big for that is made smaller (shorter memory, fewer tasks worked, fewer
 * signals, fewer tasks shown) before the cycle gives up.
 */
import { usd, type CycleMeter } from '../meter';
import { CycleDoesNotFitError } from '../types';
import { countTokens } from '../usage';
import type { PlanSize } from './messages';

export { MAX_OUTPUT_TOKENS } from '../meter';

/**
 * Other tokenizers (Llama, Qwen, Mistral) count the same text up to ~15% higher than o200k, which
 * Desk counts with: a prompt's estimate carries that margin, plus the chat format's own tokens
 * (role markers per message, the reply's priming).
 */
export const INPUT_MARGIN = 1.15;
const PER_MESSAGE = 4;
const PRIMING = 3;

/** The shortest useful answer: the JSON frame, a line per signal triaged, a short draft per task worked. */
export const ANSWER_FRAME_TOKENS = 120;
export const ANSWER_TOKENS_PER_SIGNAL = 40;
export const ANSWER_TOKENS_PER_DRAFT = 500;

/** Prompt tokens of a request as the provider may count them (margin included). */
export function requestTokens(messages: readonly string[], extra = ''): number {
  const counted = messages.reduce((n, m) => n + countTokens(m) + PER_MESSAGE, PRIMING) + countTokens(extra);
  return Math.ceil(counted * INPUT_MARGIN);
}

/** The answer a plan of this size needs at least. */
export function neededOutput(size: Pick<PlanSize, 'signals' | 'candidates'>): number {
  return ANSWER_FRAME_TOKENS + ANSWER_TOKENS_PER_SIGNAL * size.signals + ANSWER_TOKENS_PER_DRAFT * size.candidates;
}

/**
 * Smaller and smaller plans, from `full` down to the smallest one that still does something (one
 * signal triaged, or one task worked): memory is shortened first, then fewer tasks are worked,
 * then fewer signals and tasks are shown.
 */
export function* shrinking(full: PlanSize): Generator<PlanSize> {
  let size = { ...full };
  yield size;
  for (const memoryPerTask of [2, 0]) {
    if (memoryPerTask >= size.memoryPerTask || size.candidates === 0) continue;
    size = { ...size, memoryPerTask };
    yield size;
  }
  while (size.candidates > (size.signals > 0 ? 0 : 1)) {
    size = { ...size, candidates: size.candidates - 1 };
    yield size;
  }
  while (size.signals > 1 || size.tasks > size.candidates + 10) {
    size = { ...size, signals: Math.max(size.signals > 0 ? 1 : 0, Math.floor(size.signals / 2)), tasks: Math.max(size.candidates + 10, Math.floor(size.tasks / 2)) };
    yield size;
  }
}

/** The skip's message: what the smallest cycle would cost, against what is left. */
export function doesNotFit(meter: CycleMeter, inputTokens: number, outputTokens: number, what: string): CycleDoesNotFitError {
  const need = meter.worstCase(inputTokens, outputTokens);
  const left = Math.max(0, meter.left());
  return new CycleDoesNotFitError(
    `Not even the smallest cycle fits in what is left of today's cost cap: ${what} (${inputTokens.toLocaleString('en-US')} prompt tokens and a ${outputTokens.toLocaleString('en-US')}-token answer at ${meter.budget.price.model}'s price) could cost ${usd(need)}, and ${usd(left)} is left. Cycles resume tomorrow, or when the cap is raised.`,
  ).withBilled({ ...meter.billed });
}
