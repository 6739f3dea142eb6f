import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './scripts/chromium.mjs';

const port = Number(process.env.E2E_PORT ?? 4173);

export default defineConfig({
  testDir: 'tests/e2e',
  // Playwright empties its output folder on start: keep it apart from the other suites' reports.
  outputDir: 'test-results/e2e-artifacts',
  timeout: 90_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // A failure leaves, for every context the test had (the fixtures' and those it launched itself, such as
    // the installed app's profile on disk), its trace (actions, network, the DOM before and after each action)
    // and a screenshot of each page still open; a passing test leaves nothing.
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: chromiumPath(), args: chromiumArgs },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    // The production build, served as a static host would. `npm test` has built dist/ already (E2E_PREBUILT=1,
    // see scripts/test.mjs): it is served as it is.
    command: `${process.env.E2E_PREBUILT === '1' ? '' : 'npx vite build --logLevel warn && '}npx vite preview --host 127.0.0.1 --port ${port} --strictPort`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
  },
});
