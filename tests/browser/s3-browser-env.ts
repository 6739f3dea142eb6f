// The S3 test server's coordinates inside the browser: vite.config.ts passes the S3_TEST_* variables
// (`npm test` exports them after starting scripts/s3-test-server.mjs) to the browser project with `provide`.
import { inject } from 'vitest';
import { readS3TestSettings, type S3TestEnv } from '../s3/s3-test-settings';

declare module 'vitest' {
  interface ProvidedContext {
    /** The S3_TEST_* environment variables of the process that started Vitest. */
    s3Test: Record<string, string | undefined>;
  }
}

export type S3BrowserEnv = S3TestEnv;

/** Reads the provided S3_TEST_* settings; throws naming what is missing and how to get it. */
export function s3BrowserEnv(): S3BrowserEnv {
  return readS3TestSettings(
    inject('s3Test') ?? {},
    'Run the browser suite with `node scripts/test.mjs browser`, or start the server with `node scripts/s3-test-server.mjs` and export the lines it prints before `npx vitest run --project browser`.',
  );
}
