import { describe, expect, it } from 'vitest';
import { OverlapIndex, stem, surfaceForms, words } from './text';

describe('local engine text', () => {
  it('keeps the meaningful words, folding word forms onto one stem', () => {
    expect(words('The release of Postgres 17 was released; releases follow!')).toEqual(['releas', 'postgr', 'follow']);
    expect(['crash', 'crashes', 'pricing', 'prices', 'companies', 'status', 'business', 'api'].map(stem)).toEqual(['crash', 'crash', 'pric', 'pric', 'company', 'status', 'business', 'api']);
    expect(surfaceForms('Prices and pricing').get('pric')).toBe('prices');
  });

  it('finds the most related target through shared rare words, with a threshold and a minimum overlap', () => {
    const docs = [words('stripe invoice failures for eu customers'), words('hiring plan for the support team'), words('invoice template redesign')];
    const index = new OverlapIndex();
    for (const d of docs) index.observe(d);
    const query = words('more stripe invoice failures');
    index.observe(query);
    for (const d of docs) index.add(d);
    expect(index.best(query, 0.25, 2)).toMatchObject({ target: 0 });
    expect(index.best(words('support team hiring'), 0.25, 2)).toMatchObject({ target: 1 });
    // One shared word is not enough, however rare.
    expect(index.best(words('template for newsletters'), 0.01, 2)).toBeNull();
    expect(index.best([], 0, 1)).toBeNull();
  });
});

describe('local engine text: repeats', () => {
  it('finds sentences that say the same thing, and keeps different ones apart', async () => {
    const { sameStatement, distinctSentences, groupRepeats, sentencesOf } = await import('./text');
    expect(sameStatement('Stripe raises prices for European customers', 'Stripe raises prices for European customers!')).toBe(true);
    expect(sameStatement('Stripe raised prices for European customers.', 'Stripe raises its prices for European customers')).toBe(true);
    expect(sameStatement('Competitor Acme launches AI assistant', 'Acme AI assistant launch gets mixed reviews')).toBe(false);
    expect(sameStatement('OK', 'ok.')).toBe(true);
    expect(sentencesOf('Checkout is slow. Checkout is slow!\n- Refunds are up')).toEqual(['Checkout is slow.', 'Checkout is slow!', 'Refunds are up']);
    expect(distinctSentences(['Checkout is slow on mobile.', 'Refunds are up.', 'Checkout is slow on mobile!'])).toEqual(['Checkout is slow on mobile.', 'Refunds are up.']);
    expect(groupRepeats(['a b c', 'x y z', 'a b c'], (s) => s)).toEqual([['a b c', 'a b c'], ['x y z']]);
  });
});
