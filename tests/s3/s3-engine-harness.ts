// The S3 files adapter as the app builds it, pointed at the test gateway (or a fault proxy in front of it),
// signing with the test user's keys where the app would use the user's session.
import { createHash } from 'node:crypto';
import { GetObjectCommand, ListMultipartUploadsCommand } from '@aws-sdk/client-s3';
import { S3Files } from '../../src/backend/s3/s3-files';
import { SessionSigner } from '../../src/backend/s3/session-signer';
import type { RetryPolicy } from '../../src/lib/backoff';
import { s3TestEnv, testS3Client } from './s3-test-env';

export interface EngineOptions {
  endpoint?: string;
  bucket?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  retry?: RetryPolicy;
  expiresIn?: number;
  /** Send Content-MD5 (the adapter's default: yes). */
  contentMd5?: boolean;
}

export function testSigner(opts: EngineOptions = {}): SessionSigner {
  const env = s3TestEnv();
  return new SessionSigner({
    endpoint: opts.endpoint ?? env.endpoint,
    region: env.region,
    bucket: opts.bucket ?? env.bucket,
    credentials: async () => ({
      accessKeyId: opts.accessKeyId ?? env.accessKeyId,
      secretAccessKey: opts.secretAccessKey ?? env.secretAccessKey,
    }),
    ...(opts.expiresIn ? { expiresIn: opts.expiresIn } : {}),
  });
}

export function testFiles(opts: EngineOptions = {}): S3Files {
  return new S3Files({
    signer: testSigner(opts),
    // Short waits: the suite injects failures on purpose and must not sleep for minutes.
    retry: { policy: opts.retry ?? { retries: 8, baseMs: 20, maxMs: 300 } },
    ...(opts.contentMd5 === undefined ? {} : { contentMd5: opts.contentMd5 }),
  });
}

/** Deterministic bytes (xorshift): a mismatch anywhere changes the digest. */
export function sampleBytes(size: number, seed: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  let x = seed | 1;
  for (let i = 0; i < size; i += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 255;
    out[i + 1] = (x >>> 8) & 255;
    out[i + 2] = (x >>> 16) & 255;
    out[i + 3] = (x >>> 24) & 255;
  }
  return out;
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The SHA-256 and size of what the bucket holds under `key`, streamed (never the whole object in memory). */
export async function storedDigest(key: string, bucket = s3TestEnv().bucket): Promise<{ sha256: string; size: number }> {
  const res = await testS3Client().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of res.Body as AsyncIterable<Uint8Array>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest('hex'), size };
}

export async function unfinishedUploads(prefix: string, bucket = s3TestEnv().bucket): Promise<string[]> {
  const res = await testS3Client().send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix }));
  return (res.Uploads ?? []).map((u) => u.UploadId ?? '');
}

let counter = 0;
/** A fresh key shaped like the app's (`albums/{album}/{item}/original`). */
export function freshKey(name = 'original'): string {
  counter++;
  return `albums/00000000-0000-4000-8000-${String(Date.now() % 1e12).padStart(12, '0')}/${crypto.randomUUID()}-${counter}/${name}`;
}
