import type { Tone } from '../../components/Badge';
import { plural } from '../../lib/format';
import type { Schema } from '../../api/client';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const count = new Intl.NumberFormat('en-US');

/** "$0.12"; an amount under a cent but above zero with two significant digits, "$0.0012", "$0.000045" (a cycle often costs fractions of a cent). */
export function formatUsd(amount: number): string {
  if (amount > 0 && amount < 0.01) return `$${Number(amount.toPrecision(2)).toFixed(Math.min(8, 1 - Math.floor(Math.log10(amount))))}`;
  return usd.format(amount);
}

export const formatCount = (n: number): string => count.format(n);

/** "850 ms", "4.2 s", "2 min 5 s". */
export function formatMs(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

type RunStatus = Schema<'RunStatus'>;
export const runStatusTone = (s: RunStatus): Tone => ({ running: 'info', completed: 'success', failed: 'danger', skipped: 'warning' })[s] as Tone;

/** A run's status in words: a cancelled cycle (status `failed`, cancelledAt set) reads "cancelled". */
export const runStatusLabel = (run: Pick<Schema<'Run'>, 'status' | 'cancelledAt'>): string => (run.cancelledAt !== null ? 'cancelled' : run.status);

/** Why a due cycle did not run, in words. */
export const skipReasonText = (reason: string): string =>
  reason === 'cost_cap_reached'
    ? "Today's spend reached the daily cost cap, so this cycle did not run."
    : reason === 'cost_cap_insufficient'
      ? "Not even the smallest cycle fits in what is left of today's cost cap, so this cycle did not run."
      : reason;

/** "2 tasks, 1 output" from a cycle's counts; "nothing new" when it produced nothing. */
export function producedSummary(c: Schema<'RunCounts'>): string {
  const parts = [
    c.tasksCreated ? plural(c.tasksCreated, 'new task') : '',
    c.tasksUpdated ? plural(c.tasksUpdated, 'task updated', 'tasks updated') : '',
    c.artifactsCreated ? plural(c.artifactsCreated, 'output') : '',
    c.memoryCreated ? plural(c.memoryCreated, 'memory entry', 'memory entries') : '',
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'nothing new';
}

/** "1 signal, 2 memory entries" from a cycle's counts; "nothing" when it read nothing. */
export function readSummary(c: Schema<'RunCounts'>): string {
  const parts = [
    c.signalsRead ? plural(c.signalsRead, 'signal') : '',
    c.tasksRead ? plural(c.tasksRead, 'task') : '',
    c.memoryRead ? plural(c.memoryRead, 'memory entry', 'memory entries') : '',
    c.notesRead ? plural(c.notesRead, 'operator note') : '',
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'nothing';
}
