import { describe, expect, it } from 'vitest';
import { ManualClock } from './clock';
import { newId, pooledRandom } from './ids';

describe('ids', () => {
  it('are prefixed, unique and sortable by time even within one millisecond', () => {
    const clock = new ManualClock('2026-03-10T12:00:00.000Z');
    const ids = Array.from({ length: 5000 }, () => newId('sig', clock));
    clock.advance(1);
    const later = newId('sig', clock);
    expect(new Set(ids).size).toBe(5000);
    expect([...ids].sort()).toEqual(ids);
    expect(later > ids[ids.length - 1]).toBe(true);
    expect(ids[0]).toMatch(/^sig_[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it('draws random values in [0, 1) that cover every ulid character', () => {
    const chars = new Set<number>();
    for (let i = 0; i < 20_000; i++) {
      const r = pooledRandom();
      expect(r >= 0 && r < 1).toBe(true);
      chars.add(Math.floor(r * 32));
    }
    expect(chars.size).toBe(32);
  });
});
