// The page of bench/zip-bench.mjs: an album on the real local backend (IndexedDB + OPFS) zipped by the real
// download code (src/features/downloads) into a sink that checks every byte as it passes.
import { createCRC32 } from 'hash-wasm';
import type { Item } from '../../src/backend/entities';
import { createLocalBackend } from '../../src/backend/local/create-local-backend';
import { loadAlbumItems } from '../../src/features/downloads/album-files';
import { ChunkPool, readPooled, writeReturning } from '../../src/features/downloads/chunk-pool';
import { openMemberOriginals } from '../../src/features/downloads/member-files';
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
  const album = await backend.data.createAlbum({ title: 'Five gibibytes' });
  albumId = album.id;
  const inputs = Array.from({ length: files }, (_, i) => ({ id: crypto.randomUUID(), filename: `clip-${String(i + 1).padStart(2, '0')}.bin`, mime: 'application/octet-stream', kind: 'file' as const, bytes }));
  const items = await backend.data.reserveItems(album.id, inputs);
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
    await backend.data.finalizeItem(album.id, item.id, { sha256: '0'.repeat(64), width: null, height: null, durationMs: null, takenAt: null, hasPreview: false, hasThumb: false, thumbhash: null, metadata: {} });
  }
  return { albumId, crcs: [...expectedCrc] };
}

/** In the page that measures (not the one that made the files, whose memory they passed through). */
function load(album: string, crcs: [string, number][]): void {
  albumId = album;
  for (const [name, crc] of crcs) expectedCrc.set(name, crc);
}

/**
 * The baseline: the same files read out of OPFS into a sink that checks each one's CRC, without a ZIP, the
 * fastest way this browser offers (read into reused buffers, as the download does).
 */
async function copy(): Promise<{ ms: number; bytes: number; ok: boolean }> {
  const items = await loadAlbumItems(backend.data, albumId, new AbortController().signal);
  const crc = await createCRC32();
  const t0 = performance.now();
  let bytes = 0;
  let ok = true;
  const pool = new ChunkPool();
  for (const item of items) {
    crc.init();
    const blob = await backend.files.read(item.originalKey);
    const sink = new WritableStream<Uint8Array>({ write(chunk) { crc.update(chunk); bytes += chunk.byteLength; } });
    await writeReturning(readPooled(blob.stream(), pool), sink, pool, new AbortController().signal);
    ok &&= parseInt(crc.digest('hex'), 16) === expectedCrc.get(item.filename);
  }
  return { ms: performance.now() - t0, bytes, ok };
}

/**
 * The archive, made by the app's download code and read by a sink that follows its structure: each local
 * header's name, each entry's bytes (CRC-32 against the reference made with the file, and against the data
 * descriptor client-zip wrote), and the central directory's count; the length must equal the prediction.
 */
async function zip(): Promise<{ ms: number; bytes: number; predicted: number; entries: number; centralCount: number; problems: string[] }> {
  const items: Item[] = await loadAlbumItems(backend.data, albumId, new AbortController().signal);
  const t0 = performance.now();
  const plan = planZip(items.map(zipItemOf));
  const sizes = new Map([[plan.manifest.name, plan.manifest.bytes.byteLength], ...plan.entries.map((e) => [e.name, e.size] as const)]);
  const { stream, size, pool } = await zipStream(plan, openMemberOriginals(backend, items));
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
  // Written as the app writes a ZIP to disk (save-targets.ts), each chunk's buffer given back once written.
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
      // What is left (a header cut in two) is kept past this write: a copy, as the chunk's buffer is reused.
      if (buf.length > 0 && buf.buffer === chunk.buffer) buf = buf.slice();
    },
  });
  await writeReturning(stream, sink, pool, new AbortController().signal);
  const tail = view(buf);
  // ZIP64 end of central directory record: total entries at offset 32 (8 bytes).
  for (let i = 0; i + 56 <= buf.length; i++) {
    if (tail.getUint32(i, true) === 0x06064b50) centralCount = Number(tail.getBigUint64(i + 32, true));
  }
  if (centralCount === -1) {
    for (let i = buf.length - 22; i >= 0; i--) if (tail.getUint32(i, true) === 0x06054b50) { centralCount = tail.getUint16(i + 10, true); break; }
  }
  return { ms: performance.now() - t0, bytes: total, predicted: size, entries, centralCount, problems };
}

async function clear(): Promise<void> {
  const root = await navigator.storage.getDirectory();
  await root.removeEntry('zip-bench', { recursive: true }).catch(() => undefined);
}

Object.assign(window, { bench: { setup, load, copy, zip, clear } });
