// The page of bench/zip-bench.mjs: an album on the real local backend (IndexedDB + OPFS) zipped by the real
// download code (src/features/downloads) into a file on disk, as a download saved with the File System Access
// API is; the file is then read back and every byte checked, outside the timed part.
import { createCRC32 } from 'hash-wasm';
import type { Item } from '../../src/domain/entities';
import { createLocalBackend } from '../../src/backend/local/create-local-backend';
import { loadAlbumItems } from '../../src/features/downloads/album-files';
import { ChunkPool, readPooled, writeReturning } from '../../src/features/downloads/chunk-pool';
import { openMemberOriginals } from '../../src/features/downloads/member-files';
import { writeToFile, type PickedFile } from '../../src/features/downloads/save-targets';
import { planZip, zipItemOf } from '../../src/features/downloads/zip-plan';
import { zipStream } from '../../src/features/downloads/zip-stream';

const backend = createLocalBackend({ dbName: 'zip-bench', opfsDir: 'zip-bench', channelName: 'zip-bench' });
const CHUNK = 8 * 1024 * 1024;
let albumId = '';
/** CRC-32 of each generated file, computed as it was made: the reference the archive is checked against. */
const expectedCrc = new Map<string, number>();

/** Random bytes made once; each chunk of each file is a copy stamped with its file and chunk number, so a misplaced chunk changes the CRC. */
const template = new Uint8Array(CHUNK);
for (let at = 0; at < CHUNK; at += 65536) crypto.getRandomValues(template.subarray(at, at + 65536));
function chunkOf(file: number, index: number, length: number): Uint8Array<ArrayBuffer> {
  const out = template.slice(0, length);
  new DataView(out.buffer).setUint32(0, file * 100_000 + index);
  return out;
}

/** Makes the album and its files; answers what a fresh page needs to check them (see `load`). */
async function setup(files: number, bytes: number): Promise<{ albumId: string; crcs: [string, number][] }> {
  const album = await backend.albums.createAlbum({ title: 'Five gibibytes' });
  albumId = album.id;
  const inputs = Array.from({ length: files }, (_, i) => ({ id: crypto.randomUUID(), filename: `clip-${String(i + 1).padStart(2, '0')}.bin`, mime: 'application/octet-stream', kind: 'file' as const, bytes }));
  const items = await backend.itemWrites.reserveItems(album.id, inputs);
  const crc = await createCRC32();
  for (const [i, item] of items.entries()) {
    crc.init();
    const parts: Uint8Array<ArrayBuffer>[] = [];
    for (let at = 0, n = 0; at < bytes; at += CHUNK, n++) {
      const part = chunkOf(i, n, Math.min(CHUNK, bytes - at));
      crc.update(part);
      parts.push(part);
    }
    expectedCrc.set(item.filename, parseInt(crc.digest('hex'), 16));
    // The Blob's bytes move to the browser's blob store (and disk) as it is made; the page keeps none of them.
    await backend.files.upload({ key: item.originalKey, blob: new Blob(parts), contentType: item.mime });
    await backend.itemWrites.finalizeItem(album.id, item.id, { sha256: '0'.repeat(64), width: null, height: null, durationMs: null, takenAt: null, hasPreview: false, hasThumb: false, thumbhash: null, metadata: {} });
  }
  return { albumId, crcs: [...expectedCrc] };
}

/** In the page that measures (not the one that made the files, whose memory they passed through). */
function load(album: string, crcs: [string, number][]): void {
  albumId = album;
  for (const [name, crc] of crcs) expectedCrc.set(name, crc);
}

/** Where a pass writes: a file in this origin's private file system, which a save picker's file handle is like. */
async function outputFile(name: string): Promise<FileSystemFileHandle> {
  const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('zip-bench-out', { create: true });
  return dir.getFileHandle(name, { create: true });
}

let lastOut: FileSystemFileHandle | null = null;

/**
 * The baseline: the same files read out of OPFS and written one after another into one file on disk, without a
 * ZIP, the fastest way this browser offers (read into reused buffers, as the download does).
 */
async function copy(): Promise<{ ms: number; bytes: number }> {
  const items = await loadAlbumItems(backend.items, albumId, new AbortController().signal);
  const t0 = performance.now();
  const pool = new ChunkPool();
  const files = items.values();
  let current: ReadableStreamDefaultReader<Uint8Array> | null = null;
  let bytes = 0;
  const all = new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (!current) {
          const next = files.next();
          if (next.done) return controller.close();
          current = readPooled((await backend.files.read(next.value.originalKey)).stream(), pool).getReader();
        }
        const r = await current.read();
        if (r.done) {
          current = null;
          continue;
        }
        bytes += r.value.byteLength;
        return controller.enqueue(r.value);
      }
    },
  });
  lastOut = await outputFile('copy.bin');
  await writeReturning(all, await lastOut.createWritable(), pool, new AbortController().signal);
  return { ms: performance.now() - t0, bytes };
}

/** Reads the copy back: each file's CRC-32 against the one made with it. */
async function verifyCopy(): Promise<{ ok: boolean }> {
  const items = await loadAlbumItems(backend.items, albumId, new AbortController().signal);
  const out = await lastOut!.getFile();
  const crc = await createCRC32();
  let at = 0;
  let ok = true;
  for (const item of items) {
    crc.init();
    await out.slice(at, at + item.bytes).stream().pipeTo(new WritableStream({ write: (chunk) => void crc.update(chunk) }));
    at += item.bytes;
    ok &&= parseInt(crc.digest('hex'), 16) === expectedCrc.get(item.filename);
  }
  await removeOutput();
  return { ok: ok && at === out.size };
}

async function removeOutput(): Promise<void> {
  const root = await navigator.storage.getDirectory();
  await root.removeEntry('zip-bench-out', { recursive: true }).catch(() => undefined);
  lastOut = null;
}

let lastZip: { plan: ReturnType<typeof planZip>; predicted: number } | null = null;

/** The archive, made and written to disk by the app's download code (run-download.ts does the same). */
async function zip(): Promise<{ ms: number; bytes: number; predicted: number }> {
  const items: Item[] = await loadAlbumItems(backend.items, albumId, new AbortController().signal);
  const t0 = performance.now();
  const plan = planZip(items.map(zipItemOf));
  const signal = new AbortController().signal;
  const made = await zipStream(plan, openMemberOriginals(backend, items), { signal });
  lastOut = await outputFile('album.zip');
  await writeToFile(lastOut as unknown as PickedFile, made, signal);
  await made.done;
  const ms = performance.now() - t0;
  lastZip = { plan, predicted: made.size };
  return { ms, bytes: (await lastOut.getFile()).size, predicted: made.size };
}

/**
 * The archive written by `zip`, read back by a parser that follows its structure: each local header's name,
 * each entry's bytes (CRC-32 against the reference made with the file, and against the data descriptor
 * client-zip wrote), and the central directory's count; the length must equal the prediction.
 */
async function verifyZip(): Promise<{ bytes: number; predicted: number; entries: number; centralCount: number; problems: string[] }> {
  const { plan, predicted: size } = lastZip!;
  const stream = (await lastOut!.getFile()).stream();
  const sizes = new Map([[plan.manifest.name, plan.manifest.bytes.byteLength], ...plan.entries.map((e) => [e.name, e.size] as const)]);
  const crc = await createCRC32();
  const problems: string[] = [];
  let buf: Uint8Array = new Uint8Array(0);
  let total = 0;
  let entries = 0;
  let centralCount = -1;
  let state: { at: 'header' } | { at: 'data'; name: string; left: number } | { at: 'descriptor'; name: string; crc: number; zip64: boolean } | { at: 'central' } = { at: 'header' };
  const take = (n: number) => {
    const out = buf.subarray(0, n);
    buf = buf.subarray(n);
    return out;
  };
  const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
  const step = (): boolean => {
    if (state.at === 'header') {
      if (buf.length < 4) return false;
      const sig = view(buf).getUint32(0, true);
      if (sig === 0x02014b50) {
        state = { at: 'central' };
        return true;
      }
      if (sig !== 0x04034b50) throw new Error(`bad local header signature ${sig.toString(16)} at ${total - buf.length}`);
      if (buf.length < 30) return false;
      const nameLen = view(buf).getUint16(26, true);
      const extraLen = view(buf).getUint16(28, true);
      if (buf.length < 30 + nameLen + extraLen) return false;
      const head = take(30 + nameLen + extraLen);
      const name = new TextDecoder().decode(head.subarray(30, 30 + nameLen));
      const left = sizes.get(name);
      if (left === undefined) throw new Error(`unexpected entry ${name}`);
      crc.init();
      state = { at: 'data', name, left };
      return true;
    }
    if (state.at === 'data') {
      const n = Math.min(state.left, buf.length);
      if (n === 0 && state.left > 0) return false;
      crc.update(take(n));
      state.left -= n;
      if (state.left > 0) return false;
      state = { at: 'descriptor', name: state.name, crc: parseInt(crc.digest('hex'), 16), zip64: (sizes.get(state.name) ?? 0) >= 0xffffffff };
      return true;
    }
    if (state.at === 'descriptor') {
      const len = state.zip64 ? 24 : 16;
      if (buf.length < len) return false;
      const d = view(take(len));
      if (d.getUint32(0, true) !== 0x08074b50) throw new Error(`no data descriptor after ${state.name}`);
      const written = d.getUint32(4, true);
      const expected = state.name === plan.manifest.name ? written : expectedCrc.get(state.name);
      if (written !== state.crc) problems.push(`${state.name}: descriptor CRC ${written} but bytes give ${state.crc}`);
      if (expected !== state.crc) problems.push(`${state.name}: bytes differ from the file (CRC ${state.crc}, expected ${expected})`);
      entries++;
      state = { at: 'header' };
      return true;
    }
    return false;
  };
  // The central directory and end records (a few kB) are kept whole and read at the end.
  const sink = new WritableStream<Uint8Array>({
    write(chunk) {
      total += chunk.byteLength;
      // Only a header split across two chunks is joined; file bytes are read where they arrived.
      if (buf.length === 0) buf = chunk;
      else {
        const joined = new Uint8Array(buf.length + chunk.length);
        joined.set(buf);
        joined.set(chunk, buf.length);
        buf = joined;
      }
      while (state.at !== 'central' && step());
    },
  });
  await stream.pipeTo(sink);
  const tail = view(buf);
  // ZIP64 end of central directory record: total entries at offset 32 (8 bytes).
  for (let i = 0; i + 56 <= buf.length; i++) {
    if (tail.getUint32(i, true) === 0x06064b50) centralCount = Number(tail.getBigUint64(i + 32, true));
  }
  if (centralCount === -1) {
    for (let i = buf.length - 22; i >= 0; i--) if (tail.getUint32(i, true) === 0x06054b50) { centralCount = tail.getUint16(i + 10, true); break; }
  }
  await removeOutput();
  return { bytes: total, predicted: size, entries, centralCount, problems };
}

async function clear(): Promise<void> {
  const root = await navigator.storage.getDirectory();
  await root.removeEntry('zip-bench', { recursive: true }).catch(() => undefined);
  await removeOutput();
}

Object.assign(window, { bench: { setup, load, copy, verifyCopy, zip, verifyZip, clear } });
