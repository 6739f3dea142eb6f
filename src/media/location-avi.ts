/**
 * [Note: Location in an AVI file]
 * AVI (RIFF) has no standard field for a place, but a place can be in one: an XMP packet (`_PMX`, as Adobe's tools
 * write it), INFO text tags (a country, an "archival location"), vendors' data in `JUNK`, EXIF in a stream's
 * codec data (`strd`), and a text stream beside the video (dashcams write their GPS track as one). So:
 * - `_PMX` is blanked as a photo's XMP is;
 * - INFO tags are kept only where they hold no place (title, comment, artist, copyright, dates, software,
 *   keywords…); every other one (IARL, ICNT, and any not known) has its text zeroed, its length kept;
 * - `JUNK`, padding by definition, has its content zeroed (cameras keep maker data there);
 * - streams must be video or audio, and their codec data hold no EXIF: anything else may carry a place, and the
 *   file is `unsupported`;
 * - `movi` (the media) and `idx1` (its index) are skipped, never read; so is every extension part (`AVIX`) of
 *   an OpenDML file, which holds media only.
 * Any other chunk, where a chunk runs past its parent, or a block too large to read makes the file `unsupported`:
 * what cannot be walked is never said to be clean.
 */
import { blankXmpLocation, Unreadable } from './location-blanking';
import { ascii, patchBlock, readExactly, readU32, type BytePatch, type ReadAt, type Walked, zeroed } from './location-read';

/** INFO tags that hold no place: what they say is kept. */
const PLACELESS_INFO = new Set([
  'INAM', 'ICMT', 'IART', 'ICOP', 'ICRD', 'ISFT', 'IENG', 'IGNR', 'IKEY', 'ISBJ', 'ISRC', 'ITCH', 'IPRD', 'ILNG',
  'IPRT', 'ITRK', 'IMED', 'ISRF', 'IDPI', 'ICRP', 'IDIM', 'ILGT', 'IPLT', 'ISHP', 'ICMS', 'ISTR', 'IWRI', 'IPRO',
  'IEDT', 'IMUS', 'IENC', 'IDIT', 'ISMP', 'IRTD', 'ISGN', 'IBSU', 'ICDS', 'ICNM', 'IPDS', 'IPRO', 'ISTD', 'ITOC',
]);
/** What a stream list holds besides its header, codec data and padding. */
const STREAM_PARTS = new Set(['strf', 'strn', 'indx', 'vprp']);
/** A stream's codec data that is a camera's EXIF (Casio, Pentax, Nikon write it so). */
const EXIF_DATA = /^(AVIF|Exif|II\*\0|MM\0\*)/;

interface Chunk {
  id: string;
  /** The list type of a `LIST` (or `RIFF`) chunk. */
  form: string;
  at: number;
  start: number;
  end: number;
}

const u32 = (b: Uint8Array, at: number) => readU32(b, at, true);

/** The chunks of the file from `from` to `to`, header by header; what is left that cannot hold a header is padding. */
async function* chunksAt(read: ReadAt, from: number, to: number): AsyncGenerator<Chunk> {
  let at = from;
  while (at + 8 <= to) {
    const h = await readExactly(read, at, Math.min(12, to - at));
    const length = u32(h, 4);
    const start = at + 8;
    const end = start + length;
    if (end > to) throw new Unreadable('RIFF chunk runs past its parent');
    const id = ascii(h, 0, 4);
    yield { id, form: (id === 'LIST' || id === 'RIFF') && length >= 4 ? ascii(h, 8, 4) : '', at, start, end };
    at = end + (length & 1);
  }
}

/** The place patches of an AVI file. */
export async function aviPatches(read: ReadAt, size: number): Promise<Walked> {
  const patches: BytePatch[] = [];
  for await (const riff of chunksAt(read, 0, size)) {
    if (riff.id !== 'RIFF') throw new Unreadable('not a RIFF chunk at the top');
    if (riff.form === 'AVIX') continue;
    if (riff.form !== 'AVI ') throw new Unreadable('a RIFF form that is not AVI');
    for await (const c of chunksAt(read, riff.start + 4, riff.end)) {
      if (c.id === 'LIST' && c.form === 'hdrl') await headerList(read, c, patches);
      else if (c.id === 'LIST' && c.form === 'INFO') await infoList(read, c, patches);
      else if ((c.id === 'LIST' && c.form === 'movi') || c.id === 'idx1' || c.id === 'IDIT' || c.id === 'ISMP') continue;
      else if (c.id === 'JUNK') await zeroed(read, c, patches);
      else if (c.id === '_PMX') patchBlock(patches, await readExactly(read, c.start, c.end - c.start), c.start, (b) => blankXmpLocation(b, 0, b.length));
      else throw new Unreadable(`an AVI chunk not walked: ${c.id} ${c.form}`);
    }
  }
  return { outcome: 'none', patches };
}

/** The main header and the streams: video and audio only, their codec data no camera's EXIF. */
async function headerList(read: ReadAt, hdrl: Chunk, patches: BytePatch[]): Promise<void> {
  for await (const c of chunksAt(read, hdrl.start + 4, hdrl.end)) {
    if (c.id === 'JUNK') await zeroed(read, c, patches);
    if (c.id === 'avih' || c.id === 'JUNK' || (c.id === 'LIST' && c.form === 'odml')) continue;
    if (c.id !== 'LIST' || c.form !== 'strl') throw new Unreadable(`a header chunk not walked: ${c.id} ${c.form}`);
    for await (const s of chunksAt(read, c.start + 4, c.end)) {
      if (s.id === 'strh') {
        const type = ascii(await readExactly(read, s.start, Math.min(4, s.end - s.start)), 0, 4);
        if (type !== 'vids' && type !== 'auds') throw new Unreadable(`a stream of type ${type}`);
      } else if (s.id === 'strd') {
        if (EXIF_DATA.test(ascii(await read(s.start, Math.min(8, s.end - s.start)), 0, 8))) throw new Unreadable('EXIF in a stream');
      } else if (s.id === 'JUNK') {
        await zeroed(read, s, patches);
      } else if (!STREAM_PARTS.has(s.id)) {
        throw new Unreadable(`a stream chunk not walked: ${s.id}`);
      }
    }
  }
}

/** INFO tags that may name a place have their text zeroed. */
async function infoList(read: ReadAt, info: Chunk, patches: BytePatch[]): Promise<void> {
  for await (const c of chunksAt(read, info.start + 4, info.end)) {
    if (!PLACELESS_INFO.has(c.id)) await zeroed(read, c, patches);
  }
}
