import { describe, expect, it } from 'vitest';
import { invalidFieldOf } from '../../testing/errors';
import { checkEmoji, REACTION_EMOJIS } from './reactions';

describe('reaction set', () => {
  it('is the spec set, in display order', () => {
    expect(REACTION_EMOJIS).toEqual(['👍', '👀', '🎯', '❤️', '🚀']);
  });

  it('checkEmoji takes one of the five and names the field otherwise', () => {
    for (const e of REACTION_EMOJIS) expect(checkEmoji(e)).toBe(e);
    expect(invalidFieldOf(() => checkEmoji('😀'))).toBe('emoji');
    expect(invalidFieldOf(() => checkEmoji(7, 'reaction'))).toBe('reaction');
    // the bare heart without the variation selector is a different string
    expect(invalidFieldOf(() => checkEmoji('\u2764'))).toBe('emoji');
  });
});
