/**
 * A camcorder's AVCHD video made packet by packet, for tests of location removal ([Note: Location in an MPEG
 * transport stream] in media/location-mpegts.ts): an MPEG transport stream whose H.264 frames each carry the GPS
 * fix in their SEI, as Sony's MDPM data, which ExifTool reads. The frames hold no real picture.
 */
import { escapeRbsp } from '../media/location-mpegts';

const PAT_PID = 0;
const PMT_PID = 0x100;
export const VIDEO_PID = 0x1011;
const AUDIO_PID = 0x1100;
const MDPM_UUID = [0x17, 0xee, 0x8c, 0x60, 0xf8, 0x4d, 0x11, 0xd9, 0x8c, 0xd6, 0x08, 0x00, 0x20, 0x0c, 0x9a, 0x66];

/** MPEG-2's CRC-32 of a table section. */
function crc32mpeg(bytes: readonly number[]): number[] {
  let crc = 0xffffffff;
  for (const b of bytes) {
    crc ^= b << 24;
    for (let k = 0; k < 8; k++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  crc >>>= 0;
  return [crc >>> 24, (crc >>> 16) & 255, (crc >>> 8) & 255, crc & 255];
}

function section(tableId: number, body: number[]): number[] {
  const length = body.length + 4;
  const head = [tableId, 0xb0 | (length >> 8), length & 255, ...body];
  return [...head, ...crc32mpeg(head)];
}

const pid13 = (pid: number) => [0xe0 | (pid >> 8), pid & 255];

/** The transport stream packets (188 bytes, or 192 with a time code before each) carrying `payload` on `pid`. */
export function packets(pid: number, payload: number[], counter: { n: number }, prefix: boolean): number[][] {
  const out: number[][] = [];
  for (let at = 0; at < payload.length || at === 0; ) {
    const chunk = payload.slice(at, at + 184);
    const start = at === 0;
    const stuffing = 184 - chunk.length;
    const header = [0x47, (start ? 0x40 : 0) | (pid >> 8), pid & 255, (stuffing > 0 ? 0x30 : 0x10) | (counter.n++ & 15)];
    const adaptation = stuffing === 0 ? [] : stuffing === 1 ? [0] : [stuffing - 1, 0, ...Array(stuffing - 2).fill(0xff)];
    out.push([...(prefix ? [0, 0, 0, 0] : []), ...header, ...adaptation, ...chunk]);
    at += chunk.length;
    if (chunk.length === 0) break;
  }
  return out;
}

/** BCD of a two-digit number. */
const bcd = (n: number) => ((Math.floor(n / 10) % 10) << 4) | n % 10;

/** A Sony camcorder's MDPM list: date, then the GPS fix (a place in Paris), then the make and model. */
function mdpmEntries(second: number): number[][] {
  const rational = (num: number, den: number) => [num >> 8, num & 255, den >> 8, den & 255];
  return [
    [0x18, 0x00, 0x20, 0x24, 0x07], // DateTimeOriginal: time zone, 2024-07
    [0x19, bcd(14), bcd(18), bcd(30), bcd(second)], // …-14 18:30:ss
    [0xb0, 2, 2, 0, 0], // GPSVersionID
    [0xb1, 0x4e, 0, 0, 0], // GPSLatitudeRef N (three zeros: escaped in the stream)
    [0xb2, ...rational(48, 1)],
    [0xb3, ...rational(51, 1)],
    [0xb4, ...rational(2960, 100)],
    [0xb5, 0x45, 0, 0, 0], // GPSLongitudeRef E
    [0xb6, ...rational(2, 1)],
    [0xb7, ...rational(17, 1)],
    [0xb8, ...rational(4020, 100)],
    [0xc7, 0x57, 0x47, 0x53, 0x2d], // GPSMapDatum "WGS-"
    [0xc8, 0x38, 0x34, 0, 0], // "84"
    [0xe0, 0x01, 0x08, 0x00, 0x00], // MakeModel: Sony (0x0108)
    [0xe4, 0x48, 0x44, 0x52, 0x2d], // Model "HDR-"
    [0xe5, 0x43, 0x58, 0x37, 0x30], // "CX70"
    [0xe6, 0x30, 0x00, 0x00, 0x00], // "0"
  ];
}

/** An SEI's unregistered user data with the MDPM list of frame `second`. */
function mdpmPayload(second: number): number[] {
  const entries = mdpmEntries(second);
  return [...MDPM_UUID, 0x4d, 0x44, 0x50, 0x4d, entries.length, ...entries.flat()];
}

/** One frame's video bytes: an access unit delimiter, the SEI (an MDPM list), and a slice of no real picture. */
function frame(second: number, payload = mdpmPayload(second)): number[] {
  const sei = [0x06, ...escapeRbsp([0x05, payload.length, ...payload, 0x80])];
  const slice = [0x65, 0x88, ...Array.from({ length: 600 }, (_, i) => 0x10 + ((i * 37 + second) % 200))];
  return [0, 0, 0, 1, 0x09, 0xf0, 0, 0, 1, ...sei, 0, 0, 1, ...slice];
}

/** A PES packet of video starting with a header and its time stamp. */
export const pes = (es: number[]) => [0, 0, 1, 0xe0, 0, 0, 0x80, 0x80, 5, 0x21, 0, 1, 0, 1, ...es];

/**
 * An AVCHD-like stream: PAT, PMT (H.264 video, AC-3 audio), then `frames` video frames, each in its own PES packet
 * after a filler NAL unit longer each frame (so the SEIs land across packet boundaries), with audio packets between
 * them. `sei` makes each frame's SEI payload (MDPM by default).
 */
export function transportStream({ frames = 12, prefix = true, extraStreamType, sei }: { frames?: number; prefix?: boolean; extraStreamType?: number; sei?: (f: number) => number[] } = {}): Uint8Array<ArrayBuffer> {
  const counters = new Map<number, { n: number }>();
  const counter = (pid: number) => counters.get(pid) ?? counters.set(pid, { n: 0 }).get(pid)!;
  const out: number[][] = [];
  out.push(...packets(PAT_PID, [0, ...section(0x00, [0, 1, 0xc1, 0, 0, 0, 1, ...pid13(PMT_PID)])], counter(PAT_PID), prefix));
  const streams = [[0x1b, ...pid13(VIDEO_PID), 0xf0, 0], [0x81, ...pid13(AUDIO_PID), 0xf0, 0], ...(extraStreamType ? [[extraStreamType, ...pid13(0x1200), 0xf0, 0]] : [])];
  out.push(...packets(PMT_PID, [0, ...section(0x02, [0, 1, 0xc1, 0, 0, ...pid13(VIDEO_PID), 0xf0, 0, ...streams.flat()])], counter(PMT_PID), prefix));
  for (let f = 0; f < frames; f++) {
    // A few bytes of filler NAL before the SEI, more each frame, so that it lands across packet boundaries.
    const filler = [0, 0, 1, 0x0c, ...Array(f * 17).fill(0xff)];
    out.push(...packets(VIDEO_PID, pes([...filler, ...frame(f, sei?.(f))]), counter(VIDEO_PID), prefix));
    out.push(...packets(AUDIO_PID, [0, 0, 1, 0xbd, 0, 8, 0x80, 0x80, 5, 0x21, 0, 1, 0, 1, 0x0b, 0x77, 1, 2, 3, 4, 5, 6], counter(AUDIO_PID), prefix));
  }
  return Uint8Array.from(out.flat());
}
