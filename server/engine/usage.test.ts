import { beforeAll, describe, expect, it } from 'vitest';
import { countTokens, loadTokenizer, priceUsage } from './usage';

// (A block body: a function returned from beforeAll would run as a teardown.)
beforeAll(async () => {
  await loadTokenizer();
});

describe('engine usage', () => {
  it('counts tokens with a real tokenizer', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('Desk turns signals into drafts.')).toBeGreaterThan(4);
  });

  it('prices usage from the price table in integer micro-USD', () => {
    // gpt-4o-mini: 0.15 USD per million input tokens, 0.60 per million output tokens.
    expect(priceUsage('gpt-4o-mini', { inputTokens: 1_000_000, outputTokens: 0 })).toEqual({ costMicroUsd: 150_000, priced: true });
    expect(priceUsage('gpt-4o-mini', { inputTokens: 1000, outputTokens: 500 })).toEqual({ costMicroUsd: 450, priced: true });
  });

  it('prices an unknown (local) model at zero and says so', () => {
    expect(priceUsage('llama3.1:8b', { inputTokens: 5000, outputTokens: 5000 })).toEqual({ costMicroUsd: 0, priced: false });
  });
});
