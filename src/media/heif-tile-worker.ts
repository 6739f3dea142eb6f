/**
 * The second thread of [Note: A phone's HEIC decoded on two threads] (heif-decode.ts): decodes the tile rows it
 * is given of a HEIF's primary picture and sends their pixels back. Started by a media worker, which holds it.
 */
import { libheif, openHeif, tileRowTop } from './heif-tiles';

export interface TileRowsRequest {
  bytes: ArrayBuffer;
  from: number;
  to: number;
}
export type TileRowsAnswer = { pixels: ArrayBuffer } | { error: string };

self.onmessage = async (event: MessageEvent<TileRowsRequest & { id: number }>) => {
  const { bytes, from, to, id } = event.data;
  let answer: TileRowsAnswer;
  try {
    const file = openHeif(await libheif(), new Uint8Array(bytes));
    try {
      const top = tileRowTop(file.tiling, from);
      const pixels = new Uint8ClampedArray((tileRowTop(file.tiling, to) - top) * file.tiling.width * 4);
      file.decodeRows(from, to, pixels, top);
      answer = { pixels: pixels.buffer };
    } finally {
      file.close();
    }
  } catch (e) {
    answer = { error: e instanceof Error ? e.message : String(e) };
  }
  self.postMessage({ ...answer, id }, { transfer: 'pixels' in answer ? [answer.pixels] : [] });
};
