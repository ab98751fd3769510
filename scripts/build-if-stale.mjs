#!/usr/bin/env node
/**
 * `npm start` / `npm test`: build only what is stale, so a start with nothing changed is ready at once.
 *
 * Two steps, each with its inputs and outputs:
 * - gen: tsoa routes, the OpenAPI document and the UI's API types, from the controllers and the types
 *   they use (`npm run gen`);
 * - ui: electron-vite's build of main/, preload/ and renderer/ into out/ (main/ bundles the server:
 *   out/main/cli.js is what `npm start` runs under plain Node).
 * A step is stale when one of its outputs is missing, when it never finished (no stamp), or when an
 * input changed after the last build started. The stamp is written only after a build succeeds and
 * carries the build's start time, so a failed build, or a file edited while a build ran, builds again.
 *
 * `--force` builds both steps; `--gen-only` checks (and builds) only gen. Plain Node, no dependencies:
 * it runs before anything is built.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** @type {import('./build-if-stale.d.mts').Step[]} */
export const STEPS = [
  {
    name: 'gen',
    what: 'routes, OpenAPI document and API types',
    inputs: ['server/api', 'server/domain', 'server/core', 'server/openapi', 'db/schema.ts', 'tsoa.json', 'package-lock.json'],
    outputs: [
      'server/generated/routes.ts',
      'server/generated/openapi.json',
      'server/generated/openapi-types.ts',
      'renderer/src/api/schema.gen.ts',
      'renderer/src/api/rules.gen.ts',
    ],
    stamp: 'server/generated/.gen-stamp',
  },
  {
    name: 'ui',
    what: 'UI and desktop bundles in out/',
    // server/generated and schema.gen.ts are inputs here: a regenerated API rebuilds the bundles.
    inputs: ['renderer', 'main', 'preload', 'server', 'db', 'electron.vite.config.ts', 'package-lock.json'],
    // cli.js is what `npm start` runs; desk-server.js what the bench's memory child runs.
    outputs: ['out/main/index.js', 'out/main/desk-process.js', 'out/main/cycle-worker.js', 'out/main/cli.js', 'out/main/desk-server.js', 'out/preload/index.cjs', 'out/renderer/index.html'],
    stamp: 'out/.build-stamp',
  },
];

/** Tests and type-only helper files of other tools do not go into a build. */
export function isBuildInput(relPath) {
  return !/\.test\.[cm]?[jt]sx?$/.test(relPath) && !relPath.split(/[\\/]/).includes('node_modules') && !/(^|[\\/])\.gen-stamp$/.test(relPath);
}

/**
 * The staleness decision, pure: the newest input against the last finished build.
 * @param {{ path: string, mtimeMs: number }[]} inputs every input file
 * @param {{ path: string, mtimeMs: number | null }[]} outputs every output file (null: missing)
 * @param {number | null} stampMs when the last successful build started (null: none finished)
 * @returns {{ stale: boolean, reason: string }}
 */
export function decide(inputs, outputs, stampMs) {
  const missing = outputs.find((o) => o.mtimeMs === null);
  if (missing) return { stale: true, reason: `${missing.path} is missing` };
  if (stampMs === null) return { stale: true, reason: 'no finished build on record' };
  let newest = null;
  for (const input of inputs) if (newest === null || input.mtimeMs > newest.mtimeMs) newest = input;
  if (newest !== null && newest.mtimeMs > stampMs) return { stale: true, reason: `${newest.path} changed` };
  return { stale: false, reason: 'up to date' };
}

function mtimeOf(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return null;
  }
}

/** Every file under the given roots (files or folders), with its mtime. */
export function listInputs(baseDir, roots) {
  const found = [];
  const walk = (rel) => {
    let stat;
    try {
      stat = fs.statSync(path.join(baseDir, rel));
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(path.join(baseDir, rel))) {
        const child = path.join(rel, entry);
        if (isBuildInput(child)) walk(child);
      }
    } else if (isBuildInput(rel)) {
      found.push({ path: rel, mtimeMs: stat.mtimeMs });
    }
  };
  for (const r of roots) walk(r);
  return found;
}

export function check(step, baseDir = root) {
  const outputs = step.outputs.map((o) => ({ path: o, mtimeMs: mtimeOf(path.join(baseDir, o)) }));
  return decide(listInputs(baseDir, step.inputs), outputs, mtimeOf(path.join(baseDir, step.stamp)));
}

function run(command, args) {
  const res = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

function build(step) {
  const startedAt = new Date();
  if (step.name === 'gen') {
    run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', 'gen']);
  } else {
    const require = createRequire(path.join(root, 'package.json'));
    const pkgFile = require.resolve('electron-vite/package.json');
    const bin = JSON.parse(fs.readFileSync(pkgFile, 'utf8')).bin;
    run(process.execPath, [path.join(path.dirname(pkgFile), typeof bin === 'string' ? bin : bin['electron-vite']), 'build']);
  }
  const stamp = path.join(root, step.stamp);
  fs.mkdirSync(path.dirname(stamp), { recursive: true });
  fs.writeFileSync(stamp, `${startedAt.toISOString()}\n`);
  fs.utimesSync(stamp, startedAt, startedAt);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const force = process.argv.includes('--force');
  // `npm run test:fast`: the unit and API tests need the generated routes and types, not the bundles.
  const genOnly = process.argv.includes('--gen-only');
  const done = [];
  // In order: gen's outputs are inputs of the ui step, so it is checked after gen ran.
  for (const step of genOnly ? STEPS.filter((s) => s.name === 'gen') : STEPS) {
    const verdict = force ? { stale: true, reason: '--force' } : check(step);
    if (!verdict.stale) continue;
    console.log(`build: ${step.what} are stale (${verdict.reason}); building...`);
    build(step);
    done.push(step.what);
  }
  console.log(done.length === 0 ? 'build: up to date, nothing rebuilt' : `build: rebuilt ${done.join('; ')}`);
}
