// The S3 test server's coordinates, as `npm test` passes them (scripts/s3-test-server.mjs prints them).
import { S3Client } from '@aws-sdk/client-s3';
import { readS3TestSettings, type S3TestEnv } from './s3-test-settings';

export type { S3TestEnv };

/** Reads S3_TEST_*; throws naming what is missing and how to get it. */
export function s3TestEnv(env: NodeJS.ProcessEnv = process.env): S3TestEnv {
  return readS3TestSettings(
    env,
    'Run the suite with `node scripts/test.mjs s3`, or start the server with `node scripts/s3-test-server.mjs` and export the lines it prints.',
  );
}

export interface TestS3ClientOptions {
  /** Another endpoint, e.g. a fault proxy in front of the server. */
  endpoint?: string;
  /** The quota user's keys instead of the main test user's. */
  quotaUser?: boolean;
  /** Overrides the keys (e.g. a wrong secret). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** SDK retries; 1 means no retry, so a test sees each failure. */
  maxAttempts?: number;
}

/** A client for assertions (HeadObject, GetObject, ListMultipartUploads…): path-style, checksums only when required. */
export function testS3Client(opts: TestS3ClientOptions = {}): S3Client {
  const env = s3TestEnv();
  return new S3Client({
    endpoint: opts.endpoint ?? env.endpoint,
    region: env.region,
    forcePathStyle: true,
    // S3-compatible servers may reject the CRC32 checksums newer SDKs send by default.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: opts.maxAttempts ?? 3,
    credentials: {
      accessKeyId: opts.accessKeyId ?? (opts.quotaUser ? env.quotaAccessKeyId : env.accessKeyId),
      secretAccessKey: opts.secretAccessKey ?? (opts.quotaUser ? env.quotaSecretAccessKey : env.secretAccessKey),
    },
  });
}
