import { describe, expect, it } from 'vitest';
import { invalidFieldOf } from '../../testing/errors';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../core/clock';
import {
  backoffMs,
  checkIds,
  checkLabel,
  checkPollInterval,
  checkSourceUrl,
  effectiveInterval,
  normaliseKeywords,
  passesKeywords,
  pollGating,
  quietnessAckActive,
  quietnessFloorMs,
  replaceInLabel,
  type GatingInput,
} from './rules';

const field = invalidFieldOf;

describe('quietness floor', () => {
  it('is 14 days for any cadence up to 7 days', () => {
    expect(quietnessFloorMs(30)).toBe(14 * DAY_MS);
    expect(quietnessFloorMs(1440)).toBe(14 * DAY_MS);
    expect(quietnessFloorMs(7 * 1440)).toBe(14 * DAY_MS);
  });
  it('is twice the cadence when that is greater', () => {
    expect(quietnessFloorMs(7 * 1440 + 1)).toBe(2 * (7 * 1440 + 1) * MINUTE_MS);
    expect(quietnessFloorMs(20 * 1440)).toBe(40 * DAY_MS);
    expect(quietnessFloorMs(45 * 1440)).toBe(90 * DAY_MS);
  });
  it('is capped at 90 days', () => {
    expect(quietnessFloorMs(45 * 1440 + 1)).toBe(90 * DAY_MS);
    expect(quietnessFloorMs(365 * 1440)).toBe(90 * DAY_MS);
  });
});

describe('quietness ack', () => {
  const at = new Date('2026-03-01T00:00:00Z');
  it('holds for 7 days, not a millisecond more', () => {
    expect(quietnessAckActive(null, at)).toBe(false);
    expect(quietnessAckActive(at.toISOString(), new Date(at.getTime() + 7 * DAY_MS - 1))).toBe(true);
    expect(quietnessAckActive(at.toISOString(), new Date(at.getTime() + 7 * DAY_MS))).toBe(false);
  });
});

describe('backoff', () => {
  it('waits interval x 2^failures, at most 24 hours', () => {
    expect(backoffMs(15, 1)).toBe(30 * MINUTE_MS);
    expect(backoffMs(15, 2)).toBe(60 * MINUTE_MS);
    expect(backoffMs(15, 6)).toBe(960 * MINUTE_MS);
    expect(backoffMs(15, 7)).toBe(24 * HOUR_MS);
    expect(backoffMs(1440, 1)).toBe(24 * HOUR_MS);
    expect(backoffMs(15, 500)).toBe(24 * HOUR_MS);
  });
});

describe('poll gating', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  const base: GatingInput = {
    type: 'rss',
    pollIntervalMinutes: null,
    lastSyncedAt: null,
    lastPolledAt: null,
    consecutiveFailures: 0,
    nextRetryAt: null,
    pausedAt: null,
    pausedUntilAt: null,
    createdAt: '2026-03-10T11:00:00.000Z',
  };
  const ago = (min: number) => new Date(now.getTime() - min * MINUTE_MS).toISOString();

  it('is null for manual and file sources', () => {
    expect(pollGating({ ...base, type: 'manual' }, 30, 15, now)).toBeNull();
    expect(pollGating({ ...base, type: 'file' }, 30, 15, now)).toBeNull();
  });
  it('makes a never-polled feed due at once', () => {
    expect(pollGating(base, 30, 15, now)).toMatchObject({ isDueNow: true, minutesUntilDue: 0, intervalMinutes: 30, isOverride: false });
  });
  it('is due one interval after the last poll: own interval or workspace cadence', () => {
    const polled = { ...base, lastPolledAt: ago(29), lastSyncedAt: ago(29) };
    expect(pollGating(polled, 30, 15, now)).toMatchObject({ isDueNow: false, minutesUntilDue: 1, lastSyncedAt: ago(29) });
    expect(pollGating({ ...polled, lastPolledAt: ago(30) }, 30, 15, now)).toMatchObject({ isDueNow: true, minutesUntilDue: 0 });
    expect(pollGating({ ...polled, pollIntervalMinutes: 20 }, 30, 15, now)).toMatchObject({ isDueNow: true, intervalMinutes: 20, isOverride: true });
  });
  it('never polls more often than the plan floor', () => {
    expect(effectiveInterval(1, 30, 15)).toBe(15);
    expect(effectiveInterval(1, 30, 1)).toBe(1);
    expect(effectiveInterval(null, 15, 15)).toBe(15);
    expect(pollGating({ ...base, pollIntervalMinutes: 1, lastPolledAt: ago(10) }, 30, 15, now)).toMatchObject({ intervalMinutes: 15, minutesUntilDue: 5 });
  });
  it('waits for the backoff time after failures', () => {
    const failing = { ...base, lastPolledAt: ago(40), consecutiveFailures: 2, nextRetryAt: new Date(now.getTime() + 20 * MINUTE_MS).toISOString() };
    expect(pollGating(failing, 30, 15, now)).toMatchObject({ isDueNow: false, minutesUntilDue: 20 });
  });
  it('is never due while paused; a scheduled pause moves the next poll to its end', () => {
    const paused = { ...base, pausedAt: ago(5) };
    expect(pollGating(paused, 30, 15, now)).toMatchObject({ isDueNow: false, nextPollAt: null, minutesUntilDue: null });
    const until = new Date(now.getTime() + 2 * HOUR_MS).toISOString();
    expect(pollGating({ ...paused, pausedUntilAt: until }, 30, 15, now)).toMatchObject({ isDueNow: false, nextPollAt: until, minutesUntilDue: 120 });
  });
});

describe('keyword filters', () => {
  it('match case-insensitive substrings; empty include passes all; exclude wins', () => {
    expect(passesKeywords('Acme raises prices', [], [])).toBe(true);
    expect(passesKeywords('Acme raises PRICES', ['price'], [])).toBe(true);
    expect(passesKeywords('Acme hires', ['price'], [])).toBe(false);
    expect(passesKeywords('Acme raises prices', ['price'], ['acme'])).toBe(false);
    expect(passesKeywords('Globex news', [], ['acme'])).toBe(true);
  });
  it('hold at most 20 keywords of 1-60 characters, folded case-insensitively', () => {
    expect(normaliseKeywords([' Price ', 'price', 'Churn'], 'includeKeywords')).toEqual(['Price', 'Churn']);
    expect(normaliseKeywords(Array.from({ length: 20 }, (_, i) => `k${i}`), 'includeKeywords')).toHaveLength(20);
    expect(field(() => normaliseKeywords(Array.from({ length: 21 }, (_, i) => `k${i}`), 'includeKeywords'))).toBe('includeKeywords');
    expect(normaliseKeywords(['x'.repeat(60)], 'excludeKeywords')).toHaveLength(1);
    expect(field(() => normaliseKeywords(['ok', 'x'.repeat(61)], 'excludeKeywords'))).toBe('excludeKeywords[1]');
    expect(field(() => normaliseKeywords(['  '], 'excludeKeywords'))).toBe('excludeKeywords[0]');
  });
});

describe('input checks', () => {
  it('label: 1-80 characters after trimming', () => {
    expect(checkLabel(' Acme ')).toBe('Acme');
    expect(checkLabel('x'.repeat(80))).toHaveLength(80);
    expect(field(() => checkLabel('x'.repeat(81)))).toBe('label');
    expect(field(() => checkLabel('   '))).toBe('label');
  });
  it('poll interval: 1-1440 or null', () => {
    expect(checkPollInterval(1)).toBe(1);
    expect(checkPollInterval(1440)).toBe(1440);
    expect(checkPollInterval(null)).toBeNull();
    expect(field(() => checkPollInterval(0))).toBe('pollIntervalMinutes');
    expect(field(() => checkPollInterval(1441))).toBe('pollIntervalMinutes');
    expect(field(() => checkPollInterval(1.5))).toBe('pollIntervalMinutes');
  });
  it('url: http(s) for feeds, absolute .csv/.json for files, optional for manual', () => {
    expect(checkSourceUrl('rss', 'https://acme.example/feed')).toBe('https://acme.example/feed');
    expect(field(() => checkSourceUrl('rss', null))).toBe('url');
    expect(field(() => checkSourceUrl('linkedin', 'ftp://acme.example/feed'))).toBe('url');
    expect(field(() => checkSourceUrl('review_site', 'not a url'))).toBe('url');
    expect(checkSourceUrl('file', '/data/signals.csv')).toBe('/data/signals.csv');
    expect(field(() => checkSourceUrl('file', '/data/signals.txt'))).toBe('url');
    expect(checkSourceUrl('manual', undefined)).toBeNull();
    expect(field(() => checkSourceUrl('manual', 'mailto:a@b.c'))).toBe('url');
  });
  it('ids: 1-50, duplicates folded', () => {
    expect(checkIds(['a', 'b', 'a'])).toEqual(['a', 'b']);
    expect(checkIds(Array.from({ length: 50 }, (_, i) => `s${i}`))).toHaveLength(50);
    expect(field(() => checkIds(Array.from({ length: 51 }, (_, i) => `s${i}`)))).toBe('sourceIds');
    expect(field(() => checkIds([]))).toBe('sourceIds');
  });
  it('rename: literal, case-insensitive unless asked', () => {
    expect(replaceInLabel('Acme ACME acme', 'acme', 'Globex', false)).toBe('Globex Globex Globex');
    expect(replaceInLabel('Acme ACME acme', 'acme', 'Globex', true)).toBe('Acme ACME Globex');
    expect(replaceInLabel('a.b (c)', '(c)', '$&$1', false)).toBe('a.b $&$1');
  });
});
