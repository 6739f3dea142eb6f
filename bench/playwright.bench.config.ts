import { defineConfig } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';

// The Playwright benchmarks (bench/*.bench.ts) on the production build, on a port of their own so they never
// meet an end-to-end run's server. bench/share-open-bench.mjs runs this.
const port = Number(process.env.E2E_PORT ?? 4190);

export default defineConfig({
  testDir: '.',
  testMatch: '*.bench.ts',
  outputDir: '../test-results/bench-artifacts',
  timeout: 30 * 60_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'off',
    launchOptions: { executablePath: chromiumPath(), args: chromiumArgs },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    // Always a fresh build: a benchmark measures the code as it is.
    command: `npx vite build --logLevel warn${process.env.IMPORT_BENCH_PROFILE ? ' --minify false' : ''} && npx vite preview --host 127.0.0.1 --port ${port} --strictPort`,
    url: `http://127.0.0.1:${port}`,
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    reuseExistingServer: false,
    timeout: 300_000,
  },
});
