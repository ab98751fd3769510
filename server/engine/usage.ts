/**
 * Token counting shared by both engines: gpt-tokenizer (pure JS, o200k_base, the encoding of
 * current OpenAI models); the local engine counts what it composed, so its cost reads what the
 * same work would cost on a model. Prices: pricing.ts.
 */
export { DEFAULT_MODEL } from './pricing';

type Counter = (text: string) => number;
let counter: Counter | null = null;
let loading: Promise<void> | null = null;

/**
 * Loads the tokenizer's tables (o200k: large, and slow to parse), once, on the first cycle rather
 * than at start: a desk that has not run a cycle yet starts faster and smaller. Engines await it at the
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
  const known = recentCounts.get(text);
  if (known !== undefined) return known;
  const n = counter(text);
  recentCounts.set(text, n);
  recentChars += text.length;
  for (const [old] of recentCounts) {
    if (recentChars <= RECENT_CHARS) break;
    recentCounts.delete(old);
    recentChars -= old.length;
  }
  return n;
}

/**
 * The texts counted lately, oldest first, up to a million characters (a few MB held). A cycle
 * counts the same texts again and again: each new signal's block and each task's section, the
 * system prompt and the answer schema, for every smaller plan it tries against the cap; the prompt
 * again for a retry or a repair. Byte-pair encoding a text is far slower than finding it here (one
 * pass over its characters).
 */
const RECENT_CHARS = 1_000_000;
const recentCounts = new Map<string, number>();
let recentChars = 0;
