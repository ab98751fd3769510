import os from 'node:os';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import react from '@vitejs/plugin-react';

/**
 * The slow lane: the files that take most of the suite's time, slowest first. `npm test` (and CI)
 * runs every file, these first so that no long file starts last and runs alone at the end;
 * `npm run test:fast` (`vitest run --mode fast`) runs every file but these. A new test file is in
 * the fast lane unless it is listed here.
 */
export const SLOW_TESTS = [
  'server/api/fuzz/fuzz-operations-1.api.test.ts', // half the operations of the OpenAPI document, fuzzed over the whole product
  'server/api/fuzz/fuzz-operations-2.api.test.ts', // the other half, on the other worker
  'server/api/fuzz/fuzz-sequences.api.test.ts', // sequences of writes with time passing and the jobs running
  'server/crash/crash-safety.test.ts', // the desk as its own process from source, SIGKILLed under a mixed load and restarted
  'server/domain/loop/cap-ceiling.simulation.test.ts', // 60 days of priced cycles, 12 a day
  'server/domain/loop/cycle-worker.test.ts', // worker threads started and stopped, each loading the cycle's modules from source
  'server/api/integrations/relay-burst.api.test.ts', // 5,200 relayed events
  'server/domain/cost-guard/simulation.test.ts', // weeks of cycles against the cost guard
  'server/mcp/mcp-stdio.api.test.ts', // spawns `npm run mcp` from source three times, once starting a desk in it
  'db/migrations/upgrade-fixtures/upgrades.test.ts', // a desk started on a database of every earlier schema version, with a cycle on each
  'server/api/exports/exports-caps.api.test.ts', // every export filled past its row cap
  'server/core/data-dir-lock.test.ts', // desks as processes from source racing for a stale lock, round after round
  'server/cli.test.ts', // the desk from source as its own process, its output closed, stopped by a signal
];

/**
 * SLOW_TESTS first, in their order; then the other server files, the renderer's last. A worker is
 * kept for the next file only when that file is of the same project: at each change of project
 * Vitest stops the worker and starts one that loads the modules again (slow files, renderer, then
 * the server's rest had every worker load the server twice). The renderer's short files end the run.
 */
class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const i = SLOW_TESTS.indexOf(path.relative(spec.project.config.root, spec.moduleId).split(path.sep).join('/'));
      if (i !== -1) return i;
      return spec.project.name === 'renderer' ? SLOW_TESTS.length + 1 : SLOW_TESTS.length;
    };
    // Array sort is stable: within a rank, files keep Vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig(({ mode }) => {
  const exclude = [...configDefaults.exclude, ...(mode === 'fast' ? SLOW_TESTS : [])];
  return {
    test: {
      // Vitest's default is one fewer than the cores: a single worker on a 2-core machine, so every
      // file ran one after another. Many files wait on desks starting and stopping, on worker threads
      // and on their sockets: one worker more than the cores overlaps that waiting (on 2 cores, 3
      // workers kept both busy: 1.9 cores of CPU over the run).
      maxWorkers: os.availableParallelism() + 1,
      sequence: { sequencer: SlowFirst },
      projects: [
        {
          test: {
            name: 'server',
            environment: 'node',
            include: ['server/**/*.test.ts', 'db/**/*.test.ts', 'main/**/*.test.ts', 'scripts/**/*.test.ts'],
            exclude,
            // better-sqlite3 is a native addon: forks, not threads.
            pool: 'forks',
            // Files share a fork's module cache (the server's imports load once per fork, not per file):
            // every file starts its own desks and clock, and no module keeps a test's state.
            isolate: false,
            testTimeout: 20_000,
            // Some files start two desks per test: on a busy machine that can pass vitest's 10 s default.
            hookTimeout: 20_000,
          },
        },
        {
          plugins: [react()],
          test: {
            name: 'renderer',
            environment: 'happy-dom',
            include: ['renderer/**/*.test.{ts,tsx}'],
            exclude,
            setupFiles: ['renderer/src/testing/setup.ts'],
            // Files share a worker's module graph (each file loading React, the router and the chart
            // library afresh cost more than its tests): testing/setup.ts puts the UI's module-level
            // state back around every test, so no store carries one file's state into the next.
            isolate: false,
            // A page test renders the whole route (router, queries, charts) several times: on a busy
            // 2-core machine one can pass vitest's 5 s default. Waits inside give up at 15 s (setup.ts).
            testTimeout: 20_000,
          },
        },
      ],
    },
  };
});
