import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { crc32 } from './location-patches';
import { readPhotoMetadata } from './photo-metadata';
import { inflateCapped, readXmpPacket } from './xmp-packet';

const dir = mkdtempSync(join(tmpdir(), 'shoebox-xmp-in-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const source = (name: string) => new URL(`../../tests/fixtures/location/${name}`, import.meta.url).pathname;
const bytesOf = (path: string) => new Uint8Array(readFileSync(path));

const PACKET =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
  '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="5">' +
  '<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Harbour at dusk</rdf:li></rdf:Alt></dc:title>' +
  '<dc:subject><rdf:Bag><rdf:li>sea</rdf:li><rdf:li>boats</rdf:li></rdf:Bag></dc:subject></rdf:Description></rdf:RDF></x:xmpmeta>';

/** The PNG photograph with `chunk` (type, data) put before its first image data, each with its CRC. */
function pngWith(type: string, data: Uint8Array): Uint8Array {
  const png = bytesOf(source('chelsea.png'));
  const idat = Buffer.from(png).indexOf('IDAT') - 4;
  const body = new Uint8Array([...Buffer.from(type, 'latin1'), ...data]);
  const chunk = new Uint8Array(12 + data.length);
  const view = new DataView(chunk.buffer);
  view.setUint32(0, data.length);
  chunk.set(body, 4);
  view.setUint32(8 + data.length, crc32(body));
  return new Uint8Array([...png.subarray(0, idat), ...chunk, ...png.subarray(idat)]);
}
const latin1 = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));

describe('XMP packets in WebP, HEIF and PNG chunks', () => {
  it('reads the title, rating, keywords, creator and rights ExifTool wrote into a WebP and a HEIC', async () => {
    for (const name of ['coffee.webp', 'astronaut.heic']) {
      const path = join(dir, name);
      copyFileSync(source(name), path);
      execFileSync('exiftool', ['-q', '-overwrite_original', '-XMP-dc:Title=Harbour at dusk', '-XMP-xmp:Rating=5', '-XMP-dc:Subject=sea', '-XMP-dc:Subject=boats', '-XMP-dc:Creator=Ana Lima', '-XMP-dc:Rights=CC BY 4.0', path]);
      const { metadata } = await readPhotoMetadata(new Blob([bytesOf(path)]));
      expect(metadata, name).toMatchObject({ title: 'Harbour at dusk', rating: 5, keywords: ['sea', 'boats'], creator: 'Ana Lima', rights: 'CC BY 4.0' });
    }
  });

  it('inflates a PNG packet stored compressed, in iTXt or zTXt', async () => {
    const itxt = pngWith('iTXt', new Uint8Array([...latin1('XML:com.adobe.xmp\0\x01\x00\0\0'), ...deflateSync(PACKET)]));
    const ztxt = pngWith('zTXt', new Uint8Array([...latin1('XML:com.adobe.xmp\0\x00'), ...deflateSync(PACKET)]));
    for (const [what, png] of [['iTXt', itxt], ['zTXt', ztxt]] as const) {
      const { metadata } = await readPhotoMetadata(new Blob([png as Uint8Array<ArrayBuffer>]));
      expect(metadata, what).toMatchObject({ title: 'Harbour at dusk', rating: 5, keywords: ['sea', 'boats'] });
    }
  });

  it('gives up at once on a compressed packet that would inflate past 2 MiB, and reads nothing of it', async () => {
    // 64 KiB of zlib that inflates to 64 MiB (as far as deflate goes: a thousand to one).
    const bomb = deflateSync(Buffer.alloc(64 * 1024 * 1024, 0x20), { level: 9 });
    expect(bomb.length).toBeLessThan(100 * 1024);
    const png = new Blob([pngWith('zTXt', new Uint8Array([...latin1('XML:com.adobe.xmp\0\x00'), ...bomb])) as Uint8Array<ArrayBuffer>]);
    // About 10 ms on a quiet machine; the bound only tells "stopped early" from "inflated it all" (seconds).
    const t0 = performance.now();
    expect(await inflateCapped(bomb)).toBeNull();
    expect(await readXmpPacket(png)).toBeNull();
    expect(performance.now() - t0).toBeLessThan(1000);
    // Within the cap, the same inflation gives every byte.
    expect((await inflateCapped(deflateSync(Buffer.alloc(1024 * 1024, 0x20))))?.length).toBe(1024 * 1024);
  });

  it('reads nothing from broken or foreign files, without throwing', async () => {
    const png = pngWith('zTXt', new Uint8Array([...latin1('XML:com.adobe.xmp\0\x00'), 1, 2, 3, 4]));
    for (const bytes of [png, bytesOf(source('rocket.jpg')), new Uint8Array([0x52, 0x49, 0x46, 0x46, 0xff, 0xff, 0xff, 0x7f, 0x57, 0x45, 0x42, 0x50, 0x58, 0x4d, 0x50, 0x20]), new Uint8Array(0)]) {
      expect(await readXmpPacket(new Blob([bytes as Uint8Array<ArrayBuffer>]))).toBeNull();
    }
  });
});
