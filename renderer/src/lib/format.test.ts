import { describe, expect, it } from 'vitest';
import { centsToDollarInput, dollarsToCents, formatBytes, formatCents, formatDuration, fromDatetimeLocal, parseWhole, toDatetimeLocal } from './format';

describe('money', () => {
  it('shows cents as US dollars, thousands grouped, every call alike', () => {
    expect(formatCents(123456)).toBe('$1,234.56');
    expect(formatCents(0)).toBe('$0.00');
    expect(formatCents(7)).toBe('$0.07');
    expect(formatCents(-250)).toBe('-$2.50');
    expect(formatCents(123456)).toBe('$1,234.56');
  });

  it('turns dollar input into integer cents', () => {
    expect(dollarsToCents('12.5')).toBe(1250);
    expect(dollarsToCents('12.50')).toBe(1250);
    expect(dollarsToCents('$0.07')).toBe(7);
    expect(dollarsToCents('.5')).toBe(50);
    expect(dollarsToCents('0')).toBe(0);
    expect(dollarsToCents(' 1000000 ')).toBe(100_000_000);
    expect(dollarsToCents('0.29')).toBe(29);
  });

  it('rejects what is not an amount with at most two decimals', () => {
    for (const bad of ['', 'abc', '-1', '1.005', '1,5', '1e3']) expect(dollarsToCents(bad)).toBeNull();
  });

  it('shows cents as a dollar input value', () => {
    expect(centsToDollarInput(50)).toBe('0.50');
    expect(centsToDollarInput(123456)).toBe('1234.56');
  });
});

describe('parseWhole', () => {
  it('accepts whole numbers only', () => {
    expect(parseWhole('45')).toBe(45);
    expect(parseWhole(' 0 ')).toBe(0);
    expect(parseWhole('-3')).toBe(-3);
    for (const bad of ['', '1.5', 'x', '1e2']) expect(parseWhole(bad)).toBeNull();
  });
});

describe('datetime-local', () => {
  it('round-trips a local time to an ISO instant', () => {
    const d = new Date(2026, 2, 10, 9, 30);
    expect(toDatetimeLocal(d)).toBe('2026-03-10T09:30');
    expect(fromDatetimeLocal('2026-03-10T09:30')).toBe(d.toISOString());
  });

  it('is null for an empty or partial value', () => {
    expect(fromDatetimeLocal('')).toBeNull();
    expect(fromDatetimeLocal('2026-03-10')).toBeNull();
  });
});

describe('formatDuration', () => {
  it('uses the largest sensible units', () => {
    expect(formatDuration(0)).toBe('0 min');
    expect(formatDuration(59)).toBe('59 min');
    expect(formatDuration(60)).toBe('1 h');
    expect(formatDuration(200)).toBe('3 h 20 min');
    expect(formatDuration(1440)).toBe('1 d');
    expect(formatDuration(1440 * 4 + 125)).toBe('4 d 2 h');
  });
});

describe('formatBytes', () => {
  it('shows bytes, then KB, MB, GB with one decimal under 100', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(4300)).toBe('4.2 KB');
    expect(formatBytes(150 * 1024)).toBe('150 KB');
    expect(formatBytes(13.5 * 1024 * 1024)).toBe('13.5 MB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3 GB');
  });
});
