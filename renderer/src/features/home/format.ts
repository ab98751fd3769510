import { plural } from '../../lib/format';
import { formatUsd } from '../runs/format';

/** "+2 vs yesterday", "−1 vs yesterday", "same as yesterday" (spend in USD). */
export function deltaText(delta: number, money = false): string {
  if (delta === 0) return 'same as yesterday';
  const sign = delta > 0 ? '+' : '−';
  const abs = Math.abs(delta);
  return `${sign}${money ? formatUsd(abs) : abs} vs yesterday`;
}

/** "7-day avg 0.6" (one decimal; whole numbers without one), or "7-day avg $0.03". */
export function baselineText(avg: number, money = false): string {
  if (money) return `7-day avg ${formatUsd(avg)}`;
  const shown = Number.isInteger(avg) ? String(avg) : avg.toFixed(1);
  return `7-day avg ${shown}`;
}

/** The tone of a day against its baseline: above, below or level (within 10%). */
export function trend(today: number, baseline: number): 'up' | 'down' | 'level' {
  if (baseline === 0) return today > 0 ? 'up' : 'level';
  const ratio = today / baseline;
  return ratio > 1.1 ? 'up' : ratio < 0.9 ? 'down' : 'level';
}

export const countLabel = (n: number, one: string, many?: string) => plural(n, one, many);
