import fs from 'node:fs';
import { defineConfig } from '@playwright/test';

/**
 * The system's Chromium, never a downloaded one: DESK_CHROMIUM, else Debian's headless shell
 * (`chromium-headless-shell`: Blink and V8 as the full browser has them, without its window layers;
 * the browser tests used about a fifth less CPU in it than in the full `chromium`), else the full one.
 */
const CHROMIUM = process.env.DESK_CHROMIUM ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => fs.existsSync(file)) ?? '/usr/bin/chromium';

/** Browser tests drive the real UI served by a real headless desk, in the system Chromium. */
export default defineConfig({
  testDir: 'e2e',
  // Builds what is stale (the specs run the built desk and UI): nothing when npm test just did.
  globalSetup: './e2e/global-setup.ts',
  timeout: 60_000,
  workers: 2,
  reporter: [['list']],
  use: {
    headless: true,
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
    },
  },
});
