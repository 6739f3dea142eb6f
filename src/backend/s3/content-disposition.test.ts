import { describe, expect, it } from 'vitest';
import { contentDisposition, servedAs, storedObject, storedOriginal } from './content-disposition';
import { SessionSigner } from './session-signer';

const original = 'albums/0b9c1f5e-54d4-4e61-9a5e-3f7c2a1d9e10/6d1f0c4a-8a1b-4c3e-9f2d-5e6a7b8c9d0e/original';
const thumb = original.replace(/original$/, 'thumb.webp');

describe('content disposition', () => {
  it("carries a non-ASCII name in filename* and a readable ASCII stand-in", () => {
    expect(contentDisposition('attachment', 'Été à Lisboa "1".jpg')).toBe(
      `attachment; filename="Ete a Lisboa _1_.jpg"; filename*=UTF-8''%C3%89t%C3%A9%20%C3%A0%20Lisboa%20%221%22.jpg`,
    );
  });

  it('is a bare disposition without a name', () => {
    expect(contentDisposition('inline', undefined)).toBe('inline');
  });
});

describe('the type an upload is stored with', () => {
  it('keeps a photo or a video as itself, shown inline', () => {
    expect(storedOriginal('image/jpeg', 'a.jpg')).toEqual({ contentType: 'image/jpeg', contentDisposition: `inline; filename="a.jpg"; filename*=UTF-8''a.jpg` });
    expect(storedObject(original, 'video/mp4', 'clip.mp4').contentType).toBe('video/mp4');
  });

  it.each([
    ['an SVG', 'image/svg+xml', 'logo.svg'],
    ['an HTML page', 'text/html', 'page.html'],
    ['an XHTML page', 'application/xhtml+xml', 'page.xhtml'],
    ['a PDF', 'application/pdf', 'report.pdf'],
    ['plain text', 'text/plain', 'notes.txt'],
    ['a type with a smuggled second type', 'image/png; x=1, text/html', 'x.png'],
    ['an upper-case image type', 'IMAGE/PNG', 'x.png'],
    ['no type at all', '', 'x'],
  ])('sends %s original as opaque bytes to download', (_, type, name) => {
    expect(storedObject(original, type, name)).toEqual({ contentType: 'application/octet-stream', contentDisposition: contentDisposition('attachment', name) });
  });

  it('stores previews and thumbnails only as WebP or JPEG, and refuses anything else before sending a byte', () => {
    expect(storedObject(thumb, 'image/webp', undefined)).toEqual({ contentType: 'image/webp', contentDisposition: 'inline' });
    expect(storedObject(thumb.replace('thumb', 'preview'), 'image/jpeg', undefined).contentType).toBe('image/jpeg');
    for (const type of ['text/html', 'image/svg+xml', 'image/png', 'image/webp; x=1, text/html', 'application/octet-stream', '']) {
      expect(() => storedObject(thumb, type, undefined), type).toThrow(expect.objectContaining({ code: 'upload/unsupported', retryable: false }));
    }
  });
});

describe('GET URLs signed in the browser', () => {
  it('name a safe type and the disposition, whatever the object was stored with', async () => {
    expect(servedAs(thumb, undefined)).toEqual({ responseType: 'image/webp', responseDisposition: 'inline' });
    expect(servedAs(original, undefined)).toEqual({ responseType: 'application/octet-stream', responseDisposition: 'attachment' });

    const signer = new SessionSigner({
      endpoint: 'https://storage.example.test/s3',
      region: 'eu-central-1',
      bucket: 'shoebox',
      credentials: async () => ({ accessKeyId: 'ref', secretAccessKey: 'anon' }),
    });
    const [get, named] = await signer.sign([{ op: 'get', key: original }, { op: 'get', key: thumb, downloadAs: 'Été.webp' }]);
    const q = (r: typeof get) => new URL((r as { url: string }).url).searchParams;
    expect(q(get).get('response-content-type')).toBe('application/octet-stream');
    expect(q(get).get('response-content-disposition')).toBe('attachment');
    expect(q(named).get('response-content-type')).toBe('image/webp');
    expect(q(named).get('response-content-disposition')).toBe(`attachment; filename="Ete.webp"; filename*=UTF-8''%C3%89t%C3%A9.webp`);
  });
});
