// End-to-end tests drive the browser host in Debian's Chromium (`apt-get install chromium`):
// Playwright's own browser builds are downloaded from outside, which the build machines cannot reach.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'dist/e2e-results',
  timeout: 60_000,
  workers: 1,
  forbidOnly: process.env.CI === 'true',
  reporter: 'list',
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
