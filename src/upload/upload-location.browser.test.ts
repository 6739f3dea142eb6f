/**
 * Originals without location, through the real upload engine, media pipeline and local backend in Chromium:
 * what lands in the album is the camera's file with its place blanked (and the hash recorded is of those
 * bytes), unless the album keeps locations; the item says what was done; and a task stopped after its file
 * was read, then taken up again after a reload, still sends the blanked bytes.
 */
import exifr from 'exifr';
import { afterEach, describe, expect, it } from 'vitest';
import { hashFile } from '../media/media-client';
import { objectKeys } from '../backend/ports';
import { AppError } from '../lib/app-error';
import { allSettled, disposeEngines, gatedProcess, jpeg, newEngine, readyItems, sameBytes, setup, textFile, until } from '../testing/engine-test-kit';
import { resetLimits } from '../testing/limits';
import { transportStream } from '../testing/avchd-stream';
import { findLocationPatches } from '../media/location-patches';

afterEach(() => {
  disposeEngines();
  resetLimits();
});

/** A camera JPEG with a GPS position (near the Eiffel Tower) in its EXIF. */
async function cameraPhoto(name = 'IMG_0001.jpg'): Promise<File> {
  const res = await fetch('/tests/fixtures/orientation-1.jpg');
  return new File([await res.blob()], name, { type: 'image/jpeg', lastModified: 1_700_000_000_000 });
}

/** Where the JPEG's image data starts (its first SOS marker). */
function scanStart(bytes: Uint8Array): number {
  let at = 2;
  while (!(bytes[at] === 0xff && bytes[at + 1] === 0xda)) at += 2 + ((bytes[at + 2]! << 8) | bytes[at + 3]!);
  return at;
}

/**
 * A 3,000 × 2,000 photo whose XMP names its place in a way the remover cannot blank in place (the EXIF schema
 * as the default namespace): the remover cannot be sure, so the original must not go up.
 */
async function photoWithStubbornPlace(name: string): Promise<File> {
  const picture = new Uint8Array(await (await jpeg(name, 3000, 2000, 200)).arrayBuffer());
  const packet = new TextEncoder().encode(
    'http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
      '<rdf:Description xmlns="http://ns.adobe.com/exif/1.0/"><GPSLatitude>48,51.49N</GPSLatitude><GPSLongitude>2,17.67E</GPSLongitude></rdf:Description>' +
      '</rdf:RDF></x:xmpmeta>',
  );
  const app1 = new Uint8Array([0xff, 0xe1, (packet.length + 2) >> 8, (packet.length + 2) & 0xff]);
  return new File([picture.subarray(0, 2), app1, packet, picture.subarray(2)], name, { type: 'image/jpeg' });
}

describe('uploading into an album that removes location', () => {
  it('sends the photo without its place, the same picture byte for byte, hashed as sent, and says so on the item', async () => {
    const { n, backend, album } = await setup();
    expect(album.keepLocation).toBe(false);
    const photo = await cameraPhoto();
    expect(await exifr.gps(photo)).toMatchObject({ latitude: expect.closeTo(48.858, 2) });
    const engine = newEngine({ backend, dbName: n.queueDb });
    await engine.start();
    await engine.enqueue(album.id, [photo, textFile('notes.txt', 'Bring sunscreen.\n')]);
    await until(engine, allSettled);

    const [item] = (await readyItems(backend, album.id)).filter((i) => i.filename === 'IMG_0001.jpg');
    const original = await backend.files.read(item!.originalKey);
    expect(original.size).toBe(photo.size);
    expect(await exifr.gps(original)).toBeUndefined();
    const sent = new Uint8Array(await original.arrayBuffer());
    const source = new Uint8Array(await photo.arrayBuffer());
    const scan = scanStart(source);
    expect(scanStart(sent)).toBe(scan);
    expect(await sameBytes(new Blob([sent.subarray(scan)]), new Blob([source.subarray(scan)]))).toBe(true);
    expect(item!.sha256).toBe(await hashFile(original));
    expect(item!.sha256).not.toBe(await hashFile(photo));
    expect(item!.metadata).toMatchObject({ location: 'removed', cameraMake: expect.any(String) });
    // Previews and thumbnails are drawn anew: no metadata at all.
    for (const key of [item!.previewKey, item!.thumbKey]) {
      expect(await exifr.parse(await backend.files.read(key!), { gps: true, tiff: true, xmp: true }).catch(() => undefined)).toBeUndefined();
    }
    // A file that holds no place says nothing about it.
    const [notes] = (await readyItems(backend, album.id)).filter((i) => i.filename === 'notes.txt');
    expect(notes!.metadata.location).toBeUndefined();
  });

  it("sends a camcorder's AVCHD video without the GPS fix in its frames, the same length, and says so on the item", async () => {
    const { n, backend, album } = await setup();
    const video = new File([transportStream()], '00001.MTS', { type: 'video/mp2t' });
    const engine = newEngine({ backend, dbName: n.queueDb });
    await engine.start();
    await engine.enqueue(album.id, [video]);
    await until(engine, allSettled);

    const [item] = await readyItems(backend, album.id);
    expect(item).toMatchObject({ filename: '00001.MTS', kind: 'video' });
    expect(item!.metadata.location).toBe('removed');
    const original = await backend.files.read(item!.originalKey);
    expect(original.size).toBe(video.size);
    expect(item!.sha256).toBe(await hashFile(original));
    // Every frame's latitude (48/1, 51/1) was there, and none is left; nothing more to remove.
    const hex = (b: Blob) => b.arrayBuffer().then((a) => Array.from(new Uint8Array(a), (x) => x.toString(16).padStart(2, '0')).join(''));
    expect(await hex(video)).toContain('b200300001b300330001');
    expect(await hex(original)).not.toContain('b200300001b300330001');
    expect((await findLocationPatches(original)).outcome).toBe('none');
  });

  it('keeps the place when the owner chose to keep originals as they are', async () => {
    const { n, backend, album } = await setup();
    await backend.albums.updateAlbum(album.id, { keepLocation: true });
    const photo = await cameraPhoto();
    const engine = newEngine({ backend, dbName: n.queueDb });
    await engine.start();
    await engine.enqueue(album.id, [photo]);
    await until(engine, allSettled);
    const [item] = await readyItems(backend, album.id);
    const original = await backend.files.read(item!.originalKey);
    expect(await sameBytes(original, photo)).toBe(true);
    expect(await exifr.gps(original)).toMatchObject({ latitude: expect.closeTo(48.858, 2) });
    expect(item!.metadata.location).toBeUndefined();
  });

  it('after a reload, a task whose file was already read still sends it without its place', async () => {
    const { n, backend, album } = await setup();
    const gate = gatedProcess();
    const engine = newEngine({ backend, dbName: n.queueDb, process: gate.process });
    await engine.start();
    const photo = await cameraPhoto();
    await engine.enqueue(album.id, [photo]);
    // Read (type, location, hash stored), then held while processing: the tab goes away.
    await until(engine, (s) => s.tasks[0]?.state === 'processing');
    engine.dispose();

    const again = newEngine({ backend, dbName: n.queueDb });
    await again.start();
    await until(again, allSettled);
    const [item] = await readyItems(backend, album.id);
    const original = await backend.files.read(item!.originalKey);
    expect(await exifr.gps(original)).toBeUndefined();
    expect(item!.sha256).toBe(await hashFile(original));
    expect(item!.metadata.location).toBe('removed');
  });

  it('stops an original whose place cannot be removed, before anything is stored; the person can send its preview instead', async () => {
    const { n, backend, album } = await setup();
    const photo = await photoWithStubbornPlace('IMG_0002.JPG');
    const engine = newEngine({ backend, dbName: n.queueDb });
    await engine.start();
    // Two MPEG program streams: one of a pack and padding, where no place can be; one with a metadata stream
    // (0xFC), which may hold one, and has no poster a browser could draw.
    const mpeg = (...packet: number[]) => {
      const bytes = new Uint8Array(2048);
      bytes.set([0, 0, 1, 0xba, 0x44, 0, 4, 0, 4, 1, 1, 0x89, 0xc3, 0xf8, ...packet]);
      return bytes;
    };
    const clean = new File([mpeg(0, 0, 1, 0xbe, 0, 4, 0xff, 0xff, 0xff, 0xff)], 'camcorder.mpg', { type: 'video/mpeg' });
    const video = new File([mpeg(0, 0, 1, 0xfc, 0, 4, 0x33, 0x38, 0x2e, 0x37)], 'tagged.mpg', { type: 'video/mpeg' });
    await engine.enqueue(album.id, [photo, textFile('notes.txt', 'Bring sunscreen.\n'), clean, video]);
    const settled = await until(engine, allSettled);

    const stopped = settled.tasks.find((t) => t.filename === 'IMG_0002.JPG')!;
    expect(stopped.state).toBe('failed');
    expect(AppError.fromJSON(stopped.error!)).toMatchObject({ code: 'upload/unsupported', retryable: false, details: { reason: 'location' } });
    expect(stopped.locationChoice).toBe('preview-or-skip');
    // A video is held to the same rule: with no poster, it can only be skipped.
    const tagged = settled.tasks.find((t) => t.filename === 'tagged.mpg')!;
    expect(tagged.error).toMatchObject({ code: 'upload/unsupported', details: { reason: 'location' } });
    expect(tagged.locationChoice).toBe('skip');
    expect(settled.totals).toMatchObject({ filesFailed: 0, filesAwaitingChoice: 2 });
    // Nothing of them reached the album: no item, no object. The rest of the batch went on.
    const others = await readyItems(backend, album.id);
    expect(others.map((i) => i.filename).sort()).toEqual(['camcorder.mpg', 'notes.txt']);
    expect(others.find((i) => i.filename === 'camcorder.mpg')!.metadata.location).toBeUndefined();
    await expect(backend.files.read(objectKeys.original(album.id, stopped.id))).rejects.toThrow();
    await expect(backend.files.read(objectKeys.original(album.id, tagged.id))).rejects.toThrow();

    await engine.uploadPreviewOnly(stopped.id);
    await until(engine, (s) => s.tasks.find((t) => t.id === stopped.id)?.state === 'done');
    const item = (await readyItems(backend, album.id)).find((i) => i.id === stopped.id)!;
    expect(item).toMatchObject({ filename: 'IMG_0002.webp', mime: 'image/webp', kind: 'image', width: 2048, height: 1365 });
    expect(item.metadata.location).toBe('preview');
    expect(await backend.albums.getAlbum(album.id)).toMatchObject({ itemCount: 3 });
    const original = await backend.files.read(item.originalKey);
    expect(await sameBytes(original, await backend.files.read(item.previewKey!))).toBe(true);
    expect(item.bytes).toBe(original.size);
    expect(item.sha256).toBe(await hashFile(original));
    expect(await original.text()).not.toMatch(/GPS|48,51/);
  });

  it('a stopped original without a preview offers none; removing it leaves nothing behind', async () => {
    const { n, backend, album } = await setup();
    const engine = newEngine({ backend, dbName: n.queueDb });
    await engine.start();
    // Its picture data cut off: no preview can be drawn, and its place cannot be blanked.
    const whole = await photoWithStubbornPlace('cut.jpg');
    const cut = new File([whole.slice(0, 1200)], 'cut.jpg', { type: 'image/jpeg' });
    const [task] = await engine.enqueue(album.id, [cut]);
    const settled = await until(engine, allSettled);
    expect(settled.tasks[0]!.error).toMatchObject({ code: 'upload/unsupported', details: { reason: 'location' } });
    expect(settled.tasks[0]!.locationChoice).toBe('skip');
    await expect(engine.uploadPreviewOnly(task!.id)).rejects.toThrow(/cannot/);
    await engine.remove(task!.id);
    await until(engine, (s) => s.tasks.length === 0);
    expect(await readyItems(backend, album.id)).toEqual([]);
  });
});
