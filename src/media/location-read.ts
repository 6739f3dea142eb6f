/** Reading a file's metadata blocks by offset, and the patches made from them (location-patches.ts). */
import { Unreadable } from './location-blanking';

export type LocationOutcome =
  /** Location was found and blanked. */
  | 'removed'
  /** The file held no location. */
  | 'none'
  /** Not a format whose metadata can be edited in place here, or its structure could not be followed. */
  | 'unsupported';

/** Replacement bytes for `[offset, offset + bytes.length)` of the file. */
export interface BytePatch {
  offset: number;
  bytes: Uint8Array;
}

/** Reads `length` bytes at `offset`; fewer only at the end of the file. */
export type ReadAt = (offset: number, length: number) => Promise<Uint8Array>;

/** A metadata block over this size is not read into memory: the file is kept as it is instead. */
export const MAX_BLOCK_BYTES = 16 * 1024 * 1024;

/** How much a blobReader reads at a time: a JPEG's or a PNG's metadata blocks near its start come in one read. */
const READ_AHEAD_BYTES = 64 * 1024;

/**
 * Reads `blob` for the walkers, which read a few bytes at a time (a segment's header, then the segment): each
 * read of a blob is a round trip to the browser's blob store (and for a queued file, to IndexedDB's files), so a
 * read shorter than READ_AHEAD_BYTES takes that much, and the reads that fall inside it are served from it.
 */
export function blobReader(blob: Blob): ReadAt {
  return readingAhead(async (offset, length) => new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer()), READ_AHEAD_BYTES);
}

/**
 * `read` with reads shorter than `window` served from a window of that many bytes read at once: for walkers that go
 * through a whole file header by header (a video's packets), where 64 KiB at a time would be thousands of reads.
 */
export function readingAhead(read: ReadAt, window: number): ReadAt {
  let ahead: { offset: number; bytes: Uint8Array } | null = null;
  return async (offset, length) => {
    const at = ahead ? offset - ahead.offset : -1;
    if (ahead && at >= 0 && at + length <= ahead.bytes.length) return ahead.bytes.slice(at, at + length);
    if (length >= window) return read(offset, length);
    ahead = { offset, bytes: await read(offset, window) };
    return ahead.bytes.slice(0, length);
  };
}

/** A reader of bytes [offset, offset + length) of `read`'s file, as if they were a file of their own. */
export function partReader(read: ReadAt, offset: number, length: number): ReadAt {
  return (o, l) => read(offset + o, Math.max(0, Math.min(l, length - o)));
}

/** Patches found through partReader(…, offset, …), as offsets in the whole file. */
export function inWhole(patches: readonly BytePatch[], offset: number): BytePatch[] {
  return patches.map((p) => ({ offset: offset + p.offset, bytes: p.bytes }));
}

/** Reads exactly `length` bytes or fails: a structure that points past the end cannot be trusted. */
export async function readExactly(read: ReadAt, offset: number, length: number): Promise<Uint8Array> {
  if (length > MAX_BLOCK_BYTES) throw new Unreadable('metadata block too large');
  const bytes = await read(offset, length);
  if (bytes.length !== length) throw new Unreadable('structure runs past the end');
  return bytes;
}

/** The smallest patch that turns `before` (read at `offset`) into `after`, or null when nothing changed. */
export function diffPatch(before: Uint8Array, after: Uint8Array, offset: number): BytePatch | null {
  let first = 0;
  while (first < before.length && before[first] === after[first]) first++;
  if (first === before.length) return null;
  let last = before.length - 1;
  while (last > first && before[last] === after[last]) last--;
  return { offset: offset + first, bytes: after.slice(first, last + 1) };
}

/** Blanks a copy of `block` (read at `offset`) with `blank` and adds the patch for what changed. */
export function patchBlock(patches: BytePatch[], block: Uint8Array, offset: number, blank: (copy: Uint8Array) => boolean): void {
  const copy = block.slice();
  if (!blank(copy)) return;
  const patch = diffPatch(block, copy, offset);
  if (patch) patches.push(patch);
}

/** Zeroes the bytes [start, end) of the file, padding or vendor data that may hide a place, when any is not zero. */
export async function zeroed(read: ReadAt, block: { start: number; end: number }, patches: BytePatch[]): Promise<void> {
  patchBlock(patches, await readExactly(read, block.start, block.end - block.start), block.start, (b) => {
    const had = b.some((x) => x !== 0);
    b.fill(0);
    return had;
  });
}

/** What a walker found: the patches, or why there are none (`none`, or `unsupported` for a block it cannot edit). */
export interface Walked {
  outcome: Exclude<LocationOutcome, 'removed'>;
  patches: BytePatch[];
}

/** Walks a file, read through `read`, for the patches that take its place out. */
export type Walker = (read: ReadAt, size: number) => Promise<Walked>;

export function ascii(bytes: Uint8Array, at: number, length: number): string {
  let s = '';
  for (let i = at; i < at + length && i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}


/** The unsigned 32-bit number at `at`, little-endian when `le`. */
export function readU32(bytes: Uint8Array, at: number, le: boolean): number {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(at, le);
}

/** A classic TIFF's first four bytes ("II*\0" or "MM\0*"). */
export function isTiffMagic(h: Uint8Array): boolean {
  return (h[0] === 0x49 && h[1] === 0x49 && h[2] === 0x2a && h[3] === 0) || (h[0] === 0x4d && h[1] === 0x4d && h[2] === 0 && h[3] === 0x2a);
}
