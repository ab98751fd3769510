import { describe, expect, it } from 'vitest';
import { MARK_CLOSE, MARK_OPEN, unmark } from './fts';
import { plainSnippet } from './plain-snippet';

const m = (word: string) => `${MARK_OPEN}${word}${MARK_CLOSE}`;

describe('plainSnippet', () => {
  it.each([
    ['**Price** change of 10%', 'Price change of 10%'],
    ['## Next steps\n- Call the *vendor*\n- Ship `v2`', 'Next steps Call the vendor Ship v2'],
    ['Read [the docs](https://acme.example/docs) first', 'Read the docs first'],
    ['See ![chart](https://x.example/c.png) and [cut link](https://acme.exa', 'See chart and cut link'],
    ['> quoted _line_ here', 'quoted line here'],
    ['1. first\n2. second', 'first second'],
    ['…ld** and __strong__ text', '…ld and strong text'],
  ])('%j reads as %j', (input, expected) => {
    expect(plainSnippet(input)).toBe(expected);
  });

  it('leaves prose that only looks like syntax alone: snake_case, 2 * 3, a price', () => {
    expect(plainSnippet('set max_retries to 2 * 3 at $5')).toBe('set max_retries to 2 * 3 at $5');
  });

  it('keeps the match marks on the words, so their offsets point at the words once the syntax is gone', () => {
    const { text, marks } = unmark(plainSnippet(`**${m('Pricing')}** moved to [${m('pricing')} page](https://acme.example/p)`));
    expect(text).toBe('Pricing moved to pricing page');
    expect(marks.map((k) => text.slice(k.start, k.end))).toEqual(['Pricing', 'pricing']);
  });
});
