import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../../testing/temp-dirs';
import { bundleFromSource, STALE_BUNDLE_MS } from './cycle-worker-source';

const tempDir = tempDirs('desk-worker-source-');

/** A small entry with an import, so the bundle is a real one. */
function entry(dir: string, text: string): string {
  fs.writeFileSync(path.join(dir, 'dep.ts'), `export const text: string = ${JSON.stringify(text)};\n`);
  fs.writeFileSync(path.join(dir, 'entry.ts'), "import { text } from './dep';\nconsole.log(text);\n");
  return path.join(dir, 'entry.ts');
}

const ageOf = (file: string, ms: number) => {
  const at = new Date(Date.now() - ms);
  fs.utimesSync(file, at, at);
};

describe('the cycle worker bundled from source', () => {
  it('is one file named by its content, with its imports inside; other code makes another', () => {
    const cache = path.join(tempDir(), 'cache');
    const source = entry(tempDir(), 'hello from the bundle');
    const file = bundleFromSource(source, cache);
    expect(path.basename(file)).toMatch(/^cycle-worker-[0-9a-f]{16}\.mjs$/);
    expect(fs.readFileSync(file, 'utf8')).toContain('hello from the bundle');
    expect(bundleFromSource(source, cache)).toBe(file);
    expect(bundleFromSource(entry(tempDir(), 'other code'), cache)).not.toBe(file);
    expect(fs.readdirSync(cache)).toHaveLength(2);
  });

  it('is written again when the file is gone (another process pruned it), and marked used when it is there', () => {
    const cache = path.join(tempDir(), 'cache');
    const source = entry(tempDir(), 'kept');
    const file = bundleFromSource(source, cache);
    fs.rmSync(file);
    expect(bundleFromSource(source, cache)).toBe(file);
    expect(fs.existsSync(file)).toBe(true);
    ageOf(file, STALE_BUNDLE_MS * 2);
    bundleFromSource(source, cache);
    expect(Date.now() - fs.statSync(file).mtimeMs).toBeLessThan(STALE_BUNDLE_MS);
  });

  it('removes bundles of other sources unused for a week when it writes a new one; keeps recent ones and other files', () => {
    const cache = path.join(tempDir(), 'cache');
    fs.mkdirSync(cache);
    const stale = path.join(cache, 'cycle-worker-00000000000000aa.mjs');
    const recent = path.join(cache, 'cycle-worker-00000000000000bb.mjs');
    const other = path.join(cache, 'something-else.json');
    for (const f of [stale, recent, other]) fs.writeFileSync(f, 'x');
    ageOf(stale, STALE_BUNDLE_MS + 60_000);
    ageOf(recent, STALE_BUNDLE_MS - 3_600_000);
    ageOf(other, STALE_BUNDLE_MS * 3);
    const file = bundleFromSource(entry(tempDir(), 'new code'), cache);
    expect(fs.readdirSync(cache).sort()).toEqual([path.basename(recent), path.basename(file), path.basename(other)].sort());
  });
});
