#!/usr/bin/env node
/**
 * `npm test`: the whole suite, what CI runs. The steps and their order:
 * 1. ESLint starts at once (it reads no generated file: they are ignored, and no rule needs types),
 *    beside gen if stale (the routes and API types the build and dependency-cruiser read);
 * 2. then the UI/desk build if stale and dependency-cruiser beside ESLint's rest: none reads what
 *    another writes, and each is mostly one thread, so on two cores they take about the longest's
 *    time instead of the sum (each one's output is shown when it ends, not interleaved);
 * 3. Vitest (unit and API) once the build is done, beside what is left of ESLint and
 *    dependency-cruiser (stopped if one of them fails); 4. Playwright (the built UI and desk in Chromium).
 * Vitest and Playwright run one after the other: side by side on two cores, lint took eight times as
 * long, Playwright half as long again, and the fuzz's tests ran past their timeouts.
 * Stops at the first step that fails; prints how long each took. Plain Node, no dependencies.
 */
import { spawn } from 'node:child_process';

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** The steps still running, each with how to stop it (see `run`). */
const running = new Map();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    // The steps' groups do not hear the terminal's Ctrl+C: pass the signal on, then leave.
    for (const stop of running.values()) stop(signal);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already ended
  }
}

/**
 * Runs a command; `buffered` keeps its output until it ends (for steps that run side by side).
 * Resolves with whether it passed. Each step runs in a process group of its own, so that `stop()`
 * ends it with everything it started (a SIGTERM to npx alone left Vitest and its workers running).
 */
function run(label, cmd, args, { buffered = false } = {}) {
  const t = Date.now();
  const detached = process.platform !== 'win32';
  const child = spawn(cmd, args, { stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit', detached });
  const stop = (signal = 'SIGTERM') => (detached ? killGroup(child, signal) : child.kill(signal));
  running.set(child, stop);
  const chunks = [];
  if (buffered) {
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
  }
  const done = new Promise((resolve) => {
    child.on('close', (code, signal) => {
      running.delete(child);
      if (buffered) process.stdout.write(Buffer.concat(chunks));
      const ok = code === 0;
      console.log(`[npm test] ${label}: ${ok ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds(t)}`);
      resolve(ok);
    });
  });
  return Object.assign(done, { stop: () => stop() });
}

async function main() {
  // `npm run lint` is the two commands one after the other; here each runs beside other work. ESLint
  // stays on one thread: beside the build the step is CPU-bound on two cores, and `--concurrency 2`
  // only added a sixth to its CPU time for the same wall time. gen alone left a core idle.
  const eslint = run('eslint', npx, ['eslint', '.'], { buffered: true });
  if (!(await run('gen', process.execPath, ['scripts/build-if-stale.mjs', '--gen-only']))) {
    await eslint;
    return false;
  }
  const lintDeps = run('lint:deps', npm, ['run', '--silent', 'lint:deps'], { buffered: true });
  if (!(await run('build', process.execPath, ['scripts/build-if-stale.mjs'], { buffered: true }))) {
    await Promise.all([eslint, lintDeps]);
    return false;
  }
  // Vitest reads gen's output only: it starts beside what is left of ESLint (the longest of the
  // three, whose last seconds ran on one core while the other idled), and stops if a lint fails.
  const vitest = run('vitest', npx, ['vitest', 'run']);
  const lints = await Promise.all([eslint, lintDeps]);
  if (lints.includes(false)) {
    vitest.stop();
    await vitest;
    return false;
  }
  if (!(await vitest)) return false;
  return run('playwright', npx, ['playwright', 'test']);
}

const ok = await main();
console.log(`[npm test] ${ok ? 'all passed' : 'failed'} in ${seconds(started)}`);
process.exit(ok ? 0 : 1);
