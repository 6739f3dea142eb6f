/**
 * [Note: Location in a Fujifilm RAF]
 * A RAF is a big-endian header that points at three parts: a JPEG preview (offset 84, length 88), whose EXIF is the
 * raw's EXIF, GPS included, and which may carry XMP; a directory of the sensor's settings (92, 96), numbered
 * records of sizes and patterns, no place among them; and the sensor data (100, 104), which newer cameras store as
 * a TIFF structure. The JPEG is walked as a JPEG, the sensor data as a TIFF when it is one (its GPS IFD and XMP, as
 * any TIFF's), else it is the sensor's bytes alone. A part that points past the end makes the file `unsupported`.
 */
import { Unreadable } from './location-blanking';
import { inWhole, isTiffMagic, partReader, readExactly, readU32, type BytePatch, type ReadAt, type Walked } from './location-read';

type Walker = (read: ReadAt, size: number) => Promise<Walked>;

const u32 = (b: Uint8Array, at: number) => readU32(b, at, false);

/** The place patches of a RAF: its JPEG's with `jpeg`, its sensor data's with `tiff` when that is a TIFF. */
export async function rafPatches(read: ReadAt, size: number, jpeg: Walker, tiff: Walker): Promise<Walked> {
  const head = await readExactly(read, 0, 108);
  const patches: BytePatch[] = [];
  let outcome: Walked['outcome'] = 'none';
  const part = async (offset: number, length: number, walk: Walker) => {
    if (offset + length > size) throw new Unreadable('a RAF part past the end');
    const found = await walk(partReader(read, offset, length), length);
    if (found.outcome === 'unsupported') outcome = 'unsupported';
    patches.push(...inWhole(found.patches, offset));
  };
  const jpegAt = u32(head, 84);
  const jpegLength = u32(head, 88);
  if (jpegAt === 0 || jpegLength === 0) throw new Unreadable('a RAF without its JPEG');
  await part(jpegAt, jpegLength, jpeg);
  const sensorAt = u32(head, 100);
  const sensorLength = u32(head, 104);
  if (sensorAt > 0 && sensorLength >= 8 && sensorAt + sensorLength <= size) {
    if (isTiffMagic(await read(sensorAt, 4))) await part(sensorAt, sensorLength, tiff);
  }
  return { outcome, patches };
}
