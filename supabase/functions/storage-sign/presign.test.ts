/**
 * The presigned URLs address every operation exactly as the AWS SDK's getSignedUrl does, for the kinds of
 * endpoint the product supports (see [Note: Presigning without the command stack]): same method, host,
 * path, query and signed headers. The only difference allowed is the SDK's informational `x-id` parameter,
 * and so the signature over it.
 */
import assert from 'node:assert/strict';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Settings } from '../_shared/s3-target.ts';
import { test } from '../_shared/test-world.ts';
import { createPresigner, type Overrides } from './presign.ts';
import type { SignRequest } from './sign-request.ts';

const keys = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const endpoints: (Omit<S3Settings, 'accessKeyId' | 'secretAccessKey'> & { name: string })[] = [
  { name: 'Ceph RGW / MinIO, path style', endpoint: 'http://127.0.0.1:7490', region: 'us-east-1', bucket: 'shoebox-test', forcePathStyle: true },
  { name: 'Cloudflare R2, virtual host', endpoint: 'https://0123456789abcdef.r2.cloudflarestorage.com', region: 'auto', bucket: 'photos', forcePathStyle: false },
  { name: 'Backblaze B2', endpoint: 'https://s3.us-west-004.backblazeb2.com', region: 'us-west-004', bucket: 'shoebox-b2', forcePathStyle: false },
  { name: 'Supabase Storage (path prefix)', endpoint: 'https://abcdefghij.storage.supabase.co/storage/v1/s3', region: 'eu-central-1', bucket: 'shoebox', forcePathStyle: true },
  { name: 'AWS S3, regional', region: 'eu-west-1', bucket: 'my-photos', forcePathStyle: false },
  { name: 'AWS S3, path style', region: 'ap-southeast-2', bucket: 'my-photos', forcePathStyle: true },
  { name: 'AWS S3, us-east-1', region: 'us-east-1', bucket: 'family-albums', forcePathStyle: false },
  { name: 'AWS S3, a bucket name with dots', region: 'eu-west-1', bucket: 'photos.example.org', forcePathStyle: false },
];

const k = 'albums/0b6b9a52-3f0e-4a8e-9a51-6f1f3c2d9e10/7d3f2c1b-5a4e-4f6d-8c9b-0a1b2c3d4e5f/original';
type Opts = Parameters<typeof getSignedUrl>[2];
// The MD5 of no bytes, as Content-MD5 carries it.
const md5 = '1B2M2Y8AsgTpgAmY7PhCfg==';
type Sdk = (c: S3Client, b: string, o: Opts) => Promise<string>;
const cases: [SignRequest, Overrides, Sdk, string][] = [
  [{ op: 'put', key: k, contentType: 'image/jpeg', contentDisposition: "attachment; filename*=UTF-8''a%20b.jpg" }, {},
    (c, b, o) => getSignedUrl(c, new PutObjectCommand({ Bucket: b, Key: k, ContentType: 'image/jpeg', ContentDisposition: "attachment; filename*=UTF-8''a%20b.jpg" }), o), 'PUT'],
  [{ op: 'create', key: k, contentType: 'image/svg+xml' }, { contentType: 'application/octet-stream', contentDisposition: 'attachment' },
    (c, b, o) => getSignedUrl(c, new CreateMultipartUploadCommand({ Bucket: b, Key: k, ContentType: 'application/octet-stream', ContentDisposition: 'attachment' }), o), 'POST'],
  [{ op: 'part', key: k, uploadId: '2~abc/def+ghi=', partNumber: 17 }, {},
    (c, b, o) => getSignedUrl(c, new UploadPartCommand({ Bucket: b, Key: k, UploadId: '2~abc/def+ghi=', PartNumber: 17 }), o), 'PUT'],
  [{ op: 'put', key: k, contentType: 'image/webp', contentMd5: md5 }, {},
    (c, b, o) => getSignedUrl(c, new PutObjectCommand({ Bucket: b, Key: k, ContentType: 'image/webp', ContentMD5: md5 }), o), 'PUT'],
  [{ op: 'part', key: k, uploadId: 'u-2', partNumber: 3, contentMd5: md5 }, {},
    (c, b, o) => getSignedUrl(c, new UploadPartCommand({ Bucket: b, Key: k, UploadId: 'u-2', PartNumber: 3, ContentMD5: md5 }), o), 'PUT'],
  [{ op: 'complete', key: k, uploadId: 'u-1' }, {}, (c, b, o) => getSignedUrl(c, new CompleteMultipartUploadCommand({ Bucket: b, Key: k, UploadId: 'u-1' }), o), 'POST'],
  [{ op: 'abort', key: k, uploadId: 'u-1' }, {}, (c, b, o) => getSignedUrl(c, new AbortMultipartUploadCommand({ Bucket: b, Key: k, UploadId: 'u-1' }), o), 'DELETE'],
  [{ op: 'list-parts', key: k, uploadId: 'u-1', partNumberMarker: 3 }, {},
    (c, b, o) => getSignedUrl(c, new ListPartsCommand({ Bucket: b, Key: k, UploadId: 'u-1', PartNumberMarker: '3' }), o), 'GET'],
  [{ op: 'list-uploads', key: k }, {}, (c, b, o) => getSignedUrl(c, new ListMultipartUploadsCommand({ Bucket: b, Prefix: k }), o), 'GET'],
  [{ op: 'head', key: k }, {}, (c, b, o) => getSignedUrl(c, new HeadObjectCommand({ Bucket: b, Key: k }), o), 'HEAD'],
  [{ op: 'get', key: k, downloadAs: 'x' }, { responseDisposition: "attachment; filename*=UTF-8''%C3%89t%C3%A9 (1).jpg", responseType: 'application/octet-stream' },
    (c, b, o) => getSignedUrl(c, new GetObjectCommand({ Bucket: b, Key: k, ResponseContentDisposition: "attachment; filename*=UTF-8''%C3%89t%C3%A9 (1).jpg", ResponseContentType: 'application/octet-stream' }), o), 'GET'],
  [{ op: 'delete', key: k }, {}, (c, b, o) => getSignedUrl(c, new DeleteObjectCommand({ Bucket: b, Key: k }), o), 'DELETE'],
];

const params = (url: URL) => Object.fromEntries([...url.searchParams].filter(([name]) => name !== 'x-id' && name !== 'X-Amz-Signature').sort());

for (const settings of endpoints) {
  test(`presigned URLs match the SDK's: ${settings.name}`, async () => {
    const presign = createPresigner({ ...settings, ...keys });
    const client = new S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
      credentials: keys,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    const signingDate = new Date('2026-11-21T10:00:00Z');
    for (const [req, overrides, command, method] of cases) {
      const ours = await presign(req, overrides, 900, signingDate);
      // Uploads carry a Content-Type, and bodies a Content-MD5, that must be signed (a part has no type).
      const signable = req.op === 'put' || req.op === 'create' ? ['content-type', 'content-md5'] : req.op === 'part' ? ['content-md5'] : [];
      const typed = signable.length ? { signableHeaders: new Set(signable) } : {};
      const sdk = new URL(await command(client, settings.bucket, { expiresIn: 900, signingDate, ...typed }));
      const url = new URL(ours.url);
      assert.equal(ours.method, method, req.op);
      assert.equal(url.origin, sdk.origin, req.op);
      assert.equal(url.pathname, sdk.pathname, req.op);
      assert.deepEqual(params(url), params(sdk), req.op);
      assert.match(url.searchParams.get('X-Amz-Signature') ?? '', /^[0-9a-f]{64}$/);
      // Every signed header but host is handed to the client.
      const signedHeaders = url.searchParams.get('X-Amz-SignedHeaders')!.split(';').filter((h) => h !== 'host');
      assert.deepEqual(signedHeaders, Object.keys(ours.headers).sort(), req.op);
    }
  });
}
