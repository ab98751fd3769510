import { describe, expect, it } from 'vitest';
import { cleanText } from './sanitize';

describe('cleanText', () => {
  it('trims, keeps a text within the bound whole and falls back when nothing is left', () => {
    expect(cleanText('  Ship the fix  ', 12)).toBe('Ship the fix');
    expect(cleanText('abc', 3)).toBe('abc');
    expect(cleanText('   ', 5, 'Untitled')).toBe('Untitled');
    expect(cleanText(42, 5, 'Untitled')).toBe('Untitled');
  });

  it('cuts at `max` code points, never inside a surrogate pair, and trims the cut', () => {
    // Four emoji are eight UTF-16 units: over 5 units, but only 4 code points, so nothing is cut.
    expect(cleanText('😀😀😀😀', 5)).toBe('😀😀😀😀');
    expect(cleanText('😀😀😀😀😀😀', 5)).toBe('😀😀😀😀😀');
    expect(cleanText('abcd efgh', 5)).toBe('abcd');
  });
});
