/**
 * Location in Fujifilm RAF files ([Note: Location in a Fujifilm RAF] in location-raf.ts): a RAF whose JPEG preview
 * and TIFF sensor data both carry GPS; ExifTool reads the place before and none after, the rest as it was.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exiftoolReader } from '../testing/exiftool-files';
import { findLocationPatches, withPatches } from './location-patches';

const fixture = (name: string) => readFileSync(new URL(`../../tests/fixtures/${name}`, import.meta.url));
const blob = (bytes: Uint8Array) => new Blob([new Uint8Array(bytes)]);

/** A RAF: the header, then `jpeg`, then `sensor` (pointed at by offsets 84/88 and 100/104). */
function raf(jpeg: Buffer, sensor: Buffer): Buffer {
  const header = Buffer.alloc(0x100);
  header.write('FUJIFILMCCD-RAW 0201FF383501', 0, 'latin1');
  header.write('X-T4', 0x1c, 'latin1');
  header.write('0100', 0x3c, 'latin1');
  header.writeUInt32BE(header.length, 84);
  header.writeUInt32BE(jpeg.length, 88);
  header.writeUInt32BE(header.length + jpeg.length, 100);
  header.writeUInt32BE(sensor.length, 104);
  return Buffer.concat([header, jpeg, sensor]);
}

const exiftool = exiftoolReader('raf');
const placeTags = (tags: Record<string, unknown>) => Object.keys(tags).filter((k) => /GPS/i.test(k));

describe('location in Fujifilm RAF', () => {
  it("blanks the GPS of its JPEG preview and of its TIFF sensor data, the camera's fields kept", async () => {
    const jpeg = fixture('orientation-6.jpg');
    const sensor = fixture('camera/camera.tiff');
    const file = raf(jpeg, sensor);
    const before = exiftool(file, 'before.raf');
    expect(before).toMatchObject({ 'File:FileType': 'RAF' });
    expect(placeTags(before).length).toBeGreaterThan(0);

    const { outcome, patches } = await findLocationPatches(blob(file));
    expect(outcome).toBe('removed');
    const out = Buffer.from(await withPatches(blob(file), patches).arrayBuffer());
    expect(out.length).toBe(file.length);
    const after = exiftool(out, 'after.raf');
    expect(placeTags(after)).toEqual([]);
    expect(after).toMatchObject({ 'File:FileType': 'RAF', 'IFD0:Make': before['IFD0:Make'], 'ExifIFD:LensModel': before['ExifIFD:LensModel'] });
    // Each part read on its own: the preview and the sensor data hold no place, and keep their camera.
    const jpegAfter = exiftool(out.subarray(0x100, 0x100 + jpeg.length), 'preview.jpg');
    const sensorAfter = exiftool(out.subarray(0x100 + jpeg.length), 'sensor.tif');
    expect([...placeTags(jpegAfter), ...placeTags(sensorAfter)]).toEqual([]);
    expect(sensorAfter).toMatchObject({ 'IFD0:Model': 'Fixture TIFF' });
  });

  it('says none for a RAF with no place, and unsupported for one whose preview points past its end', async () => {
    // A preview with no GPS, and sensor data that is the sensor's bytes alone.
    const plain = raf(fixture('xmp.jpg'), Buffer.alloc(4096, 0x55));
    expect(placeTags(exiftool(plain, 'plain.raf'))).toEqual([]);
    expect(await findLocationPatches(blob(plain))).toEqual({ outcome: 'none', patches: [] });
    const cut = raf(fixture('orientation-6.jpg'), Buffer.alloc(16)).subarray(0, 2000);
    expect((await findLocationPatches(blob(cut))).outcome).toBe('unsupported');
  });
});
