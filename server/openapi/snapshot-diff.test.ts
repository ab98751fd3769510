import { describe, expect, it } from 'vitest';
import { jsonChanges } from './snapshot-diff';

describe('jsonChanges', () => {
  it('is empty for equal documents', () => {
    expect(jsonChanges({ a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] })).toEqual([]);
  });

  it('names added, removed and changed values by JSON Pointer', () => {
    const before = { paths: { '/api/v1/tasks': { get: { operationId: 'ListTasks' } } }, n: 1 };
    const after = { paths: { '/api/v1/tasks': { get: { operationId: 'GetTasks' }, post: {} } } };
    expect(jsonChanges(before, after)).toEqual([
      'removed /n: 1',
      'added   /paths/~1api~1v1~1tasks/post: {}',
      'changed /paths/~1api~1v1~1tasks/get/operationId: "ListTasks" -> "GetTasks"',
    ]);
  });

  it('reports keys that only moved', () => {
    expect(jsonChanges({ a: 1, b: 2 }, { b: 2, a: 1 })).toEqual(['order   /: keys ["a","b"] now ["b","a"]']);
  });

  it('reports arrays that changed length as a whole', () => {
    expect(jsonChanges({ e: ['x', 'y'] }, { e: ['x'] })).toEqual(['changed /e: 2 items, now 1: ["x","y"] -> ["x"]']);
  });

  it('stops at the limit', () => {
    const before = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, i]));
    expect(jsonChanges(before, {}, 3)).toHaveLength(3);
  });
});
