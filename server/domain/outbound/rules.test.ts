import { describe, expect, it } from 'vitest';
import { invalidFieldOf } from '../../testing/errors';
import { checkEventNames, checkSubscriptionLabel, checkSubscriptionUrl, failingTooLong, parseRetryAfter, retryDelayMs, RETRY_DELAYS_MS, urlOrigin } from './rules';

const now = new Date('2026-03-10T12:00:00.000Z');

describe('outbound rules', () => {
  it('retry delays follow the schedule, jitter adds up to 10%, and there are 7 retries', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelayMs(n, () => 0))).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(retryDelayMs(1, () => 0.5)).toBe(5_250);
    expect(retryDelayMs(7, () => 0.999)).toBe(Math.round(36_000_000 * 1.0999));
    expect(retryDelayMs(8, () => 0)).toBeNull();
    expect(RETRY_DELAYS_MS).toHaveLength(7);
  });

  it('Retry-After: seconds or an HTTP date, clamped to 1 s .. 24 h; junk is ignored', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('0', now)).toBe(1_000);
    expect(parseRetryAfter('999999', now)).toBe(24 * 3600_000);
    expect(parseRetryAfter('Tue, 10 Mar 2026 12:10:00 GMT', now)).toBe(600_000);
    expect(parseRetryAfter('Tue, 10 Mar 2026 11:00:00 GMT', now)).toBe(1_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  it('a subscription is failing too long after exactly 5 days', () => {
    expect(failingTooLong(null, now)).toBe(false);
    expect(failingTooLong('2026-03-05T12:00:00.001Z', now)).toBe(false);
    expect(failingTooLong('2026-03-05T12:00:00.000Z', now)).toBe(true);
  });

  it('checks url, label and events, naming the field', () => {
    expect(checkSubscriptionUrl(' http://127.0.0.1:9000/x ')).toBe('http://127.0.0.1:9000/x');
    expect(invalidFieldOf(() => checkSubscriptionUrl('ftp://x.example'))).toBe('url');
    expect(invalidFieldOf(() => checkSubscriptionUrl(42))).toBe('url');
    expect(checkSubscriptionLabel('  ')).toBeNull();
    expect(checkSubscriptionLabel('x'.repeat(80))).toHaveLength(80);
    expect(invalidFieldOf(() => checkSubscriptionLabel('x'.repeat(81)))).toBe('label');
    expect(checkEventNames(['task.created', 'task.created', 'artifact.ready'])).toEqual(['task.created', 'artifact.ready']);
    expect(invalidFieldOf(() => checkEventNames([]))).toBe('events');
    expect(invalidFieldOf(() => checkEventNames(['task.created', 'task.exploded']))).toBe('events[1]');
  });

  it('names a receiver by its origin only', () => {
    expect(urlOrigin('https://hooks.example.com:8443/T000/secret-token?x=1')).toBe('https://hooks.example.com:8443');
  });
});
