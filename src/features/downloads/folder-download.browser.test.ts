import { expect, test } from 'vitest';
import type { Backend } from '../../backend/ports';
import { createLocalBackend } from '../../backend/local/create-local-backend';
import { isolatedLocal } from '../../testing/isolated-local';
import { clockPasses } from '../../testing/contract/contract-fixtures';
import { loadAlbumItems } from './album-files';
import { downloadToFolder } from './folder-download';
import { openMemberOriginals } from './member-files';
import type { PickedFolder } from './save-targets';
import { planZip, zipItemOf, type ZipPlan } from './zip-plan';
import type { OpenEntry } from './zip-stream';

async function fixture(name: string): Promise<Uint8Array> {
  const res = await fetch(`/tests/fixtures/${name}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** A folder of this origin's private file system, standing in for the one the user picks. */
async function freshFolder(): Promise<FileSystemDirectoryHandle> {
  return (await navigator.storage.getDirectory()).getDirectoryHandle(`folder-download-${crypto.randomUUID()}`, { create: true });
}

async function listing(dir: FileSystemDirectoryHandle): Promise<Map<string, File>> {
  const out = new Map<string, File>();
  for await (const [name, handle] of (dir as unknown as { entries(): AsyncIterable<[string, FileSystemHandle]> }).entries()) {
    if (handle.kind === 'file') out.set(name, await (handle as FileSystemFileHandle).getFile());
  }
  return out;
}

const bytesOf = async (file: File) => new Uint8Array(await file.arrayBuffer());

interface Album {
  backend: Backend;
  plan: ZipPlan;
  open: OpenEntry;
  /** The original bytes under each file's entry name. */
  bytes: Map<string, Uint8Array>;
}

/** An album on this device with three real photos: two whose names differ only in case, one with an unsafe name. */
async function albumOfPhotos(name: string): Promise<Album> {
  const backend = createLocalBackend(isolatedLocal(name));
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
    await backend.itemWrites.finalizeItem(album.id, item.id, { sha256: String(i).repeat(64), width: 8, height: 6, durationMs: null, takenAt: p.takenAt, hasPreview: false, hasThumb: false, thumbhash: null, metadata: {} });
  }
  const items = await loadAlbumItems(backend.items, album.id, new AbortController().signal);
  const plan = planZip(items.map(zipItemOf));
  const byId = new Map(reserved.map((r, i) => [r.id, photos[i]!.bytes]));
  return { backend, plan, open: openMemberOriginals(backend, items), bytes: new Map(plan.entries.map((e) => [e.name, byId.get(e.item.id)!])) };
}

/** `open`, noting the name of each entry it is asked for. */
function counted(open: OpenEntry): { open: OpenEntry; opened: string[] } {
  const opened: string[] = [];
  return { opened, open: (entry, signal) => (opened.push(entry.name), open(entry, signal)) };
}

test('the album is written into the folder with each photo byte for byte under safe, unique names; a second run writes only what is missing or cut short', async () => {
  const album = await albumOfPhotos('folder-download');
  const dir = await freshFolder();
  const folder = dir as unknown as PickedFolder;

  const first = counted(album.open);
  const progress: { bytes: number; files: number; skipped: number }[] = [];
  expect(await downloadToFolder(folder, album.plan, first.open, { signal: new AbortController().signal, onProgress: (p) => progress.push(p) })).toEqual({ written: 3, skipped: 0 });
  const names = ['IMG_0001.jpg', 'img_0001 (2).JPG', '.._.._évora_gpj.exe'];
  expect(new Set(first.opened)).toEqual(new Set(names));
  let files = await listing(dir);
  // Nothing else is left in the folder: no temporary file, only the photos and the manifest.
  expect(new Set(files.keys())).toEqual(new Set([...names, 'manifest.json']));
  for (const name of names) expect(await bytesOf(files.get(name)!)).toEqual(album.bytes.get(name));
  const manifest = JSON.parse(await files.get('manifest.json')!.text()) as { items: { entry: string }[] };
  expect(new Set(manifest.items.map((m) => m.entry))).toEqual(new Set(names));
  expect(progress.at(-1)).toMatchObject({ bytes: album.plan.fileBytes, files: 3, skipped: 0 });

  // One photo is deleted, another was cut short (as by a write that stopped half-way).
  const [kept, deleted, cut] = names as [string, string, string];
  await dir.removeEntry(deleted);
  const w = await (await dir.getFileHandle(cut)).createWritable({ keepExistingData: true });
  await w.truncate(Math.floor(album.bytes.get(cut)!.length / 2));
  await w.close();
  const keptModified = files.get(kept)!.lastModified;
  // A rewrite from now on would carry a later time.
  await clockPasses(keptModified);

  const second = counted(album.open);
  expect(await downloadToFolder(folder, album.plan, second.open, { signal: new AbortController().signal })).toEqual({ written: 2, skipped: 1 });
  expect(new Set(second.opened)).toEqual(new Set([deleted, cut]));
  files = await listing(dir);
  expect(new Set(files.keys())).toEqual(new Set([...names, 'manifest.json']));
  for (const name of names) expect(await bytesOf(files.get(name)!)).toEqual(album.bytes.get(name));
  // The photo that was already whole was not touched.
  expect(files.get(kept)!.lastModified).toBe(keptModified);
});

test('cancelled half-way through a photo, the folder holds no file under its name, and the next run writes it whole', async () => {
  const album = await albumOfPhotos('folder-download-cancel');
  const dir = await freshFolder();
  const folder = dir as unknown as PickedFolder;
  const controller = new AbortController();
  const [firstEntry, halted] = album.plan.entries as [(typeof album.plan.entries)[number], (typeof album.plan.entries)[number]];
  const whole = album.bytes.get(halted.name)!;
  // The second photo arrives half, then the user cancels while the rest is awaited: once the half has been
  // taken and more is asked for.
  const open: OpenEntry = async (entry, signal) => {
    if (entry !== halted) return album.open(entry, signal);
    let pulls = 0;
    return new ReadableStream<Uint8Array>(
      {
        pull(c) {
          if (pulls++ === 0) c.enqueue(whole.slice(0, Math.floor(whole.length / 2)));
          else controller.abort();
        },
      },
      { highWaterMark: 0 },
    );
  };
  await expect(downloadToFolder(folder, album.plan, open, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  const files = await listing(dir);
  expect([...files.keys()]).toEqual([firstEntry.name]);
  expect(await bytesOf(files.get(firstEntry.name)!)).toEqual(album.bytes.get(firstEntry.name));

  const again = counted(album.open);
  expect(await downloadToFolder(folder, album.plan, again.open, { signal: new AbortController().signal })).toEqual({ written: 2, skipped: 1 });
  expect(again.opened).not.toContain(firstEntry.name);
  expect(await bytesOf((await listing(dir)).get(halted.name)!)).toEqual(whole);
});

test('a file that delivers fewer bytes than its row says fails with the product error and leaves no file under its name', async () => {
  const album = await albumOfPhotos('folder-download-short');
  const dir = await freshFolder();
  const [only] = album.plan.entries;
  const plan = { ...album.plan, entries: [only!], fileBytes: only!.size };
  const short: OpenEntry = async () => new Blob([album.bytes.get(only!.name)!.slice(0, 100) as Uint8Array<ArrayBuffer>]);
  await expect(downloadToFolder(dir as unknown as PickedFolder, plan, short, { signal: new AbortController().signal })).rejects.toMatchObject({ code: 'item/not-found' });
  expect([...(await listing(dir)).keys()]).toEqual([]);
});

test('a text file stored gzip-compressed lands in the folder as the original bytes; one that inflates past its size leaves no file', async () => {
  const { gzip } = await import('pako');
  const backend = createLocalBackend(isolatedLocal('folder-download-gzip'));
  const album = await backend.albums.createAlbum({ title: 'Logs' });
  const log = new TextEncoder().encode(Array.from({ length: 8000 }, (_, i) => `2026-11-27T10:${String(i % 60).padStart(2, '0')}:00Z INFO request ${i % 113} done\n`).join(''));
  const files = [
    { filename: 'server.log', bytes: log.length, stored: gzip(log), recorded: 0 },
    // Recorded as 100 KB stored in 1 KB; what lies in storage instead (put there behind the app's back) inflates to 32 MB.
    { filename: 'tiny.log', bytes: 100_000, stored: gzip(new Uint8Array(32 * 1024 * 1024)), recorded: 1000 },
  ];
  const reserved = await backend.itemWrites.reserveItems(album.id, files.map((f) => ({ id: crypto.randomUUID(), filename: f.filename, mime: 'text/plain', kind: 'file' as const, bytes: f.bytes, stored: { encoding: 'gzip' as const, bytes: f.recorded || f.stored.length } })));
  for (const [i, item] of reserved.entries()) {
    await backend.files.upload({ key: item.originalKey, blob: new Blob([files[i]!.stored]), contentType: 'text/plain' });
    await backend.itemWrites.finalizeItem(album.id, item.id, { sha256: String(i).repeat(64), width: null, height: null, durationMs: null, takenAt: null, hasPreview: false, hasThumb: false, thumbhash: null, metadata: {} });
  }
  const items = await loadAlbumItems(backend.items, album.id, new AbortController().signal);
  const good = items.filter((i) => i.filename === 'server.log');
  const folder = await freshFolder();
  await downloadToFolder(folder as unknown as PickedFolder, planZip(good.map(zipItemOf)), openMemberOriginals(backend, good), { signal: new AbortController().signal });
  const written = await listing(folder);
  expect(written.get('server.log')!.size).toBe(log.length);
  expect(new TextDecoder().decode(await bytesOf(written.get('server.log')!))).toBe(new TextDecoder().decode(log));

  const bomb = items.filter((i) => i.filename === 'tiny.log');
  const other = await freshFolder();
  const t0 = performance.now();
  await expect(downloadToFolder(other as unknown as PickedFolder, planZip(bomb.map(zipItemOf)), openMemberOriginals(backend, bomb), { signal: new AbortController().signal })).rejects.toMatchObject({ code: 'upload/integrity' });
  expect(performance.now() - t0).toBeLessThan(1000);
  expect([...(await listing(other)).keys()]).toEqual([]);
});
