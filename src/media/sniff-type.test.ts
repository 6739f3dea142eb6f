import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sniffType } from './sniff-type';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../tests/fixtures/${name}`, import.meta.url)));
const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p)));
/** A Blob has no name: nothing but the bytes can be consulted. */
const sniff = (data: Uint8Array) => sniffType(new Blob([data as BlobPart]));

/** An ISO-BMFF file (MP4, MOV, HEIC, AVIF) starts with an `ftyp` box naming its brand. */
const ftyp = (brand: string, compatible: string[]) => {
  const body = bytes(brand, [0, 0, 0, 0], compatible.join(''));
  return bytes([0, 0, 0, 8 + body.length], 'ftyp', [...body], new Array(32).fill(0));
};

describe('sniffType', () => {
  it('recognises the images a browser decodes as decodable images', async () => {
    expect(await sniff(fixture('orientation-1.jpg'))).toEqual({ mime: 'image/jpeg', kind: 'image', decodable: true });
    expect(await sniff(fixture('transparent.png'))).toEqual({ mime: 'image/png', kind: 'image', decodable: true });
    expect(await sniff(bytes('GIF89a', [1, 0, 1, 0, 0, 0, 0]))).toEqual({ mime: 'image/gif', kind: 'image', decodable: true });
    expect(await sniff(bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 ', new Array(24).fill(0)))).toMatchObject({ mime: 'image/webp', kind: 'image' });
    expect(await sniff(bytes('BM', new Array(60).fill(0)))).toMatchObject({ mime: 'image/bmp', kind: 'image', decodable: true });
    expect(await sniff(ftyp('avif', ['mif1', 'miaf']))).toEqual({ mime: 'image/avif', kind: 'image', decodable: true });
    for (const [name, mime] of [['small.webp', 'image/webp'], ['small.avif', 'image/avif'], ['small.gif', 'image/gif']]) {
      expect(await sniff(fixture(name!))).toEqual({ mime, kind: 'image', decodable: true });
    }
  });

  it('takes HEIC, TIFF and camera RAW as pictures (the media worker decodes them or their previews)', async () => {
    expect(await sniff(ftyp('heic', ['mif1', 'heic']))).toEqual({ mime: 'image/heic', kind: 'image', decodable: true });
    expect(await sniff(bytes('II', [42, 0, 8, 0, 0, 0], new Array(64).fill(0)))).toEqual({ mime: 'image/tiff', kind: 'image', decodable: true });
    // Canon CR2: a little-endian TIFF whose header carries "CR" at byte 8.
    expect(await sniff(bytes('II', [42, 0, 16, 0, 0, 0], 'CR', [2, 0], new Array(64).fill(0)))).toEqual({
      mime: 'image/x-canon-cr2',
      kind: 'image',
      decodable: true,
    });
  });

  it('finds a TIFF whose directory lies past the first 16 KiB, as ImageMagick writes it, and an Olympus raw by its magic', async () => {
    // Header, 40 KiB of pixels, then the IFD: one entry (ImageWidth) and no next IFD.
    const ifd = [1, 0, 0, 1, 3, 0, 1, 0, 0, 0, 64, 0, 0, 0, 0, 0, 0, 0];
    expect(await sniff(bytes('II', [42, 0], [8, 160, 0, 0], new Array(40 * 1024).fill(7), ifd))).toEqual({ mime: 'image/tiff', kind: 'image', decodable: true });
    expect(await sniff(bytes('IIRO', [8, 0, 0, 0], new Array(64).fill(0)))).toEqual({ mime: 'image/x-olympus-orf', kind: 'image', decodable: true });
  });

  it('recognises videos by their container', async () => {
    expect(await sniff(fixture('clip-320x240.webm'))).toEqual({ mime: 'video/webm', kind: 'video', decodable: false });
    expect(await sniff(ftyp('isom', ['isom', 'iso2', 'avc1', 'mp41']))).toMatchObject({ mime: 'video/mp4', kind: 'video' });
    expect(await sniff(ftyp('qt  ', ['qt  ']))).toMatchObject({ mime: 'video/quicktime', kind: 'video' });
  });

  it('keeps SVG and HTML as files, never as images or pages', async () => {
    expect(await sniff(fixture('drawing.svg'))).toEqual({ mime: 'image/svg+xml', kind: 'file', decodable: false });
    expect(await sniff(bytes('  <svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toMatchObject({ mime: 'image/svg+xml', kind: 'file' });
    expect(await sniff(bytes([0xef, 0xbb, 0xbf], '<!-- hi --><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN"><svg/>'))).toMatchObject({
      mime: 'image/svg+xml',
    });
    expect(await sniff(bytes('<!DOCTYPE html>\n<html><body>hi</body></html>'))).toEqual({ mime: 'text/html', kind: 'file', decodable: false });
    expect(await sniff(bytes('\n<script>alert(1)</script>'))).toMatchObject({ mime: 'text/html', kind: 'file' });
    expect(await sniff(bytes('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"></html>'))).toMatchObject({ mime: 'text/html' });
  });

  it('tells other XML, plain text and unknown bytes apart', async () => {
    expect(await sniff(bytes('<?xml version="1.0"?><rss version="2.0"></rss>'))).toEqual({ mime: 'application/xml', kind: 'file', decodable: false });
    expect(await sniff(bytes('Shopping list:\n- bread\n- café crème\n'))).toEqual({ mime: 'text/plain', kind: 'file', decodable: false });
    expect(await sniff(bytes([0xff, 0xfe], [...'hello'].flatMap((c) => [c.charCodeAt(0), 0])))).toMatchObject({ mime: 'text/plain' });
    expect(await sniff(bytes([0x00, 0x01, 0x02, 0x9f, 0x10, 0x00, 0x7f, 0x80]))).toEqual({
      mime: 'application/octet-stream',
      kind: 'file',
      decodable: false,
    });
    expect(await sniff(new Uint8Array(0))).toMatchObject({ mime: 'application/octet-stream', kind: 'file' });
  });

  it('recognises other documents by content', async () => {
    expect(await sniff(fixture('tiny.pdf'))).toEqual({ mime: 'application/pdf', kind: 'file', decodable: false });
  });

  it('does not mistake a long text cut mid-character at the sample edge for binary', async () => {
    // "é" is two bytes in UTF-8; place one across the 16 KiB boundary.
    const text = 'a'.repeat(16 * 1024 - 1) + 'é' + 'tail';
    expect(await sniff(bytes(text))).toMatchObject({ mime: 'text/plain' });
  });

  it('reads only the first bytes of a large file', async () => {
    let read = 0;
    const jpeg = new Blob([fixture('orientation-1.jpg'), new Uint8Array(8 * 1024 * 1024)]);
    const spy = new Proxy(jpeg, {
      get(target, prop) {
        if (prop === 'slice') {
          return (start?: number, end?: number) => {
            const part = target.slice(start, end);
            read += part.size;
            return part;
          };
        }
        if (prop === 'arrayBuffer' || prop === 'stream' || prop === 'text' || prop === 'bytes') throw new Error('read the whole file');
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    expect(await sniffType(spy)).toMatchObject({ mime: 'image/jpeg', kind: 'image' });
    expect(read).toBeLessThanOrEqual(64 * 1024);
  });
});
