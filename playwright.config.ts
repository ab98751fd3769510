import { defineConfig } from '@playwright/test';

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
      executablePath: process.env.DESK_CHROMIUM ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
    },
  },
});
