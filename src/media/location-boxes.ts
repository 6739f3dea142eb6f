/** The boxes of the ISO base media file format (HEIF, MP4, MOV): headers, children, the top level of a file. */
import { Unreadable } from './location-blanking';
import { ascii, readExactly, type ReadAt } from './location-read';

export interface Box {
  type: string;
  /** Where the box's content starts and ends, relative to the buffer or the file. */
  start: number;
  end: number;
}

/** The child boxes of bytes[from, to). */
export function boxes(bytes: Uint8Array, from: number, to: number): Box[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = view.getUint32(at);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) throw new Unreadable('box header');
      size = toSafe(view.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) throw new Unreadable('box runs past its parent');
    out.push({ type: ascii(bytes, at + 4, 4), start: at + header, end: at + size });
    at += size;
  }
  return out;
}

export function toSafe(n: bigint): number {
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new Unreadable('offset too large');
  return Number(n);
}

/** The top-level boxes of the file: only their headers are read. */
export async function topLevel(read: ReadAt, size: number): Promise<(Box & { at: number })[]> {
  const out: (Box & { at: number })[] = [];
  let at = 0;
  while (at + 8 <= size) {
    const h = await readExactly(read, at, 8);
    const view = new DataView(h.buffer, h.byteOffset);
    let length = view.getUint32(0);
    let header = 8;
    if (length === 1) {
      const large = await readExactly(read, at + 8, 8);
      length = toSafe(new DataView(large.buffer, large.byteOffset).getBigUint64(0));
      header = 16;
    } else if (length === 0) length = size - at;
    if (length < header || at + length > size) throw new Unreadable('box runs past the end');
    out.push({ type: ascii(h, 4, 4), at, start: at + header, end: at + length });
    at += length;
  }
  return out;
}
