/**
 * [Note: Previews inside raw photos]
 * A camera raw file holds, beside the sensor data, the JPEGs the camera made for its own screen: a small
 * thumbnail and a preview (often full size). A thumbnail made from the largest of them looks like the photo the
 * camera showed, without demosaicing 20–80 MB of sensor data. Where each format keeps them:
 *   - DNG: IFD0 and its SubIFDs; a preview is an IFD of NewSubfileType 1 (reduced resolution) compressed as
 *     JPEG (7, or 6 as old-style JPEG), in one strip or behind JPEGInterchangeFormat (0x201/0x202);
 *   - CR2: IFD0's strip is the preview, IFD1 the thumbnail (0x201/0x202); IFD3's strip is the sensor data, a
 *     lossless JPEG;
 *   - NEF: a SubIFD (0x14A) with 0x201/0x202; ARW: IFD0 and IFD1 with 0x201/0x202, the SubIFD holds the raw.
 *     Both are plain TIFF by their header: what makes them raws is an IFD of sensor data (PhotometricInterpretation
 *     CFA or LinearRaw), which a scanned or edited TIFF never has; such a TIFF is decoded whole, not here;
 *   - ORF (magic "IIRO", "MMOR", "IIRS"): the Olympus maker note (0x927C in the EXIF IFD) starts with
 *     "OLYMPUS\0" (or "OM SYSTEM\0") and a TIFF byte order; its CameraSettings IFD (0x2020) gives
 *     PreviewImageStart (0x101) and its length (0x102), offsets counted from the maker note's first byte;
 *   - RW2 (magic "IIU\0"): IFD0 tag 0x2E is a whole JPEG, with its own EXIF;
 *   - RAF: a big-endian header whose offset 84 and length 88 locate the JPEG;
 *   - CR3 (ISO base media, brand "crx "): the top-level uuid box EAF42B5E-… holds a PRVW box with a preview,
 *     the Canon uuid box in the movie box a THMB thumbnail and CMT1 (IFD0), and the first track's only sample
 *     is a full-size JPEG (its stco and stsz).
 * Every JPEG the format points at is a candidate. One is kept only when it lies inside the file, starts with
 * SOI, and its frame is 8-bit baseline or progressive Huffman (SOF0, SOF1, SOF2) with a plausible size: the
 * sensor data of a CR2 or DNG is a lossless JPEG (SOF3), and arithmetic coding or 12-bit samples are not
 * decoded by browsers. The one with the most pixels wins.
 * The orientation is the raw's own (IFD0's 0x112; CMT1 in a CR3): an embedded JPEG's EXIF, when it has one,
 * need not agree with it. A RAF header has none, its JPEG's EXIF being the raw's EXIF; a RW2's IFD0 may leave it
 * to its JPEG's EXIF too.
 * Only the slices that hold structure are read; every count, chain and nesting is bounded, and an IFD is
 * visited once, so a loop of offsets ends.
 * The readers: raw-tiff.ts (the TIFF-based formats), raw-cr3.ts, raw-jpeg.ts (the frame of each candidate);
 * a RAF's header is read here.
 */
import { ascii, readU32 as u32 } from './location-read';
import { cr3 } from './raw-cr3';
import { jpegFrame } from './raw-jpeg';
import { MAX_CANDIDATES, Source, u16, type Candidate, type Found } from './raw-source';
import { jpegOrientation, Tiff, tiffFormat } from './raw-tiff';

export interface RawPreview {
  /** The embedded JPEG's bytes, exactly as stored (a Blob slice of the original). */
  jpeg: Blob;
  /** The RAW's own EXIF orientation, 1–8 (1 when absent or invalid); the embedded JPEG's own EXIF orientation, if any, must be ignored by the caller. */
  orientation: number;
  /** The preview's pixel size read from its SOF marker. */
  width: number;
  height: number;
}

/** Plausible preview sides: no camera's JPEG is narrower or longer than these, nor stretched further. */
const MIN_SIDE = 8;
const MAX_SIDE = 32_768;
const MAX_ASPECT = 8;

/** Null when the file is not a RAW this understands or holds no usable JPEG preview. Never throws for bad content; reads only the slices it needs (RAWs are 20–80 MB). */
export async function findRawPreview(blob: Blob): Promise<RawPreview | null> {
  const file = new Source(blob);
  try {
    const found = await candidates(file);
    if (!found) return null;
    let best: { candidate: Candidate; width: number; height: number } | null = null;
    for (const candidate of found.candidates.slice(0, MAX_CANDIDATES)) {
      const frame = await jpegFrame(file, candidate);
      if (!frame || !plausible(frame.width, frame.height)) continue;
      const pixels = frame.width * frame.height;
      const bestPixels = best ? best.width * best.height : 0;
      // Of two of the same size, the longer was compressed less.
      if (pixels > bestPixels || (best && pixels === bestPixels && candidate.length > best.candidate.length)) {
        best = { candidate, width: frame.width, height: frame.height };
      }
    }
    if (!best) return null;
    const { offset, length } = best.candidate;
    return { jpeg: blob.slice(offset, offset + length), orientation: await found.orientation(), width: best.width, height: best.height };
  } catch {
    // A read the file refuses (it changed on disk, say) leaves nothing to show: the caller falls back.
    return null;
  }
}

async function candidates(file: Source): Promise<Found | null> {
  const head = await file.bytes(0, Math.min(file.size, 96));
  if (!head || head.length < 16) return null;
  if (ascii(head, 0, 15) === 'FUJIFILMCCD-RAW') return raf(file, head);
  if (ascii(head, 4, 8) === 'ftypcrx ') return cr3(file);
  const order = ascii(head, 0, 2);
  if (order !== 'II' && order !== 'MM') return null;
  const le = order === 'II';
  const magic = u16(head, 2, le);
  const ifd0 = u32(head, 4, le);
  const tiff = new Tiff(file, 0, le);
  if (magic === 0x4f52 || magic === 0x5352) return tiffFormat(tiff, ifd0, 'orf');
  if (magic === 0x55 && le) return tiffFormat(tiff, ifd0, 'rw2');
  if (magic !== 42) return null;
  if (ascii(head, 8, 2) === 'CR') return tiffFormat(tiff, ifd0, 'cr2');
  const first = await tiff.ifd(ifd0);
  if (!first) return null;
  return tiffFormat(tiff, ifd0, first.has(0xc612) ? 'dng' : 'tiff');
}

// ---- RAF -------------------------------------------------------------------------------------------------

function raf(file: Source, head: Uint8Array): Found | null {
  if (head.length < 92) return null;
  const jpeg = { offset: u32(head, 84, false), length: u32(head, 88, false) };
  return { candidates: [jpeg], orientation: async () => (await jpegOrientation(file, jpeg)) ?? 1 };
}

function plausible(width: number, height: number): boolean {
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  return short >= MIN_SIDE && long <= MAX_SIDE && long <= short * MAX_ASPECT;
}
