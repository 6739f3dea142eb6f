// The S3 test server's coordinates inside the browser: vite.config.ts passes the S3_TEST_* variables
// (`npm test` exports them after starting scripts/s3-test-server.mjs) to the browser project with `provide`.
import { inject } from 'vitest';

declare module 'vitest' {
  interface ProvidedContext {
    /** The S3_TEST_* environment variables of the process that started Vitest. */
    s3Test: Record<string, string | undefined>;
  }
}

export interface S3BrowserEnv {
  endpoint: string;
  region: string;
  bucket: string;
  bucketNoCors: string;
  bucketNoEtag: string;
  accessKeyId: string;
  secretAccessKey: string;
}

const NAMES = {
  endpoint: 'S3_TEST_ENDPOINT',
  region: 'S3_TEST_REGION',
  bucket: 'S3_TEST_BUCKET',
  bucketNoCors: 'S3_TEST_BUCKET_NO_CORS',
  bucketNoEtag: 'S3_TEST_BUCKET_NO_ETAG',
  accessKeyId: 'S3_TEST_ACCESS_KEY_ID',
  secretAccessKey: 'S3_TEST_SECRET_ACCESS_KEY',
} as const satisfies Record<keyof S3BrowserEnv, string>;

/** Reads the provided S3_TEST_* settings; throws naming what is missing and how to get it. */
export function s3BrowserEnv(): S3BrowserEnv {
  const vars = inject('s3Test') ?? {};
  const missing = Object.values(NAMES).filter((name) => !vars[name]);
  if (missing.length) {
    throw new Error(
      `The S3 test server's settings are missing (${missing.join(', ')}). Run the browser suite with \`node scripts/test.mjs browser\`, ` +
        'or start the server with `node scripts/s3-test-server.mjs` and export the lines it prints before `npx vitest run --project browser`.',
    );
  }
  const entries = Object.entries(NAMES).map(([key, name]) => [key, vars[name] as string]);
  return Object.fromEntries(entries) as unknown as S3BrowserEnv;
}
