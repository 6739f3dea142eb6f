/**
 * Location in an AVCHD video ([Note: Location in an MPEG transport stream]): a camcorder's MPEG transport stream
 * whose H.264 frames each carry the GPS fix in their SEI (Sony's MDPM data, as ExifTool reads it), made here packet
 * by packet. What the upload does to an original leaves ExifTool reading no GPS tag in any frame, the date and the
 * camera as before, and every byte outside the MDPM lists as it was.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findLocationPatches, withPatches } from '../../src/media/location-patches';
import { sniffType } from '../../src/media/sniff-type';
import { packets, pes, transportStream, VIDEO_PID } from '../../src/testing/avchd-stream';

const dir = mkdtempSync(join(tmpdir(), 'shoebox-mts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Tags = Record<string, unknown>;

/** Every tag ExifTool reads from every frame (`-ee`), by group and name. */
function exiftool(bytes: Uint8Array, name: string): Tags {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  const [tags] = JSON.parse(execFileSync('exiftool', ['-j', '-a', '-G1', '-n', '-ee', path], { encoding: 'utf8' })) as Tags[];
  return tags!;
}

const placeKeys = (tags: Tags) => Object.keys(tags).filter((k) => /gps/i.test(k));

describe('an AVCHD video with its GPS fix in every frame', () => {
  it('keeps no GPS entry anywhere, and the date, camera and every other byte as they were', async () => {
    for (const prefix of [true, false]) {
      const before = transportStream({ prefix });
      // Known for what it is, a video the remover must clean before it goes up.
      expect(await sniffType(new Blob([before]))).toMatchObject({ mime: 'video/mp2t', kind: 'video' });
      const tags = exiftool(before, prefix ? 'before.mts' : 'before.ts');
      // ExifTool reads the place, in every frame.
      expect(tags['GPS:GPSLatitude']).toBeCloseTo(48.858, 2);
      expect([tags['H264:Make'], tags['H264:Model']]).toEqual([0x0108, 'HDR-CX700']); // Sony

      const { outcome, patches } = await findLocationPatches(new Blob([before]));
      expect(outcome).toBe('removed');
      const after = new Uint8Array(await withPatches(new Blob([before]), patches).arrayBuffer());
      expect(after.length).toBe(before.length);
      const tagsAfter = exiftool(after, prefix ? 'after.mts' : 'after.ts');
      expect(placeKeys(tagsAfter)).toEqual([]);
      expect(tagsAfter['ExifTool:Warning'] ?? null).toBeNull();
      expect(tagsAfter['H264:DateTimeOriginal']).toBe(tags['H264:DateTimeOriginal']);
      expect([tagsAfter['H264:Make'], tagsAfter['H264:Model']]).toEqual([0x0108, 'HDR-CX700']);
      // No coordinate is left in the bytes: the latitude's degrees and minutes (48/1, 51/1) are gone from each frame.
      const hex = Buffer.from(after).toString('hex');
      expect(hex).not.toContain('b200300001b300330001');
      expect(Buffer.from(before).toString('hex')).toContain('b200300001b300330001');
      // Only MDPM lists changed: every changed byte lies in a video packet's payload, within a list's bytes.
      const packet = prefix ? 192 : 188;
      const changed = [...before.keys()].filter((i) => before[i] !== after[i]);
      for (const i of changed) {
        const start = i - (i % packet) + (prefix ? 4 : 0);
        expect((((before[start + 1]! & 0x1f) << 8) | before[start + 2]!), `byte ${i}`).toBe(VIDEO_PID);
        expect(i - start, `byte ${i}`).toBeGreaterThanOrEqual(4);
      }
      expect(changed.length).toBeGreaterThan(12 * 20);
      expect(changed.length).toBeLessThanOrEqual(12 * (1 + 17 * 5 + 4));
      // Done once is done.
      expect((await findLocationPatches(new Blob([after]))).outcome).toBe('none');
    }
  });

  it('is unsupported when the stream carries data no table explains (a metadata stream, a PID of its own) or is cut short', async () => {
    // Drones write telemetry (KLV) as a metadata stream, type 0x15.
    expect((await findLocationPatches(new Blob([transportStream({ extraStreamType: 0x15 })]))).outcome).toBe('unsupported');
    // Dashcams put their GPS track on a PID that the program map table does not name.
    const stray = Uint8Array.from([...transportStream({ prefix: false }), ...packets(0x300, Array(184).fill(0x41), { n: 0 }, false).flat()]);
    expect((await findLocationPatches(new Blob([stray]))).outcome).toBe('unsupported');
    // A recording cut short in the middle of a packet.
    const whole = transportStream();
    expect((await findLocationPatches(new Blob([whole.subarray(0, whole.length - 100)]))).outcome).toBe('unsupported');
  });

  it("takes x264's version string as it is, and user data it does not know as a place it cannot rule out", async () => {
    const x264 = [0xdc, 0x45, 0xe9, 0xbd, 0xe6, 0xd9, 0x48, 0xb7, 0x96, 0x2c, 0xd8, 0x20, 0xd9, 0x23, 0xee, 0xef, ...Buffer.from('x264 - core 164')];
    expect(await findLocationPatches(new Blob([transportStream({ sei: () => x264 })]))).toEqual({ outcome: 'none', patches: [] });
    const unknown = [...Array(16).keys(), ...Buffer.from('lat=48.858 lon=2.294')];
    expect((await findLocationPatches(new Blob([transportStream({ sei: () => unknown })]))).outcome).toBe('unsupported');
  });

  it('a stream with no place is none, and nothing is patched', async () => {
    const counters = { n: 0 };
    const plain = transportStream({ frames: 0, prefix: false });
    const video = packets(VIDEO_PID, pes([0, 0, 0, 1, 0x09, 0xf0, 0, 0, 1, 0x65, 0x88, 1, 2, 3]), counters, false).flat();
    expect(await findLocationPatches(new Blob([Uint8Array.from([...plain, ...video])]))).toEqual({ outcome: 'none', patches: [] });
  });
});
