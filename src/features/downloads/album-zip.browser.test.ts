import { expect, test } from 'vitest';
import { createLocalBackend } from '../../backend/local/create-local-backend';
import { isolatedLocal } from '../../testing/isolated-local';
import { loadAlbumItems } from './album-files';
import { openMemberOriginals } from './member-files';
import { planZip, zipItemOf } from './zip-plan';
import { zipStream, type ZipProgress } from './zip-stream';

async function fixture(name: string): Promise<Uint8Array> {
  const res = await fetch(`/tests/fixtures/${name}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** The entries of a stored (uncompressed) ZIP, read from its central directory as an unzipper would. */
function readZip(zip: Uint8Array): Map<string, { bytes: Uint8Array; modified: number }> {
  const v = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let end = zip.length - 22;
  while (end >= 0 && v.getUint32(end, true) !== 0x06054b50) end--;
  expect(end).toBeGreaterThanOrEqual(0);
  const count = v.getUint16(end + 10, true);
  let at = v.getUint32(end + 16, true);
  const out = new Map<string, { bytes: Uint8Array; modified: number }>();
  for (let i = 0; i < count; i++) {
    expect(v.getUint32(at, true)).toBe(0x02014b50);
    expect(v.getUint16(at + 10, true)).toBe(0); // stored, not recompressed
    const size = v.getUint32(at + 24, true);
    const nameLen = v.getUint16(at + 28, true);
    const extraLen = v.getUint16(at + 30, true);
    const commentLen = v.getUint16(at + 32, true);
    const local = v.getUint32(at + 42, true);
    const name = new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLen));
    const dosDate = v.getUint16(at + 14, true);
    const data = local + 30 + v.getUint16(local + 26, true) + v.getUint16(local + 28, true);
    out.set(name, { bytes: zip.subarray(data, data + size), modified: ((dosDate >> 9) + 1980) * 10000 + ((dosDate >> 5) & 15) * 100 + (dosDate & 31) });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

test('an album of real photos on this device zips into an archive with each photo byte for byte, safe names and a manifest', async () => {
  const backend = createLocalBackend(isolatedLocal('album-zip'));
  const album = await backend.albums.createAlbum({ title: 'Lisbon' });
  const photos = [
    { filename: 'IMG_0001.jpg', bytes: await fixture('orientation-1.jpg'), takenAt: '2024-05-01T10:00:00Z' },
    { filename: 'img_0001.JPG', bytes: await fixture('orientation-6.jpg'), takenAt: '2023-02-03T10:00:00Z' },
    { filename: '../../évora\u202Egpj.exe', bytes: await fixture('xmp.jpg'), takenAt: null },
  ];
  const reserved = await backend.itemWrites.reserveItems(album.id, photos.map((p) => ({ id: crypto.randomUUID(), filename: p.filename, mime: 'image/jpeg', kind: 'image' as const, bytes: p.bytes.length })));
  for (const [i, item] of reserved.entries()) {
    const p = photos[i]!;
    await backend.files.upload({ key: item.originalKey, blob: new Blob([p.bytes as Uint8Array<ArrayBuffer>]), contentType: 'image/jpeg' });
    await backend.itemWrites.finalizeItem(album.id, item.id, { sha256: String(i).repeat(64), width: 8, height: 6, durationMs: null, takenAt: p.takenAt, hasPreview: false, hasThumb: false, thumbhash: null, metadata: { cameraMake: 'Canon', iso: 100 + i } });
  }

  const items = await loadAlbumItems(backend.items, album.id, new AbortController().signal);
  const plan = planZip(items.map(zipItemOf));
  const seen: ZipProgress[] = [];
  const { stream, size, done } = await zipStream(plan, openMemberOriginals(backend, items), { onProgress: (p) => seen.push(p) });
  const zip = new Uint8Array(await new Response(stream).arrayBuffer());
  await done;
  expect(zip.length).toBe(size);
  expect(seen.at(-1)).toMatchObject({ bytes: size, totalBytes: size, files: 3, totalFiles: 3 });
  expect(seen[0]).toMatchObject({ bytes: 0, totalBytes: size });

  const entries = readZip(zip);
  // Which of the two IMG_0001 is numbered follows the album's order (newest first).
  expect(new Set(entries.keys())).toEqual(new Set(['manifest.json', 'IMG_0001.jpg', 'img_0001 (2).JPG', '.._.._évora_gpj.exe']));
  const manifest = JSON.parse(new TextDecoder().decode(entries.get('manifest.json')!.bytes)) as { items: { entry: string; filename: string; sha256: string; metadata: object }[] };
  for (const photo of photos) {
    const listed = manifest.items.find((m) => m.filename === photo.filename)!;
    expect(listed.metadata).toMatchObject({ cameraMake: 'Canon' });
    expect(entries.get(listed.entry)!.bytes).toEqual(photo.bytes);
  }
  // Dated when taken (the DOS date of the entry, in the device's time zone), or when added when the photo has no
  // date: whatever the machine's zone and date.
  const byName = (filename: string) => entries.get(manifest.items.find((m) => m.filename === filename)!.entry)!;
  const localDay = (iso: string) => {
    const d = new Date(iso);
    return d.getFullYear() * 10000 + (d.getMonth() + 1) * 100 + d.getDate();
  };
  expect(byName('IMG_0001.jpg').modified).toBe(localDay('2024-05-01T10:00:00Z'));
  expect(byName('img_0001.JPG').modified).toBe(localDay('2023-02-03T10:00:00Z'));
  const undated = items.find((i) => i.takenAt === null)!;
  expect(byName('../../évora\u202Egpj.exe').modified).toBe(localDay(undated.createdAt));
});

test('a file that is not there fails the archive with the product error instead of a short ZIP', async () => {
  const backend = createLocalBackend(isolatedLocal('album-zip-missing'));
  const album = await backend.albums.createAlbum({ title: 'Gone' });
  const [item] = await backend.itemWrites.reserveItems(album.id, [{ id: crypto.randomUUID(), filename: 'a.jpg', mime: 'image/jpeg', kind: 'image', bytes: 10 }]);
  const plan = planZip([zipItemOf(item!)]);
  const { stream, done } = await zipStream(plan, openMemberOriginals(backend, [item!]));
  await expect(new Response(stream).arrayBuffer()).rejects.toThrow();
  await expect(done).rejects.toMatchObject({ code: 'item/not-found' });
});

test('a file shorter than its row says fails the archive, whose announced length would otherwise be wrong', async () => {
  const item = { id: 'x', filename: 'a.jpg', kind: 'image' as const, mime: 'image/jpeg', bytes: 10, sha256: null, takenAt: null, createdAt: new Date().toISOString(), width: null, height: null, durationMs: null, metadata: {} };
  const { stream, done } = await zipStream(planZip([item]), async () => new Blob([new Uint8Array(5)]));
  await expect(new Response(stream).arrayBuffer()).rejects.toThrow();
  await expect(done).rejects.toMatchObject({ code: 'item/not-found' });
});

test('a text file stored gzip-compressed goes into the archive as the original bytes, at the length announced up front', async () => {
  const { gzip } = await import('pako');
  const backend = createLocalBackend(isolatedLocal('album-zip-gzip'));
  const album = await backend.albums.createAlbum({ title: 'Tracks' });
  const csv = new TextEncoder().encode(Array.from({ length: 5000 }, (_, i) => `${i},38.7${i % 97},-9.1${i % 89},${i * 2}\n`).join(''));
  const stored = gzip(csv);
  const [item] = await backend.itemWrites.reserveItems(album.id, [
    { id: crypto.randomUUID(), filename: 'ride.csv', mime: 'text/plain', kind: 'file', bytes: csv.length, stored: { encoding: 'gzip', bytes: stored.length } },
  ]);
  await backend.files.upload({ key: item!.originalKey, blob: new Blob([stored]), contentType: 'text/plain' });
  await backend.itemWrites.finalizeItem(album.id, item!.id, { sha256: 'a'.repeat(64), width: null, height: null, durationMs: null, takenAt: null, hasPreview: false, hasThumb: false, thumbhash: null, metadata: {} });
  expect((await backend.files.read(item!.originalKey)).size).toBe(stored.length);

  const items = await loadAlbumItems(backend.items, album.id, new AbortController().signal);
  expect(items[0]).toMatchObject({ storedEncoding: 'gzip', storedBytes: stored.length, bytes: csv.length });
  const { stream, size, done } = await zipStream(planZip(items.map(zipItemOf)), openMemberOriginals(backend, items));
  const zip = new Uint8Array(await new Response(stream).arrayBuffer());
  await done;
  expect(zip.length).toBe(size);
  expect(entriesEqual(readZip(zip).get('ride.csv')!.bytes, csv)).toBe(true);
});

test('a stored file that inflates past its recorded size fails the archive with upload/integrity, at once', async () => {
  const { gzip } = await import('pako');
  const bomb = gzip(new Uint8Array(64 * 1024 * 1024));
  const item = { id: 'b', filename: 'tiny.log', kind: 'file' as const, mime: 'text/plain', bytes: 1024, sha256: null, takenAt: null, createdAt: new Date().toISOString(), width: null, height: null, durationMs: null, metadata: {} };
  const full = { ...item, albumId: 'x', uploaderId: 'u', status: 'ready' as const, originalKey: 'k', previewKey: null, thumbKey: null, thumbhash: null, deletedAt: null, storedEncoding: 'gzip' as const };
  const backend = { capabilities: { storage: { onDevice: true, sidecars: true }, network: { required: false }, sharing: { members: false } }, files: { read: async () => new Blob([bomb]), urls: async () => new Map<string, string>() } };
  const t0 = performance.now();
  const { stream, done } = await zipStream(planZip([item]), openMemberOriginals(backend, [full]));
  await expect(new Response(stream).arrayBuffer()).rejects.toThrow();
  await expect(done).rejects.toMatchObject({ code: 'upload/integrity' });
  expect(performance.now() - t0).toBeLessThan(1000);
});

function entriesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
