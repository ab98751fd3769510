import { beforeAll, describe, expect, it } from 'vitest';
import { costOf, resolvePrice, type PriceSettings } from './pricing';
import { countTokens, loadTokenizer } from './usage';

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

  const settings = (over: Partial<PriceSettings>): PriceSettings => ({ engine: 'openai', engineModel: 'gpt-4o-mini', engineBaseUrl: 'https://api.openai.com/v1', engineInputPrice: null, engineOutputPrice: null, ...over });

  it('prices usage from the price table in integer micro-USD', () => {
    // gpt-4o-mini: 0.15 USD per million input tokens, 0.60 per million output tokens.
    const price = resolvePrice(settings({}));
    expect(price).toEqual({ model: 'gpt-4o-mini', inputPerMillion: 150_000, outputPerMillion: 600_000, source: 'price_table' });
    expect(costOf(price, { inputTokens: 1_000_000, outputTokens: 0 })).toBe(150_000);
    expect(costOf(price, { inputTokens: 1000, outputTokens: 500 })).toBe(450);
    // The built-in engine prices its work as the configured model (gpt-4o-mini when none).
    expect(resolvePrice(settings({ engine: 'local', engineModel: null, engineBaseUrl: null })).source).toBe('price_table');
    // Matched at the provider the URL names.
    expect(resolvePrice(settings({ engineModel: 'openai/gpt-4o-mini', engineBaseUrl: 'https://openrouter.ai/api/v1' }))).toMatchObject({ inputPerMillion: 150_000, source: 'price_table' });
  });

  it('prices a server on this machine at zero, an unknown remote model at zero and says which', () => {
    expect(resolvePrice(settings({ engineModel: 'llama3.1:8b', engineBaseUrl: 'http://127.0.0.1:11434/v1' }))).toMatchObject({ inputPerMillion: 0, outputPerMillion: 0, source: 'local_server' });
    expect(resolvePrice(settings({ engineModel: 'gpt-4o-mini', engineBaseUrl: 'http://localhost:4000/v1' })).source).toBe('local_server');
    expect(resolvePrice(settings({ engineModel: 'acme-ft-7', engineBaseUrl: 'https://llm.example.com/v1' }))).toMatchObject({ inputPerMillion: 0, source: 'unknown' });
  });

  it('takes the operator\'s price over every other', () => {
    const price = resolvePrice(settings({ engineModel: 'acme-ft-7', engineBaseUrl: 'http://127.0.0.1:8000/v1', engineInputPrice: 2_000_000, engineOutputPrice: 8_000_000 }));
    expect(price).toEqual({ model: 'acme-ft-7', inputPerMillion: 2_000_000, outputPerMillion: 8_000_000, source: 'operator' });
    expect(costOf(price, { inputTokens: 1000, outputTokens: 1000 })).toBe(10_000);
  });
});
