import os from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  test: {
    // Vitest's default is one fewer than the cores: a single worker on a 2-core machine, so every
    // file ran one after another. Most files wait on the disk (every commit syncs the WAL) and on
    // desks starting and stopping, so two workers overlap that waiting.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'db/**/*.test.ts', 'main/**/*.test.ts', 'scripts/**/*.test.ts'],
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
          setupFiles: ['renderer/src/testing/setup.ts'],
        },
      },
    ],
  },
});
