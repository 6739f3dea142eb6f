/**
 * MPEG program streams ([Note: Location in an MPEG program stream] in location-mpegps.ts): streams made here pack
 * by pack, as DVD camcorders and older cameras write them, are clean when every packet is media, navigation or
 * padding, and may hold a place when any packet is of a stream that could carry one.
 */
import { describe, expect, it } from 'vitest';
import { findLocationPatches } from './location-patches';

/** An MPEG-2 pack header (14 bytes, no stuffing), and MPEG-1's (12 bytes). */
const pack2 = [0, 0, 1, 0xba, 0x44, 0, 4, 0, 4, 1, 1, 0x89, 0xc3, 0xf8];
const pack1 = [0, 0, 1, 0xba, 0x21, 0, 1, 0, 1, 0x80, 0x1b, 0x91];
const packet = (id: number, payload: number[]) => [0, 0, 1, id, payload.length >> 8, payload.length & 0xff, ...payload];
const frames = (n: number) => Array.from({ length: n }, (_, i) => (i * 7) & 0xff);
const systemHeader = packet(0xbb, [0x80, 0x1b, 0x91, 0x04, 0xe1, 0xff, 0xe0, 0xe0, 0xe8, 0xc0, 0xc0, 0x20]);
const END = [0, 0, 1, 0xb9];
const blob = (...parts: number[][]) => new Blob(parts.map((p) => new Uint8Array(p)));

describe('location in MPEG program streams', () => {
  it('says none for video, audio, DVD audio and navigation, and padding, MPEG-2 or MPEG-1, to the end code and past a sector of zeros', async () => {
    const dvd = blob(pack2, systemHeader, packet(0xbf, frames(980)), packet(0xbf, frames(1018)), pack2, packet(0xe0, frames(2000)), pack2, packet(0xc0, frames(500)), packet(0xbd, frames(300)), packet(0xbe, Array(200).fill(0xff)), END, Array(2048).fill(0));
    expect(await findLocationPatches(dvd)).toEqual({ outcome: 'none', patches: [] });
    const mpeg1 = blob(pack1, systemHeader, packet(0xe0, frames(700)), pack1, packet(0xc0, frames(300)), END);
    expect(await findLocationPatches(mpeg1)).toEqual({ outcome: 'none', patches: [] });
    // A recording that stopped mid-packet.
    expect(await findLocationPatches(blob(pack2, packet(0xe0, frames(2000))).slice(0, 1500))).toEqual({ outcome: 'none', patches: [] });
  });

  it('walks a stream of many megabytes to its end', async () => {
    const sector = [...pack2, ...packet(0xe0, frames(2048 - 14 - 6))];
    const parts: number[][] = Array.from({ length: 2500 }, () => sector);
    expect(await findLocationPatches(blob(...parts))).toEqual({ outcome: 'none', patches: [] });
    // A metadata packet in the last sector is found.
    expect(await findLocationPatches(blob(...parts, pack2, packet(0xfc, [0x33, 0x38, 0x2e, 0x37])))).toEqual({ outcome: 'unsupported', patches: [] });
  });

  it('says unsupported for a stream that may carry a place, a stream map, or bytes that are neither a pack nor a packet', async () => {
    for (const id of [0xfc, 0xbc, 0xf2, 0xfd, 0xff]) {
      expect(await findLocationPatches(blob(pack2, packet(0xe0, frames(100)), packet(id, frames(40)), END))).toEqual({ outcome: 'unsupported', patches: [] });
    }
    expect(await findLocationPatches(blob(pack2, packet(0xe0, frames(100)), [1, 2, 3, 4, 5, 6], pack2, END))).toEqual({ outcome: 'unsupported', patches: [] });
    expect(await findLocationPatches(blob(pack2, packet(0xe0, frames(100)), [0, 0, 0, 7], pack2, END))).toEqual({ outcome: 'unsupported', patches: [] });
  });
});
