import { describe, expect, it } from 'vitest';
import { openApiDocument } from './document';
import { DOCUMENT_TAGS } from './tags';

/** Every operation's tag is declared with a description, and every declared tag groups operations (Spectral: operation-tag-defined). */
describe('the OpenAPI global tag list', () => {
  const doc = openApiDocument as unknown as { tags?: { name: string; description?: string }[]; paths: Record<string, Record<string, { tags?: string[] }>> };
  const used = new Set(Object.values(doc.paths).flatMap((ops) => Object.values(ops).flatMap((op) => op.tags ?? [])));

  it('declares every tag an operation uses, each with a description, once', () => {
    const declared = (doc.tags ?? []).map((t) => t.name);
    expect(new Set(declared).size).toBe(declared.length);
    expect([...used].filter((t) => !declared.includes(t))).toEqual([]);
    for (const t of doc.tags ?? []) expect(t.description?.length, t.name).toBeGreaterThan(20);
  });

  it('declares no tag that no operation uses', () => {
    expect(DOCUMENT_TAGS.map((t) => t.name).filter((t) => !used.has(t))).toEqual([]);
  });

  it('gives every operation a tag', () => {
    const untagged = Object.entries(doc.paths).flatMap(([p, ops]) => Object.entries(ops).filter(([, op]) => !op.tags?.length).map(([m]) => `${m.toUpperCase()} ${p}`));
    expect(untagged).toEqual([]);
  });
});
