import { describe, expect, it } from 'vitest';
import { sparklinePath } from './sparkline-path';

describe('sparklinePath', () => {
  it('spreads the values across the width, the lowest at the bottom and the highest at the top, inside the inset', () => {
    expect(sparklinePath([0, 5, 10], 100, 20, 2)).toBe('M2,18 L50,10 L98,2');
  });

  it('draws a flat series across the middle and a single value as a flat line of the whole width', () => {
    expect(sparklinePath([3, 3, 3], 84, 24, 1)).toBe('M1,12 L42,12 L83,12');
    expect(sparklinePath([7], 84, 24, 1)).toBe('M1,12 L83,12');
  });

  it('draws nothing for no values, and a missing (non-finite) value as zero', () => {
    expect(sparklinePath([], 84, 24)).toBe('');
    expect(sparklinePath([Number.NaN, 4], 10, 10, 0)).toBe('M0,10 L10,0');
  });
});
