// The S3 test server's coordinates as S3_TEST_* variables (scripts/s3-test-server.mjs prints them), read
// the same way by the Node suite (from process.env) and the browser suite (from what Vitest provides).
import type { S3TestServer } from '../../scripts/s3-test-server.mjs';

export type S3TestEnv = S3TestServer;

const NAMES = {
  endpoint: 'S3_TEST_ENDPOINT',
  region: 'S3_TEST_REGION',
  bucket: 'S3_TEST_BUCKET',
  bucketNoCors: 'S3_TEST_BUCKET_NO_CORS',
  bucketNoEtag: 'S3_TEST_BUCKET_NO_ETAG',
  accessKeyId: 'S3_TEST_ACCESS_KEY_ID',
  secretAccessKey: 'S3_TEST_SECRET_ACCESS_KEY',
  quotaBucket: 'S3_TEST_QUOTA_BUCKET',
  quotaAccessKeyId: 'S3_TEST_QUOTA_ACCESS_KEY_ID',
  quotaSecretAccessKey: 'S3_TEST_QUOTA_SECRET_ACCESS_KEY',
} as const satisfies Record<keyof S3TestEnv, string>;

/** Reads the settings from `vars`; throws naming what is missing, and `howToRun` to get it. */
export function readS3TestSettings(vars: Record<string, string | undefined>, howToRun: string): S3TestEnv {
  const missing = Object.values(NAMES).filter((name) => !vars[name]);
  if (missing.length) {
    throw new Error(`The S3 test server's settings are missing (${missing.join(', ')}). ${howToRun}`);
  }
  const entries = Object.entries(NAMES).map(([key, name]) => [key, vars[name] as string]);
  return Object.fromEntries(entries) as unknown as S3TestEnv;
}
