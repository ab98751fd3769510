import { describe, expect, it } from 'vitest';
import { invalidFieldOf } from '../../testing/errors';
import { checkCommentQuery, checkCommentText, checkSinceLookback, hueOf, initialsOf, mentionedMembers } from './comment-rules';

const members = [
  { id: 'u1', name: 'Ana' },
  { id: 'u2', name: 'Ana Lima' },
  { id: 'u3', name: 'José' },
];

describe('comment rules', () => {
  it('bounds text to 1-4000 characters after trimming', () => {
    expect(checkCommentText(' x ')).toBe('x');
    expect(checkCommentText('y'.repeat(4000))).toHaveLength(4000);
    expect(invalidFieldOf(() => checkCommentText('y'.repeat(4001)))).toBe('text');
    expect(invalidFieldOf(() => checkCommentText('  '))).toBe('text');
  });

  it('bounds q to 200 characters; blank means no search', () => {
    expect(checkCommentQuery('q'.repeat(200))).toHaveLength(200);
    expect(invalidFieldOf(() => checkCommentQuery('q'.repeat(201)))).toBe('q');
    expect(checkCommentQuery('   ')).toBeNull();
    expect(checkCommentQuery(undefined)).toBeNull();
  });

  it('lets since reach 365 days back, not 366', () => {
    const now = new Date('2026-03-10T12:00:00.000Z');
    expect(checkSinceLookback(new Date('2025-03-10T12:00:00.000Z'), now)).toBeInstanceOf(Date);
    expect(invalidFieldOf(() => checkSinceLookback(new Date('2025-03-10T11:59:59.999Z'), now))).toBe('since');
  });

  it('finds @name mentions: any case, longest name, word boundaries, not emails, once each', () => {
    expect(mentionedMembers('@ana lima look', members)).toEqual(['u2']);
    expect(mentionedMembers('@ANA, and @Ana again', members)).toEqual(['u1']);
    expect(mentionedMembers('@Anabel', members)).toEqual([]);
    expect(mentionedMembers('write to ana@example.com', members)).toEqual([]);
    expect(mentionedMembers('(@josé)', members)).toEqual(['u3']);
    expect(mentionedMembers('@@Ana', members)).toEqual([]);
  });

  it('derives initials and a stable hue', () => {
    expect(initialsOf('Ana Maria Lima')).toBe('AL');
    expect(initialsOf('bo')).toBe('B');
    expect(initialsOf('  ')).toBe('?');
    expect(hueOf('usr_x')).toBe(hueOf('usr_x'));
    expect(hueOf('usr_x')).toBeGreaterThanOrEqual(0);
    expect(hueOf('usr_x')).toBeLessThan(360);
    expect(new Set(['a', 'b', 'c', 'd', 'e'].map(hueOf)).size).toBeGreaterThan(1);
  });
});
