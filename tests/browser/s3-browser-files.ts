// The S3 files adapter as the app builds it in the browser, signing with the test user's keys where the app
// would use the user's session (test keys on a loopback gateway only), plus what the tests check it with.
import { ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3';
import { S3Files } from '../../src/backend/s3/s3-files';
import { SessionSigner } from '../../src/backend/s3/session-signer';

/** Settings a test hands to a page: where the gateway is, which bucket, and the test user's keys. */
export interface S3PageTarget {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}

export function pageFiles(t: S3PageTarget): S3Files {
  const signer = new SessionSigner({
    endpoint: t.endpoint,
    region: t.region,
    bucket: t.bucket,
    credentials: async () => ({ accessKeyId: t.accessKeyId, secretAccessKey: t.secretAccessKey }),
  });
  // Short waits: a loopback gateway answers at once, and a test must not sleep for minutes.
  return new S3Files({ signer, retry: { policy: { retries: 4, baseMs: 50, maxMs: 500 } } });
}

/** Deterministic bytes (xorshift32, one word per 4 bytes): a mismatch anywhere changes the digest. */
export function sampleBytes(size: number, seed: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  const words = new Uint32Array(out.buffer, 0, size >>> 2);
  let x = seed | 1;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    words[i] = x >>> 0;
  }
  for (let i = words.length * 4; i < size; i++) out[i] = (seed + i) & 255;
  return out;
}

export async function sha256Hex(bytes: ArrayBuffer | Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A fresh key shaped like the app's (`albums/{album}/{item}/original`). */
export function freshKey(): string {
  return `albums/${crypto.randomUUID()}/${crypto.randomUUID()}/original`;
}

/** Upload ids of the multipart uploads the bucket still holds under `prefix`, asked with the SDK from the page. */
export async function unfinishedUploads(t: S3PageTarget, prefix: string): Promise<string[]> {
  const client = new S3Client({
    endpoint: t.endpoint,
    region: t.region,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    credentials: { accessKeyId: t.accessKeyId, secretAccessKey: t.secretAccessKey },
  });
  try {
    const res = await client.send(new ListMultipartUploadsCommand({ Bucket: t.bucket, Prefix: prefix }));
    return (res.Uploads ?? []).map((u) => u.UploadId ?? '');
  } finally {
    client.destroy();
  }
}
