// The S3 test server's coordinates, as `npm test` passes them (scripts/s3-test-server.mjs prints them).
import { S3Client } from '@aws-sdk/client-s3';

export interface S3TestEnv {
  endpoint: string;
  region: string;
  bucket: string;
  bucketNoCors: string;
  bucketNoEtag: string;
  accessKeyId: string;
  secretAccessKey: string;
  quotaBucket: string;
  quotaAccessKeyId: string;
  quotaSecretAccessKey: string;
}

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

/** Reads S3_TEST_*; throws naming what is missing and how to get it. */
export function s3TestEnv(env: NodeJS.ProcessEnv = process.env): S3TestEnv {
  const missing = Object.values(NAMES).filter((name) => !env[name]);
  if (missing.length) {
    throw new Error(
      `The S3 test server's settings are missing (${missing.join(', ')}). Run the suite with \`node scripts/test.mjs s3\`, ` +
        'or start the server with `node scripts/s3-test-server.mjs` and export the lines it prints.',
    );
  }
  const entries = Object.entries(NAMES).map(([key, name]) => [key, env[name] as string]);
  return Object.fromEntries(entries) as unknown as S3TestEnv;
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
