import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gzipText, isCompressibleText, MAX_COMPRESS_BYTES, savesEnough } from './text-compression';

const rows = (n: number) => Array.from({ length: n }, (_, i) => `${i};2026-11-27T10:${String(i % 60).padStart(2, '0')}:00Z;GET /api/albums/${i % 91};200;${(i * 13) % 997}ms\n`).join('');

describe('isCompressibleText', () => {
  it('takes text by content and by name, nothing else', () => {
    for (const name of ['a.txt', 'b.CSV', 'c.tsv', 'd.json', 'e.gpx', 'f.kml', 'g.xml', 'h.md', 'server.log']) {
      expect(isCompressibleText(name, name.endsWith('ml') || name.endsWith('gpx') ? 'application/xml' : 'text/plain', 5000)).toBe(true);
    }
    // The content decides first: a ".txt" that is HTML, SVG or a photo is stored as it is.
    expect(isCompressibleText('page.txt', 'text/html', 5000)).toBe(false);
    expect(isCompressibleText('drawing.xml', 'image/svg+xml', 5000)).toBe(false);
    expect(isCompressibleText('photo.csv', 'image/jpeg', 5000)).toBe(false);
    // Text under other names is not on the list.
    expect(isCompressibleText('script.js', 'text/plain', 5000)).toBe(false);
    expect(isCompressibleText('README', 'text/plain', 5000)).toBe(false);
    expect(isCompressibleText('huge.log', 'text/plain', MAX_COMPRESS_BYTES + 1)).toBe(false);
  });

  it('counts a saving of at least 10 %', () => {
    expect(savesEnough(1000, 900)).toBe(true);
    expect(savesEnough(1000, 901)).toBe(false);
  });
});

describe('gzipText', () => {
  it('makes a gzip file that inflates to the very bytes, across many pieces', async () => {
    const text = rows(60_000); // about 3.5 MB: several pieces
    const blob = new Blob([text]);
    const packed = await gzipText(blob);
    expect(packed).not.toBeNull();
    expect(packed!.size).toBeLessThan(blob.size / 4);
    expect(gunzipSync(new Uint8Array(await packed!.arrayBuffer())).toString()).toBe(text);
    // The same file gives the same bytes (a resumed upload could make them again).
    expect(Buffer.from(await (await gzipText(blob))!.arrayBuffer()).equals(Buffer.from(await packed!.arrayBuffer()))).toBe(true);
  });

  it('keeps small and incompressible files as they are', async () => {
    expect(await gzipText(new Blob(['a,b\n1,2\n']))).toBeNull();
    const noise = new Uint8Array(6 * 1024 * 1024);
    for (let i = 0; i < noise.length; i += 65_536) crypto.getRandomValues(noise.subarray(i, i + 65_536));
    expect(await gzipText(new Blob([noise]))).toBeNull();
  });

  it('stops when aborted', async () => {
    const ctrl = new AbortController();
    ctrl.abort();
    await expect(gzipText(new Blob([rows(100)]), { signal: ctrl.signal })).rejects.toThrow();
  });
});
