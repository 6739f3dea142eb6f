import { describe, expect, it } from 'vitest';
import { contentDisposition, isActiveContent, storedOriginal } from './content-disposition';

describe('content disposition', () => {
  it("carries a non-ASCII name in filename* and a readable ASCII stand-in", () => {
    expect(contentDisposition('attachment', 'Été à Lisboa "1".jpg')).toBe(
      `attachment; filename="Ete a Lisboa _1_.jpg"; filename*=UTF-8''%C3%89t%C3%A9%20%C3%A0%20Lisboa%20%221%22.jpg`,
    );
  });

  it('is a bare disposition without a name', () => {
    expect(contentDisposition('inline', undefined)).toBe('inline');
  });

  it('stores SVG and HTML as opaque attachments and photos inline', () => {
    expect(isActiveContent('image/svg+xml')).toBe(true);
    expect(isActiveContent('text/html; charset=utf-8')).toBe(true);
    expect(storedOriginal('image/svg+xml', 'logo.svg')).toEqual({ contentType: 'application/octet-stream', contentDisposition: `attachment; filename="logo.svg"; filename*=UTF-8''logo.svg` });
    expect(storedOriginal('image/jpeg', 'a.jpg').contentDisposition.startsWith('inline;')).toBe(true);
    expect(storedOriginal('image/jpeg', 'a.jpg').contentType).toBe('image/jpeg');
  });
});
