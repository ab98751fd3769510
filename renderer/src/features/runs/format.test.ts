import { describe, expect, it } from 'vitest';
import { formatMs, formatUsd, producedSummary, readSummary } from './format';

const none = { signalsRead: 0, tasksRead: 0, memoryRead: 0, notesRead: 0, tasksCreated: 0, tasksUpdated: 0, artifactsCreated: 0, memoryCreated: 0 };

describe('runs format', () => {
  it('shows fractions of a cent with two significant digits, cents as usual', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(0.12)).toBe('$0.12');
    expect(formatUsd(0.5)).toBe('$0.50');
    expect(formatUsd(0.000648)).toBe('$0.00065');
    expect(formatUsd(0.000045)).toBe('$0.000045');
    expect(formatUsd(0.0093)).toBe('$0.0093');
    expect(formatUsd(12.3456)).toBe('$12.35');
  });
  it('durations', () => {
    expect(formatMs(850)).toBe('850 ms');
    expect(formatMs(4200)).toBe('4.2 s');
    expect(formatMs(125_000)).toBe('2 min 5 s');
  });
  it('summaries leave out zeros', () => {
    expect(readSummary(none)).toBe('nothing');
    expect(producedSummary(none)).toBe('nothing new');
    expect(readSummary({ ...none, tasksRead: 2, notesRead: 1 })).toBe('2 tasks, 1 operator note');
    expect(producedSummary({ ...none, tasksUpdated: 1, memoryCreated: 2 })).toBe('1 task updated, 2 memory entries');
  });
});
