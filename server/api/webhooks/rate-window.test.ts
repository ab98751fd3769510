import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FixedWindowLimiter, policyName } from './rate-window';

/** A limiter on a hand-moved time (the windows read the time they are given, never the wall clock). */
function limiter(limit: number) {
  let now = 1_000_000;
  const l = new FixedWindowLimiter(limit, 60_000, () => now);
  return { l, advance: (ms: number) => (now += ms) };
}

describe('FixedWindowLimiter', () => {
  it('lets `limit` requests through per key and window, refuses the next, counts keys apart', () => {
    const { l } = limiter(3);
    expect([1, 2, 3].map(() => l.hit('a')).map((h) => [h.exceeded, h.remaining])).toEqual([
      [false, 2],
      [false, 1],
      [false, 0],
    ]);
    expect(l.hit('a')).toMatchObject({ exceeded: true, remaining: 0, resetSeconds: 60 });
    expect(l.hit('b')).toMatchObject({ exceeded: false, remaining: 2 });
  });

  it('opens a key\'s window at its first request and starts counting again once it ends', () => {
    const { l, advance } = limiter(2);
    l.hit('a');
    advance(20_500);
    l.hit('a');
    expect(l.hit('a')).toMatchObject({ exceeded: true, resetSeconds: 40 });
    advance(39_499);
    expect(l.hit('a')).toMatchObject({ exceeded: true, resetSeconds: 1 });
    advance(1);
    expect(l.hit('a')).toMatchObject({ exceeded: false, remaining: 1, resetSeconds: 60 });
  });

  it('drops ended windows, so a key seen long ago starts afresh', () => {
    const { l, advance } = limiter(1);
    l.hit('old');
    advance(120_000);
    l.hit('new');
    expect(l.hit('old')).toMatchObject({ exceeded: false, remaining: 0 });
  });

  it('names the policy and the partition as express-rate-limit does (draft-8 headers)', () => {
    expect(policyName(6000, 60_000)).toBe('6000-in-1min');
    expect(policyName(5, 30_000)).toBe('5-in-30sec');
    const { l } = limiter(1);
    const expected = Buffer.from(crypto.createHash('sha256').update('workspace').digest('hex').slice(0, 12)).toString('base64');
    expect(l.hit('workspace').partition).toBe(expected);
  });
});
