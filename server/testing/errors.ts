import { expect } from 'vitest';
import { DeskError } from '../core/errors';

/** Runs a rule that should refuse its input; returns the field the 422 names (undefined if it passed). */
export function invalidFieldOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(DeskError);
    expect((err as DeskError).status).toBe(422);
    return (err as DeskError).details?.[0]?.field;
  }
  return undefined;
}
