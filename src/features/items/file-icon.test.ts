import { describe, expect, it } from 'vitest';
import { fileIconFor } from './file-icon';

describe('fileIconFor', () => {
  it('picks an icon by sniffed type', () => {
    expect(fileIconFor({ kind: 'file', mime: 'application/pdf' })).toBe('text');
    expect(fileIconFor({ kind: 'file', mime: 'image/heic' })).toBe('image');
    expect(fileIconFor({ kind: 'file', mime: 'application/zip' })).toBe('archive');
    expect(fileIconFor({ kind: 'file', mime: 'audio/mpeg' })).toBe('music');
    expect(fileIconFor({ kind: 'video', mime: 'video/mp4' })).toBe('video');
    expect(fileIconFor({ kind: 'file', mime: 'text/html' })).toBe('file');
    expect(fileIconFor({ kind: 'file', mime: 'application/octet-stream' })).toBe('file');
  });
});
