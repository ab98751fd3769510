import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../testing/database';
import { matchExpression, searchMemory } from './retrieval';

describe('memory retrieval', () => {
  const t = useTestDatabase();

  it('builds a match of the meaningful words only', () => {
    expect(matchExpression('The pricing of the new Plan, and 2026 pricing!')).toBe('"pricing" OR "plan"');
    expect(matchExpression('the and of')).toBeNull();
  });

  it('ranks by relevance, finds tags, and never returns archived entries', async () => {
    const { db } = t;
    const now = '2026-03-01T00:00:00.000Z';
    const add = (id: string, title: string, content: string, archivedAt: string | null = null) =>
      db.insertInto('memory').values({ id, kind: 'fact', title, content, importance: null, archivedAt, createdAt: now, updatedAt: now }).execute();
    await add('mem_a', 'Pricing page', 'Our pricing is per seat; pricing changes need approval.');
    await add('mem_b', 'Office hours', 'We mention pricing once.');
    await add('mem_c', 'Old pricing', 'pricing pricing pricing', now);
    await add('mem_d', 'Hiring', 'Nothing related.');
    await db.insertInto('memoryTags').values({ memoryId: 'mem_d', tag: 'competitors' }).execute();

    const found = await searchMemory(db, 'pricing update', 5);
    expect(found.map((m) => m.id)).toEqual(['mem_a', 'mem_b']);
    expect((await searchMemory(db, 'what about competitors', 5)).map((m) => ({ id: m.id, tags: m.tags }))).toEqual([{ id: 'mem_d', tags: ['competitors'] }]);
    expect(await searchMemory(db, 'the of', 5)).toEqual([]);
  });
});
