import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { STEPS, check, decide, isBuildInput } from './build-if-stale.mjs';

/** `npm start` builds only when something changed: the staleness decision. */

const out = (p: string, mtimeMs: number | null) => ({ path: p, mtimeMs });
const src = (p: string, mtimeMs: number) => ({ path: p, mtimeMs });

describe('decide', () => {
  it('is up to date when every output exists and no input changed since the build started', () => {
    expect(decide([src('a.ts', 100), src('b.ts', 200)], [out('o.js', 300)], 250)).toEqual({ stale: false, reason: 'up to date' });
  });

  it('is stale when an output is missing, naming it', () => {
    expect(decide([src('a.ts', 100)], [out('o.js', 300), out('index.html', null)], 250)).toEqual({ stale: true, reason: 'index.html is missing' });
  });

  it('is stale when no build ever finished (outputs left by a failed build do not count)', () => {
    expect(decide([src('a.ts', 100)], [out('o.js', 300)], null)).toEqual({ stale: true, reason: 'no finished build on record' });
  });

  it('is stale when an input is newer than the start of the last build, naming the newest', () => {
    expect(decide([src('a.ts', 100), src('b.ts', 400), src('c.ts', 300)], [out('o.js', 500)], 250)).toEqual({ stale: true, reason: 'b.ts changed' });
  });

  it('a file edited while the build ran is newer than its stamp (the start time), even if older than the outputs', () => {
    expect(decide([src('a.ts', 260)], [out('o.js', 300)], 250).stale).toBe(true);
  });

  it('no inputs at all is up to date once built', () => {
    expect(decide([], [out('o.js', 1)], 1).stale).toBe(false);
  });
});

describe('inputs', () => {
  it('tests and stamps are not build inputs', () => {
    expect(isBuildInput('server/api/workspace/WorkspaceController.ts')).toBe(true);
    expect(isBuildInput('renderer/src/app/App.tsx')).toBe(true);
    expect(isBuildInput('server/app.test.ts')).toBe(false);
    expect(isBuildInput('renderer/src/x.test.tsx')).toBe(false);
    expect(isBuildInput('server/generated/.gen-stamp')).toBe(false);
  });

  it('builds what `npm start` runs and every server entry of the main bundle, so a missing one is built first', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const started = /node (out\/main\/\S+\.js)$/.exec(pkg.scripts.start)?.[1];
    expect(started).toBe('out/main/cli.js');
    const ui = STEPS.find((s) => s.name === 'ui')!;
    for (const entry of [started!, 'out/main/desk-process.js', 'out/main/cycle-worker.js', 'out/main/desk-server.js']) expect(ui.outputs).toContain(entry);
    const config = fs.readFileSync(path.join(import.meta.dirname, '..', 'electron.vite.config.ts'), 'utf8');
    for (const name of [' cli', "'desk-server'", "'cycle-worker'", "'desk-process'"]) expect(config).toContain(`${name}: resolve(`);
  });

  it('the UI step reads what gen writes, so a regenerated API rebuilds the UI', () => {
    const [gen, ui] = STEPS;
    for (const output of gen.outputs) expect(ui.inputs.some((i) => output === i || output.startsWith(`${i}/`)), output).toBe(true);
  });
});

describe('check (on real files)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('walks the input folders and compares them with the stamp', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-build-'));
    dirs.push(dir);
    const step = { name: 'ui' as const, what: 'ui', inputs: ['src', 'config.ts'], outputs: ['out/index.html'], stamp: 'out/.stamp' };
    const write = (rel: string, atSec: number) => {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), rel);
      fs.utimesSync(path.join(dir, rel), atSec, atSec);
    };
    write('src/deep/a.ts', 1000);
    write('config.ts', 1000);
    expect(check(step, dir)).toEqual({ stale: true, reason: 'out/index.html is missing' });
    write('out/index.html', 2000);
    write('out/.stamp', 1500);
    expect(check(step, dir).stale).toBe(false);
    write('src/deep/a.test.ts', 3000); // a test changed: nothing to build
    expect(check(step, dir).stale).toBe(false);
    write('src/deep/a.ts', 3000);
    expect(check(step, dir)).toEqual({ stale: true, reason: path.join('src', 'deep', 'a.ts') + ' changed' });
  });
});
