/**
 * [Note: Location in an MPEG transport stream]
 * Camcorders that write AVCHD (`.MTS`, `.M2TS`: an MPEG-2 transport stream of 192-byte packets) keep their GPS
 * fix in the H.264 video itself: in every frame, a supplemental enhancement information (SEI) message of
 * unregistered user data whose UUID is 17ee8c60-f84d-11d9-8cd6-0800200c9a66, followed by `MDPM` ("modified DV
 * pack metadata") and a list of 5-byte entries: a tag, then 4 bytes. Tags 0xb0–0xcf are the GPS ones (version,
 * latitude, longitude, altitude, time, speed, direction, datum, date), as ExifTool's H264 module reads them;
 * the others say the date, the exposure and the camera. So:
 * - the stream is walked packet by packet (188 bytes, or 192 with the 4-byte time code prefix); its tables (PAT,
 *   PMT) say which streams there are. Video, audio and subtitle streams of known types are kept; a stream of any
 *   other type (0x15 metadata, as drones write their telemetry; private data that is not known audio, teletext or
 *   subtitles), or packets on a PID no table names (dashcams write their GPS track so), make the file
 *   `unsupported`: what cannot be read is never said to be clean;
 * - in each H.264 stream every SEI NAL unit is read. Its MDPM list is rewritten in place: the entries that are
 *   not GPS move up, the count is lowered to theirs, and the freed bytes become 0xff, so no coordinates are left
 *   in the bytes and every reader sees the date and camera as before. Unregistered user data other than MDPM and
 *   x264's version string is unknown, and the file `unsupported`;
 * - an H.264 stream escapes any two zero bytes followed by a byte up to 3 (emulation prevention). An MDPM list
 *   holding such an escape, or one the rewrite would need, is not rewritten: the file is `unsupported`. The
 *   rewritten bytes are patched where they lie in the file, across packet boundaries as needed.
 * The whole file is read (the GPS fix is in every frame); nothing is written but those bytes.
 */
import { Unreadable } from './location-blanking';
import { readExactly, type BytePatch, type ReadAt, type Walked } from './location-read';

const SYNC = 0x47;
const TS_PACKET = 188;
/** Packets read at a time. */
const PACKETS_PER_READ = 2048;
/** An SEI NAL unit longer than this is not one a camera writes: the file is `unsupported`. */
const MAX_SEI_BYTES = 64 * 1024;

const MDPM_UUID = [0x17, 0xee, 0x8c, 0x60, 0xf8, 0x4d, 0x11, 0xd9, 0x8c, 0xd6, 0x08, 0x00, 0x20, 0x0c, 0x9a, 0x66];
const MDPM = [0x4d, 0x44, 0x50, 0x4d];
/** x264 writes its version and settings as unregistered user data with this UUID: no place in it. */
const X264_UUID = [0xdc, 0x45, 0xe9, 0xbd, 0xe6, 0xd9, 0x48, 0xb7, 0x96, 0x2c, 0xd8, 0x20, 0xd9, 0x23, 0xee, 0xef];
const isGpsTag = (tag: number) => tag >= 0xb0 && tag <= 0xcf;

/** Stream types whose packets hold pictures or sound only. H.264 (0x1b) is read for its SEI. */
const MEDIA_STREAMS = new Set([
  0x01, 0x02, 0x10, 0x24, 0x1b, // MPEG-1, MPEG-2, MPEG-4 part 2, HEVC, H.264 video
  0x03, 0x04, 0x0f, 0x11, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0xa1, 0xa2, // audio (MPEG, AAC, LPCM, AC-3, DTS, E-AC-3)
  0x90, 0x91, 0x92, // Blu-ray and AVCHD presentation and interactive graphics, text subtitles
]);
/** Descriptors that make a private-data stream (type 0x06) sound or subtitles: AC-3, E-AC-3, DTS, AAC, teletext, DVB subtitles. */
const MEDIA_DESCRIPTORS = new Set([0x6a, 0x7a, 0x7b, 0x7c, 0x56, 0x59]);
/** PIDs with a fixed meaning: the association table, conditional access, descriptions, DVB's tables, null packets. */
const isTablePid = (pid: number) => pid <= 0x1f || pid === 0x1fff;

const same = (a: Uint8Array, at: number, b: readonly number[]) => b.every((v, i) => a[at + i] === v);

/** An MPEG transport stream: a sync byte (0x47) every 188 bytes, or every 192 after a 4-byte prefix (AVCHD, Blu-ray). */
export async function isTransportStream(read: ReadAt, size: number): Promise<boolean> {
  for (const [prefix, packet] of [[0, 188], [4, 192]] as const) {
    if (size < prefix + 2 * packet + 1) continue;
    const [a, b, c] = await Promise.all([read(prefix, 1), read(prefix + packet, 1), read(prefix + 2 * packet, 1)]);
    if (a[0] === SYNC && b[0] === SYNC && c[0] === SYNC) return true;
  }
  return false;
}

/** The place patches of an MPEG transport stream (`.ts`, `.mts`, `.m2ts`). */
export async function mpegTsPatches(read: ReadAt, size: number): Promise<Walked> {
  const head = await readExactly(read, 0, Math.min(size, 8));
  const prefix = head[0] === SYNC ? 0 : head[4] === SYNC ? 4 : -1;
  if (prefix < 0) throw new Unreadable('no transport stream sync byte');
  const packet = TS_PACKET + prefix;
  const stream = new TransportStream();
  for (let at = 0; at + packet <= size; ) {
    const count = Math.min(PACKETS_PER_READ, Math.floor((size - at) / packet));
    const bytes = await readExactly(read, at, count * packet);
    for (let p = 0; p < count; p++) {
      if (!stream.packet(bytes, p * packet + prefix, at + p * packet + prefix)) return { outcome: 'unsupported', patches: [] };
    }
    at += count * packet;
  }
  // A recording cut short ends in part of a packet, which may hold part of a frame's data: not read, not clean.
  if (size % packet !== 0) return { outcome: 'unsupported', patches: [] };
  return stream.end();
}

/** What the stream's tables said, and the H.264 streams' readers. */
class TransportStream {
  private readonly pmtPids = new Set<number>();
  private readonly mediaPids = new Set<number>();
  private readonly avc = new Map<number, SeiReader>();
  private readonly patches: BytePatch[] = [];
  private unsupported = false;

  /** Takes the 188 bytes at `at` of `bytes`, which lie at `offset` in the file; false when the file cannot be cleaned. */
  packet(bytes: Uint8Array, at: number, offset: number): boolean {
    if (bytes[at] !== SYNC) throw new Unreadable('transport stream lost its sync');
    const b1 = bytes[at + 1]!;
    const pid = ((b1 & 0x1f) << 8) | bytes[at + 2]!;
    const b3 = bytes[at + 3]!;
    // A damaged or scrambled packet cannot be read: a place could be in it.
    if (b1 & 0x80 || b3 & 0xc0) return false;
    const start = (b1 & 0x40) !== 0;
    let payload = at + 4;
    if (b3 & 0x20) payload += 1 + bytes[at + 4]!;
    const end = at + TS_PACKET;
    if (!(b3 & 0x10) || payload >= end) return true;
    if (pid === 0) this.pat(bytes.subarray(payload, end), start);
    else if (this.pmtPids.has(pid)) this.pmt(bytes.subarray(payload, end), start);
    else if (this.avc.has(pid)) this.avc.get(pid)!.payload(bytes, payload, end, offset - at, start);
    else if (!this.mediaPids.has(pid) && !isTablePid(pid)) return false;
    return !this.unsupported;
  }

  end(): Walked {
    if (this.pmtPids.size === 0 || this.unsupported) return { outcome: 'unsupported', patches: [] };
    for (const reader of this.avc.values()) reader.end();
    return this.unsupported ? { outcome: 'unsupported', patches: [] } : { outcome: 'none', patches: this.patches };
  }

  /** The program association table: the PIDs of the programs' map tables (a section in one packet, as writers put it). */
  private pat(payload: Uint8Array, start: boolean): void {
    const section = sectionOf(payload, start, 0x00);
    if (!section) return;
    for (let i = 8; i + 4 <= section.length - 4; i += 4) {
      const program = (section[i]! << 8) | section[i + 1]!;
      const pid = ((section[i + 2]! & 0x1f) << 8) | section[i + 3]!;
      if (program !== 0) this.pmtPids.add(pid);
    }
  }

  /** A program map table: its streams, each kept, read, or the reason the file is `unsupported`. */
  private pmt(payload: Uint8Array, start: boolean): void {
    const section = sectionOf(payload, start, 0x02);
    if (!section) return;
    const pcr = ((section[8]! & 0x1f) << 8) | section[9]!;
    this.mediaPids.add(pcr);
    let i = 12 + (((section[10]! & 0x0f) << 8) | section[11]!);
    while (i + 5 <= section.length - 4) {
      const type = section[i]!;
      const pid = ((section[i + 1]! & 0x1f) << 8) | section[i + 2]!;
      const infoLength = ((section[i + 3]! & 0x0f) << 8) | section[i + 4]!;
      const info = section.subarray(i + 5, i + 5 + infoLength);
      if (type === 0x1b) {
        if (!this.avc.has(pid)) this.avc.set(pid, new SeiReader(this.patches, () => (this.unsupported = true)));
      } else if (MEDIA_STREAMS.has(type) || (type === 0x06 && descriptors(info).some((d) => MEDIA_DESCRIPTORS.has(d)))) {
        this.mediaPids.add(pid);
      } else {
        this.unsupported = true;
      }
      i += 5 + infoLength;
    }
  }
}

/** A table's section from the payload that starts it (its pointer field skipped), when its table id is `tableId`. */
function sectionOf(payload: Uint8Array, start: boolean, tableId: number): Uint8Array | null {
  if (!start || payload.length < 1) return null;
  const at = 1 + payload[0]!;
  if (payload[at] !== tableId || at + 3 > payload.length) return null;
  const length = ((payload[at + 1]! & 0x0f) << 8) | payload[at + 2]!;
  // A section longer than its packet is not one a camera writes: its streams cannot be known.
  if (at + 3 + length > payload.length) throw new Unreadable('a table continues past its packet');
  return payload.subarray(at, at + 3 + length);
}

/** The tags of the descriptors in `info`. */
function descriptors(info: Uint8Array): number[] {
  const tags: number[] = [];
  for (let i = 0; i + 2 <= info.length; i += 2 + info[i + 1]!) tags.push(info[i]!);
  return tags;
}

/**
 * Reads one H.264 stream's elementary bytes as they come, packet by packet, for its SEI NAL units: each one's raw
 * bytes and where each lies in the file, until the next start code.
 */
class SeiReader {
  /** Zero bytes seen in a row just before the current byte. */
  private zeros = 0;
  /** Bytes of the PES header still to skip, or -1 while its length is not known yet. */
  private header: { skip: number; seen: number; bytes: number[] } | null = null;
  /** Whether the next byte is a NAL unit's header. */
  private nalHeader = false;
  private sei: { bytes: number[]; offsets: number[] } | null = null;

  constructor(
    private readonly patches: BytePatch[],
    private readonly refuse: () => void,
  ) {}

  /** The payload bytes [from, to) of `bytes`, byte `i` of which lies at `base + i` in the file. */
  payload(bytes: Uint8Array, from: number, to: number, base: number, start: boolean): void {
    let i = from;
    if (start) {
      // A PES packet starts: the NAL unit in progress ends with the previous one.
      this.endSei();
      this.zeros = 0;
      this.nalHeader = false;
      this.header = { skip: -1, seen: 0, bytes: [] };
    }
    if (this.header) i = this.skipHeader(bytes, i, to);
    for (; i < to; i++) {
      if (!this.sei && !this.nalHeader) {
        // Inside a unit not read (a slice, most of the stream): on to the next byte 1, the end of any start code.
        let next = i;
        while (next < to && bytes[next] !== 1) next++;
        let k = next - 1;
        while (k >= i && bytes[k] === 0) k--;
        this.zeros = k >= i ? next - 1 - k : this.zeros + (next - i);
        i = next;
        if (i >= to) break;
      }
      const b = bytes[i]!;
      if (this.nalHeader) {
        this.nalHeader = false;
        if ((b & 0x1f) === 6) this.sei = { bytes: [], offsets: [] };
      }
      if (this.sei) {
        this.sei.bytes.push(b);
        this.sei.offsets.push(base + i);
        if (this.sei.bytes.length > MAX_SEI_BYTES) this.refuse();
      }
      if (b === 1 && this.zeros >= 2) {
        // A start code: what came before it (its zeros too) is the end of the unit in progress.
        if (this.sei) {
          const keep = this.sei.bytes.length - 1 - this.zeros;
          this.sei.bytes.length = keep;
          this.sei.offsets.length = keep;
          this.endSei();
        }
        this.nalHeader = true;
      }
      this.zeros = b === 0 ? this.zeros + 1 : 0;
    }
  }

  /** The end of the stream: the unit in progress ends. */
  end(): void {
    this.endSei();
  }

  /** Skips the PES header (start code, stream id, length, flags, its own header data); answers where the data starts. */
  private skipHeader(bytes: Uint8Array, from: number, to: number): number {
    const h = this.header!;
    let i = from;
    while (i < to && h.skip < 0) {
      h.bytes.push(bytes[i++]!);
      if (h.bytes.length === 9) {
        if (h.bytes[0] !== 0 || h.bytes[1] !== 0 || h.bytes[2] !== 1) throw new Unreadable('a video packet without its PES header');
        h.skip = h.bytes[8]!;
      }
    }
    while (i < to && h.seen < h.skip) {
      i++;
      h.seen++;
    }
    if (h.skip >= 0 && h.seen >= h.skip) this.header = null;
    return i;
  }

  private endSei(): void {
    const sei = this.sei;
    this.sei = null;
    if (!sei || sei.bytes.length < 2) return;
    if (!seiPatches(sei.bytes, sei.offsets, this.patches)) this.refuse();
  }
}

/**
 * The patches that take the GPS entries out of the MDPM lists of one SEI NAL unit (`raw`, from its header byte on,
 * each byte at `offsets[i]` in the file), added to `patches`; false when the unit cannot be cleaned with certainty.
 */
export function seiPatches(raw: readonly number[], offsets: readonly number[], patches: BytePatch[]): boolean {
  // The unit without its emulation-prevention bytes, and where each of its bytes is in `raw`.
  const rbsp: number[] = [];
  const from: number[] = [];
  for (let i = 1, zeros = 0; i < raw.length; i++) {
    const b = raw[i]!;
    if (zeros >= 2 && b === 3) {
      zeros = 0;
      continue;
    }
    rbsp.push(b);
    from.push(i);
    zeros = b === 0 ? zeros + 1 : 0;
  }
  const bytes = Uint8Array.from(rbsp);
  let at = 0;
  // Messages until the trailing bits (0x80) or the end.
  while (at < bytes.length && !(bytes[at] === 0x80 && at === bytes.length - 1)) {
    let type = 0;
    while (bytes[at] === 0xff) type += bytes[at++]!;
    type += bytes[at++] ?? 0;
    let size = 0;
    while (bytes[at] === 0xff) size += bytes[at++]!;
    size += bytes[at++] ?? 0;
    if (at + size > bytes.length) return false;
    if (type === 5) {
      if (size < 16) return false;
      if (same(bytes, at, MDPM_UUID) && size >= 21 && same(bytes, at + 16, MDPM)) {
        if (!mdpmPatches(raw, from, bytes, at + 20, at + size, offsets, patches)) return false;
      } else if (!same(bytes, at, X264_UUID)) {
        return false;
      }
    }
    at += size;
  }
  return true;
}

/** The patches for one MDPM list: its count at `at` of `rbsp`, its entries after it, up to `end`. */
function mdpmPatches(raw: readonly number[], from: readonly number[], rbsp: Uint8Array, at: number, end: number, offsets: readonly number[], patches: BytePatch[]): boolean {
  const count = rbsp[at]!;
  const listEnd = at + 1 + 5 * count;
  if (listEnd > end || at === 0) return false;
  const kept: number[] = [];
  let removed = 0;
  for (let e = at + 1; e < listEnd; e += 5) {
    if (isGpsTag(rbsp[e]!)) removed++;
    else kept.push(...rbsp.subarray(e, e + 5));
  }
  if (removed === 0) return true;
  // The raw bytes the list takes: from just after the byte before it (an escape before its first byte included)
  // to its last byte. Those after it read as before when the list ends in as many zeros as it did.
  const rawStart = from[at - 1]! + 1;
  const rawEnd = from[listEnd - 1]! + 1;
  const zerosBefore = escapeState(rbsp, at);
  const zerosAfter = escapeState(rbsp, listEnd);
  const encoded = encodeList([count - removed, ...kept], listEnd - at, rawEnd - rawStart, zerosBefore, zerosAfter);
  if (!encoded) return false;
  // One patch per run of bytes that lie side by side in the file (a list may cross a packet boundary).
  let run: number[] = [];
  let runStart = -1;
  encoded.forEach((b, k) => {
    const offset = offsets[rawStart + k]!;
    if (run.length > 0 && offset !== runStart + run.length) {
      patches.push({ offset: runStart, bytes: Uint8Array.from(run) });
      run = [];
    }
    if (run.length === 0) runStart = offset;
    run.push(b);
  });
  if (run.length > 0) patches.push({ offset: runStart, bytes: Uint8Array.from(run) });
  return true;
}

/**
 * Escapes bytes as an H.264 NAL unit's payload holds them: a 3 after any two zeros that a byte up to 3 follows.
 * `zeros` is how many zero bytes came last in a row (never more than 2 once escaped).
 */
class Escaper {
  readonly out: number[] = [];
  constructor(public zeros = 0) {}

  put(b: number): void {
    if (this.zeros >= 2 && b <= 3) {
      this.out.push(3);
      this.zeros = 0;
    }
    this.out.push(b);
    this.zeros = b === 0 ? this.zeros + 1 : 0;
  }
}

/** The zero bytes an escaper has seen in a row after the first `end` bytes of `rbsp`. */
function escapeState(rbsp: Uint8Array, end: number): number {
  const e = new Escaper();
  for (let i = 0; i < end; i++) e.put(rbsp[i]!);
  return e.zeros;
}

/**
 * `list` followed by filler, `length` bytes in all, escaped as H.264 escapes them after `zerosBefore` zero bytes, in
 * exactly `rawLength` bytes and ending in `zerosAfter` zero bytes; null when no filler makes it fit. The filler
 * (after the list's count, which no reader goes past) holds the escapes the list needs fewer of: two zeros and a 1
 * take one.
 */
function encodeList(list: readonly number[], length: number, rawLength: number, zerosBefore: number, zerosAfter: number): number[] | null {
  const e = new Escaper(zerosBefore);
  for (const b of list) e.put(b);
  let left = length - list.length;
  // The escapes still to take, and the bytes left to take them in (the last few end the list as it ended).
  let escapes = rawLength - e.out.length - left;
  const tail = zerosAfter > 0 ? zerosAfter + 1 : 0;
  const fill = (b: number) => {
    e.put(b);
    left--;
  };
  while (escapes > 0) {
    if (left - (3 - Math.min(e.zeros, 2)) < tail) return null;
    while (e.zeros < 2) fill(0);
    fill(1);
    escapes--;
  }
  if (escapes < 0 || left < tail) return null;
  while (left > zerosAfter) fill(0xff);
  while (left > 0) fill(0);
  return e.out.length === rawLength && e.zeros === zerosAfter ? e.out : null;
}

/** `rbsp` escaped as an H.264 NAL unit's payload. */
export function escapeRbsp(rbsp: readonly number[]): number[] {
  const e = new Escaper();
  for (const b of rbsp) e.put(b);
  return e.out;
}
