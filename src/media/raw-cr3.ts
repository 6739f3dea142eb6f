/** Canon's CR3 (ISO base media): the preview, thumbnail and full-size JPEGs in its boxes ([Note: Previews inside raw photos]). */
import { boxes, type Box } from './location-boxes';
import { ascii, readU32 as u32 } from './location-read';
import { hex, type Candidate, type Found, type Source } from './raw-source';
import { Tiff } from './raw-tiff';

/** Top-level boxes of a CR3: ftyp, moov, three uuid boxes and mdat. */
const MAX_TOP_BOXES = 64;
/** A CR3's movie box is some hundred kilobytes (the maker notes and the thumbnail); it is read whole. */
const MAX_MOOV_BYTES = 8 * 1024 * 1024;
const CR3_PREVIEW_UUID = 'eaf42b5e1c984b88b9fbb7dc406e4d16';
const CANON_UUID = '85c0b687820f11e08111f4ce462b6a48';

export async function cr3(file: Source): Promise<Found> {
  const found: Candidate[] = [];
  let cmt1: Tiff | null = null;
  for (const box of await topLevelBoxes(file)) {
    if (box.type === 'uuid') {
      const head = await file.bytes(box.start, 0x30);
      if (!head || hex(head, 0, 16) !== CR3_PREVIEW_UUID || ascii(head, 0x1c, 4) !== 'PRVW') continue;
      // After the uuid: two words, then the PRVW box: a word, the size, a word, and the JPEG's length.
      found.push({ offset: box.start + 0x30, length: Math.min(u32(head, 0x2c, false), box.end - box.start - 0x30) });
    } else if (box.type === 'moov' && box.end - box.start <= MAX_MOOV_BYTES) {
      const moov = await file.bytes(box.start, box.end - box.start);
      if (!moov) continue;
      const inMoov = safeBoxes(moov, 0, moov.length);
      const canon = inMoov.find((b) => b.type === 'uuid' && b.end - b.start >= 16 && hex(moov, b.start, 16) === CANON_UUID);
      for (const b of canon ? safeBoxes(moov, canon.start + 16, canon.end) : []) {
        if (b.type === 'CMT1' && b.end - b.start >= 8) {
          const order = ascii(moov, b.start, 2);
          if (order === 'II' || order === 'MM') cmt1 = new Tiff(file, box.start + b.start, order === 'II');
        } else if (b.type === 'THMB' && b.end - b.start >= 16) {
          // Version and flags, width, height, the JPEG's length, two words, then the JPEG.
          found.push({ offset: box.start + b.start + 16, length: Math.min(u32(moov, b.start + 8, false), b.end - b.start - 16) });
        }
      }
      const track = inMoov.find((b) => b.type === 'trak');
      const sample = track ? firstSample(moov, track) : null;
      if (sample) found.push(sample);
    }
  }
  return {
    candidates: found,
    orientation: async () => {
      if (!cmt1) return 1;
      const head = await file.bytes(cmt1.base, 8);
      return (head && (await cmt1.orientation(await cmt1.ifd(u32(head, 4, cmt1.le))))) ?? 1;
    },
  };
}

/** The file's top-level boxes from their headers alone; a box cut short by the end of the file ends the list. */
async function topLevelBoxes(file: Source): Promise<Box[]> {
  const out: Box[] = [];
  let at = 0;
  while (at + 8 <= file.size && out.length < MAX_TOP_BOXES) {
    const h = await file.bytes(at, Math.min(16, file.size - at));
    if (!h) break;
    let size = u32(h, 0, false);
    let header = 8;
    if (size === 1) {
      if (h.length < 16) break;
      size = u32(h, 8, false) * 2 ** 32 + u32(h, 12, false);
      header = 16;
    } else if (size === 0) size = file.size - at;
    if (size < header || at + size > file.size) break;
    out.push({ type: ascii(h, 4, 4), start: at + header, end: at + size });
    at += size;
  }
  return out;
}

function safeBoxes(bytes: Uint8Array, from: number, to: number): Box[] {
  try {
    return boxes(bytes, from, to);
  } catch {
    return [];
  }
}

/** The first sample of a track (trak → mdia → minf → stbl: its first chunk offset and first sample size). */
function firstSample(moov: Uint8Array, track: Box): Candidate | null {
  let box: Box | undefined = track;
  for (const type of ['mdia', 'minf', 'stbl']) {
    box = box ? safeBoxes(moov, box.start, box.end).find((b) => b.type === type) : undefined;
  }
  if (!box) return null;
  const table = safeBoxes(moov, box.start, box.end);
  const stsz = table.find((b) => b.type === 'stsz');
  const chunks = table.find((b) => b.type === 'stco' || b.type === 'co64');
  if (!stsz || !chunks || stsz.end - stsz.start < 12 || chunks.end - chunks.start < 8 || u32(moov, chunks.start + 4, false) === 0) return null;
  const fixed = u32(moov, stsz.start + 4, false);
  if (fixed === 0 && (u32(moov, stsz.start + 8, false) === 0 || stsz.end - stsz.start < 16)) return null;
  const length = fixed !== 0 ? fixed : u32(moov, stsz.start + 12, false);
  if (chunks.type === 'stco') return chunks.end - chunks.start >= 12 ? { offset: u32(moov, chunks.start + 8, false), length } : null;
  if (chunks.end - chunks.start < 16) return null;
  return { offset: u32(moov, chunks.start + 8, false) * 2 ** 32 + u32(moov, chunks.start + 12, false), length };
}

