import { describe, expect, it } from 'vitest';
import { fileCategory } from './file-category';

describe('fileCategory', () => {
  it('gives documents, sheets, slides, archives and PDFs their own icons', () => {
    expect(fileCategory('application/pdf')).toBe('pdf');
    expect(fileCategory('application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe('document');
    expect(fileCategory('application/vnd.oasis.opendocument.spreadsheet')).toBe('spreadsheet');
    expect(fileCategory('application/vnd.ms-powerpoint')).toBe('presentation');
    expect(fileCategory('application/zip')).toBe('archive');
    expect(fileCategory('application/x-7z-compressed')).toBe('archive');
  });

  it('tells photos the browser cannot show from other images, and SVG and HTML from pictures and text', () => {
    expect(fileCategory('image/heic')).toBe('raw-photo');
    expect(fileCategory('image/tiff')).toBe('raw-photo');
    expect(fileCategory('image/x-canon-cr2')).toBe('raw-photo');
    expect(fileCategory('image/x-icon')).toBe('image');
    expect(fileCategory('image/svg+xml')).toBe('vector');
    expect(fileCategory('text/html')).toBe('web-page');
  });

  it('falls back on the type family, then on a generic icon', () => {
    expect(fileCategory('audio/mpeg')).toBe('audio');
    expect(fileCategory('video/x-msvideo')).toBe('video');
    expect(fileCategory('text/plain; charset=utf-8')).toBe('text');
    expect(fileCategory('application/octet-stream')).toBe('other');
    expect(fileCategory('APPLICATION/PDF')).toBe('pdf');
  });
});
