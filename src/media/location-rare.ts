/**
 * The walkers of containers rare among uploads: videos other than MP4 and MOV (Matroska and WebM, AVI, MPEG
 * transport and program streams, Flash, Windows Media) and Fujifilm's RAF. Loaded with the first file the common
 * walkers of location-patches.ts do not know; each walker loads with the first file of its kind.
 */
import { ascii, type ReadAt, type Walked, type Walker } from './location-read';

/** What the rare walkers borrow from the common ones: a picture inside a video, a raw's preview and TIFF structure. */
export interface CommonWalkers {
  walkerFor(head: Uint8Array): Walker | null;
  jpeg: Walker;
  tiff: Walker;
}

/** The walker for a file by its first bytes, or null when none knows it. */
export function rareWalkerFor(head: Uint8Array, common: CommonWalkers): Walker | null {
  if (isMatroska(head)) return async (read, size) => (await import('./location-matroska')).matroskaPatches(read, size, (r, n) => attachedPicture(r, n, common));
  if (isAvi(head)) return async (read, size) => (await import('./location-avi')).aviPatches(read, size);
  if (isRaf(head)) return async (read, size) => (await import('./location-raf')).rafPatches(read, size, common.jpeg, common.tiff);
  if (isFlv(head)) return async (read, size) => (await import('./location-flv')).flvPatches(read, size);
  if (isAsf(head)) return async (read, size) => (await import('./location-asf')).asfPatches(read, size);
  if (isProgramStream(head)) return async (read, size) => (await import('./location-mpegps')).mpegPsPatches(read, size);
  if (mayBeTransportStream(head)) return transportStream;
  return null;
}

const transportStream: Walker = async (read, size) => {
  const m = await import('./location-mpegts');
  return (await m.isTransportStream(read, size)) ? m.mpegTsPatches(read, size) : { outcome: 'unsupported', patches: [] };
};

/** A picture attached to a Matroska file (its cover), walked as any picture; null when it is no picture known here. */
async function attachedPicture(read: ReadAt, size: number, common: CommonWalkers): Promise<Walked | null> {
  const walker = common.walkerFor(await read(0, 16));
  return walker ? walker(read, size) : null;
}

const isAvi = (h: Uint8Array) => ascii(h, 0, 4) === 'RIFF' && ascii(h, 8, 4) === 'AVI ';
const isRaf = (h: Uint8Array) => ascii(h, 0, 15) === 'FUJIFILMCCD-RAW';
/** Matroska and WebM: the EBML magic. */
const isMatroska = (h: Uint8Array) => h[0] === 0x1a && h[1] === 0x45 && h[2] === 0xdf && h[3] === 0xa3;
const isFlv = (h: Uint8Array) => ascii(h, 0, 3) === 'FLV';
/** ASF (WMV, WMA): the header object's GUID, 75B22630-668E-11CF-A6D9-00AA0062CE6C, as written. */
const isAsf = (h: Uint8Array) => [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9, 0x00, 0xaa, 0x00, 0x62, 0xce, 0x6c].every((b, i) => h[i] === b);
/** An MPEG program stream: a pack header first. */
const isProgramStream = (h: Uint8Array) => h[0] === 0 && h[1] === 0 && h[2] === 1 && h[3] === 0xba;
/** An MPEG transport stream's sync byte, first or after a 4-byte time code (told for sure in location-mpegts.ts). */
const mayBeTransportStream = (h: Uint8Array) => h[0] === 0x47 || h[4] === 0x47;
