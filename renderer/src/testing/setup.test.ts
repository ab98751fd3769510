import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'testing' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [full] : [];
  });
}

// Test files share a module graph (isolate: false): a zustand store setup.ts does not reset would
// carry one file's state into the next, and fail a later file only in some orders.
it('setup.ts resets every zustand store of the UI', () => {
  const setup = readFileSync(path.join(src, 'testing/setup.ts'), 'utf8');
  const stores = sourceFiles(src).flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    if (!text.includes("from 'zustand'")) return [];
    return [...text.matchAll(/export const (use\w+) = create\b/g)].map((m) => m[1]);
  });
  expect(stores.length).toBeGreaterThan(0);
  expect(stores.filter((name) => !setup.includes(`reset(${name})`))).toEqual([]);
});
