import { resolve } from 'node:path';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { createRequire } from 'node:module';
import pkg from './package.json';

// Without the Electron binary (build machines), electron-vite cannot read Electron's version;
// take the major version from our declared range so main/ and preload/ still build.
if (!process.env.ELECTRON_MAJOR_VER) {
  try {
    createRequire(import.meta.url).resolve('electron/package.json');
  } catch {
    const range = (pkg.optionalDependencies as Record<string, string>).electron;
    process.env.ELECTRON_MAJOR_VER = /\d+/.exec(range)?.[0] ?? '38';
  }
}

// Root-level main/, preload/ and renderer/ need explicit inputs (electron-vite's defaults expect src/).
export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    build: {
      outDir: 'out/main',
      // desk-process is the utility process's entry (the server runs there, off the UI thread);
      // cycle-worker is the loop's worker thread, found beside the bundle that starts it
      // (server/domain/loop/cycle-worker-executor.ts looks for out/main/cycle-worker.js).
      // cli is `npm start` under plain Node (no TypeScript loader, esbuild or source maps in memory:
      // ~75 MiB less resident than tsx); desk-server exports startDesk from the same code, for the
      // bench's memory child (server/bench/full/serve-child.mjs) to measure the server as it ships.
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'main/index.ts'),
          'desk-process': resolve(__dirname, 'main/desk-process.ts'),
          'cycle-worker': resolve(__dirname, 'server/domain/loop/cycle-worker.ts'),
          cli: resolve(__dirname, 'server/cli.ts'),
          'desk-server': resolve(__dirname, 'server/start.ts'),
        },
      },
    },
  },
  preload: {
    plugins: [externalizeDepsPlugin()],
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(__dirname, 'preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    plugins: [react()],
    build: {
      minify: true,
      outDir: resolve(__dirname, 'out/renderer'),
      rollupOptions: {
        input: { index: resolve(__dirname, 'renderer/index.html') },
        // Rollup splits every module shared by two lazy pages into its own chunk: the boot fetched
        // ~20 files of 1-7 kB, each a request the page's main thread issues and finishes (npm run bench,
        // Chromium trace). Chunks under this size are merged into a chunk that loads with them.
        output: { experimentalMinChunkSize: 20_000 },
      },
    },
  },
});
