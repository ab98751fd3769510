import { describe, expect, it } from 'vitest';
import { invalidFieldOf } from '../../testing/errors';
import { DeskError } from '../../core/errors';
import { parseKindFilter, parseTextFilter } from './activity-rules';

describe('activity list filters', () => {
  it('kind: a comma list of catalog kinds, blanks ignored, duplicates folded; empty means all', () => {
    expect(parseKindFilter(undefined)).toBeUndefined();
    expect(parseKindFilter(' , ,')).toBeUndefined();
    expect(parseKindFilter('workspace.plan, signal.created,workspace.plan')).toEqual(['workspace.plan', 'signal.created']);
  });

  it('kind: an unknown kind is a 422 naming kind, listing each unknown once and at most five', () => {
    expect(invalidFieldOf(() => parseKindFilter('workspace.plan,workspace.plna'))).toBe('kind');
    let message = '';
    try {
      parseKindFilter(`${'a,'.repeat(5000)}b,c,d,e,f,g`);
    } catch (err) {
      message = (err as DeskError).message;
    }
    expect(message).toMatch(/^kind has unknown kinds: a, b, c, d, e and 2 more \(/);
  });

  it('q: trimmed, blank means none, at most 200 characters', () => {
    expect(parseTextFilter('  plan ')).toBe('plan');
    expect(parseTextFilter('   ')).toBeUndefined();
    expect(parseTextFilter('x'.repeat(200))).toHaveLength(200);
    expect(invalidFieldOf(() => parseTextFilter('x'.repeat(201)))).toBe('q');
  });
});
