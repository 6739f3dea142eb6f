import { GetObjectCommand, PutObjectCommand, S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { servedAs } from './content-disposition';
import type { SignOp } from './s3-signer';
import { SessionSigner } from './session-signer';

// [Note: Presigning the busy requests directly]: the URLs built without the command stack are the ones the SDK's
// getSignedUrl makes for the same request, signature included, on a plain gateway and on an endpoint with a path
// (Supabase Storage's /storage/v1/s3), with a session token, for keys a path must escape.
const credentials = { accessKeyId: 'project-ref', secretAccessKey: 'anon-key', sessionToken: 'header.payload.signature' };
const endpoints = ['http://127.0.0.1:7480', 'https://abc.supabase.co/storage/v1/s3'];
const keys = ['albums/5f0c/9a1b/original', 'albums/5f0c/9a1b/thumb.webp', "odd/it's a (test)+*!/naïve 100%.jpg"];
const at = new Date('2026-11-28T21:04:05Z');

function query(url: string): { base: string; params: [string, string][] } {
  const u = new URL(url);
  return { base: `${u.origin}${u.pathname}`, params: [...u.searchParams.entries()].sort(([a], [b]) => a.localeCompare(b)) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('SessionSigner, path-style', () => {
  it.each(endpoints)('signs a PUT, a part and a GET exactly as getSignedUrl does, at %s', async (endpoint) => {
    vi.useFakeTimers({ now: at, toFake: ['Date'] });
    const signer = new SessionSigner({ endpoint, region: 'eu-west-2', bucket: 'photos', credentials: () => Promise.resolve(credentials) });
    const sdk = new S3Client({ endpoint, region: 'eu-west-2', forcePathStyle: true, credentials, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' });
    const o = { expiresIn: 3600, signingDate: at };
    const one = async (op: SignOp) => {
      const [r] = await signer.sign([op]);
      if (!r || 'error' in r) throw new Error(`not signed: ${JSON.stringify(r)}`);
      return r;
    };
    // Built here, not through the command stack (which getSignedUrl runs once per URL).
    const stack = vi.spyOn(PutObjectCommand.prototype, 'resolveMiddleware');
    await one({ op: 'put', key: keys[0]!, contentType: 'image/jpeg' });
    expect(stack).not.toHaveBeenCalled();
    stack.mockRestore();
    for (const Key of keys) {
      const put = { 'content-type': 'image/jpeg', 'content-disposition': 'attachment; filename="a.jpg"', 'content-md5': 'rL0Y20zC+Fzt72VPzMSk2A==' };
      const mine = await one({ op: 'put', key: Key, contentType: put['content-type'], contentDisposition: put['content-disposition'], contentMd5: put['content-md5'] });
      const theirs = await getSignedUrl(
        sdk,
        new PutObjectCommand({ Bucket: 'photos', Key, ContentType: put['content-type'], ContentDisposition: put['content-disposition'], ContentMD5: put['content-md5'] }),
        { ...o, signableHeaders: new Set(Object.keys(put)) },
      );
      expect(query(mine.url)).toEqual(query(theirs));
      expect(mine.headers).toEqual(put);

      const part = await one({ op: 'part', key: Key, uploadId: '2~abc/def+g', partNumber: 7 });
      expect(query(part.url)).toEqual(query(await getSignedUrl(sdk, new UploadPartCommand({ Bucket: 'photos', Key, UploadId: '2~abc/def+g', PartNumber: 7 }), o)));

      const get = await one({ op: 'get', key: Key, downloadAs: 'Día de campo.jpg' });
      const served = servedAs(Key, 'Día de campo.jpg');
      const sdkGet = new GetObjectCommand({ Bucket: 'photos', Key, ResponseContentType: served.responseType, ResponseContentDisposition: served.responseDisposition });
      expect(query(get.url)).toEqual(query(await getSignedUrl(sdk, sdkGet, o)));
      expect(get.method).toBe('GET');
    }
    sdk.destroy();
  });
});
