/**
 * [Note: Location in an MPEG program stream]
 * An MPEG program stream (`.mpg`, `.mpeg`, `.vob`, `.mod`: DVD camcorders, older digital cameras, DVDs) has no
 * field for a place at all: it is packs of packets, each packet of one stream, told by its stream id. A place
 * could only be in a stream of its own: a metadata stream (0xFC), a program stream map's descriptors, the
 * streams of other standards (DSM-CC, ITU-T H.222.1, IPMP, extended ids). So the whole file is walked, pack by
 * pack and packet by packet, reading only their headers, and it is clean (`none`) when every packet is video
 * (0xE0–0xEF), audio (0xC0–0xDF), DVD audio, subtitles and navigation (the private streams 0xBD and 0xBF) or
 * padding; a packet of any other stream, or bytes that are neither a pack nor a packet, make it `unsupported`.
 * Nothing is changed. A last packet cut short by a recording that stopped is the media's; zeros padding out a
 * disc's last sector are skipped.
 */
import { Unreadable } from './location-blanking';
import { readExactly, readingAhead, type ReadAt, type Walked } from './location-read';

const PACK = 0xba;
const SYSTEM_HEADER = 0xbb;
const PROGRAM_END = 0xb9;
/** Read through a file's packs a mebibyte at a time. */
const WINDOW_BYTES = 1024 * 1024;

/** Streams that hold no place: DVD audio and subtitles (private 1), padding, DVD navigation (private 2), audio, video. */
const isPlaceless = (id: number) => id === 0xbd || id === 0xbe || id === 0xbf || (id >= 0xc0 && id <= 0xef);

/** The place patches of an MPEG program stream: none, or `unsupported` when it may hold a place. */
export async function mpegPsPatches(read: ReadAt, size: number): Promise<Walked> {
  const r = readingAhead(read, WINDOW_BYTES);
  let at = 0;
  while (at < size) {
    const h = await r(at, 16);
    if (!(h[0] === 0 && h[1] === 0 && h[2] === 1)) {
      at = await pastZeros(r, at, size);
      continue;
    }
    if (h.length < 4) throw new Unreadable('an MPEG start code cut short');
    const id = h[3]!;
    if (id === PROGRAM_END) {
      at += 4;
    } else if (id === PACK) {
      at += packLength(await readExactly(r, at, Math.min(14, size - at)));
    } else if (id === SYSTEM_HEADER || isPlaceless(id)) {
      if (h.length < 6) throw new Unreadable('an MPEG packet header cut short');
      const end = at + 6 + ((h[4]! << 8) | h[5]!);
      if (end > size && id !== SYSTEM_HEADER) break;
      at = end;
    } else {
      throw new Unreadable(`an MPEG stream that may hold a place: 0x${id.toString(16)}`);
    }
  }
  return { outcome: 'none', patches: [] };
}

/** A pack header's length: MPEG-2's 14 bytes and its stuffing, or MPEG-1's 12. */
function packLength(h: Uint8Array): number {
  if ((h[4]! & 0xc0) === 0x40) {
    if (h.length < 14) throw new Unreadable('an MPEG pack header cut short');
    return 14 + (h[13]! & 0x07);
  }
  if ((h[4]! & 0xf0) === 0x20) return 12;
  throw new Unreadable('an MPEG pack header of no known version');
}

/** Past a run of zero bytes, to the next start code or the end; anything else is not an MPEG program stream. */
async function pastZeros(read: ReadAt, from: number, size: number): Promise<number> {
  let at = from;
  while (at < size) {
    const bytes = await read(at, Math.min(WINDOW_BYTES, size - at));
    const other = bytes.findIndex((b) => b !== 0);
    if (other < 0) {
      at += bytes.length;
      continue;
    }
    // Zeros, then a start code (two of them and its 0x01): at least one zero is passed, so the walk goes on.
    if (bytes[other] === 1 && at + other - from >= 3) return at + other - 2;
    throw new Unreadable('bytes that are neither an MPEG pack nor a packet');
  }
  return size;
}
