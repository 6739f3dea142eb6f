/**
 * [Note: Pictures the browser cannot decode]
 * HEIC/HEIF (iPhones, many Android phones) is decoded natively only by Safari. Elsewhere the media worker
 * decodes it with libheif compiled to WebAssembly (libheif-js: libheif 1.23, which reads iOS 18 files; LGPL-3.0,
 * so it stays a separate, replaceable chunk and its own .wasm file). Both are fetched the first time such a file
 * is met, never with the first screen, and are not precached by the service worker (vite.config.ts).
 * The primary image of a multi-image file is taken; libheif applies the file's rotation and mirroring, so the
 * pixels come out oriented, as a bitmap decoded `from-image` does. A gain-map (HDR) photo gives its SDR base
 * image. The size libheif reports is checked against the decode limits before a pixel is allocated.
 *
 * [Note: A phone's HEIC decoded on two threads]
 * Phones store a photo as a grid of small HEVC pictures (an iPhone's 12 MP photo: 8 × 6 tiles of 512 × 512), and
 * libheif decodes them one after another on the one thread its WebAssembly has here (threads would need
 * SharedArrayBuffer, so a cross-origin-isolated app). Decoding the tiles is most of a HEIC's time: about 0.9 s
 * of 1.2 s for 12 MP on a 2-core machine. So the lower half of a grid's tile rows goes to a helper worker
 * (heif-tile-worker.ts, with its own libheif) while this worker decodes the upper half into the same picture.
 * The tiles are put together as stored, and the picture's `irot` (iPhones turn a photo held upright so) becomes
 * its orientation, applied by the pipeline as a JPEG's EXIF orientation is. The helper starts with the first grid
 * and is let go after HELPER_IDLE_MS without one, which frees its heap. A single-picture HEIF, a grid of one tile
 * row, or a grid also mirrored or cropped (`imir`, `clap`) is decoded whole, by libheif alone.
 */
import type { DecodedPixels } from './canvas-surface';
import { libheif, openHeif, tileRowTop, type LibHeif, type OpenHeif } from './heif-tiles';
import type { TileRowsAnswer, TileRowsRequest } from './heif-tile-worker';
import { TooLargeToDecode, type ImageSize } from './image-header';

/** How long an idle helper is kept: a batch of HEICs uses one, and its heap (tens of MB) goes after. */
export const HELPER_IDLE_MS = 20_000;

/**
 * The primary picture of a HEIF file as upright RGBA pixels. Throws `TooLargeToDecode` past `fits`, and any other
 * error for a file libheif cannot read (truncated, corrupt, not HEIF). The file's parsed context and its
 * images are freed before this returns, so the WebAssembly heap holds nothing of a file once it is done.
 */
export async function decodeHeif(blob: Blob, fits: (size: ImageSize) => boolean): Promise<DecodedPixels> {
  const [lib, buffer] = await Promise.all([libheif(), blob.arrayBuffer()]);
  const bytes = new Uint8Array(buffer);
  const file = openHeif(lib, bytes);
  try {
    const size = { width: file.width, height: file.height };
    if (!size.width || !size.height) throw new Error('empty HEIF picture');
    if (!fits(size)) throw new TooLargeToDecode(`${size.width} × ${size.height}`);
    const { tiling } = file;
    if (tiling.rows >= 2 && file.orientation !== null) return await decodeInHalves(file, file.orientation, buffer);
  } finally {
    file.close();
  }
  return decodeWhole(lib, bytes);
}

async function decodeInHalves(file: OpenHeif, orientation: number, bytes: ArrayBuffer): Promise<DecodedPixels> {
  const { tiling } = file;
  const split = Math.ceil(tiling.rows / 2);
  const data = new Uint8ClampedArray(tiling.width * tiling.height * 4);
  // The file is in libheif's heap already: its bytes go to the helper.
  const lower = helperRows({ bytes, from: split, to: tiling.rows });
  // Settled here too, so a failure in the upper half does not leave the lower half's rejection unheard.
  lower.catch(() => undefined);
  file.decodeRows(0, split, data, 0);
  data.set(new Uint8ClampedArray(await lower), tileRowTop(tiling, split) * tiling.width * 4);
  return { width: tiling.width, height: tiling.height, data, orientation };
}

export async function decodeWhole(lib: LibHeif, bytes: Uint8Array): Promise<DecodedPixels> {
  const decoder = new lib.HeifDecoder();
  const images = decoder.decode(bytes);
  try {
    const image = images.find((i) => i.is_primary()) ?? images[0];
    if (!image) throw new Error('no picture in the HEIF file');
    const pixels = { width: image.get_width(), height: image.get_height(), orientation: 1 };
    const data = new Uint8ClampedArray(pixels.width * pixels.height * 4);
    await new Promise<void>((resolve, reject) => {
      image.display({ ...pixels, data }, (result) => (result ? resolve() : reject(new Error('libheif could not decode the picture'))));
    });
    return { ...pixels, data };
  } finally {
    for (const i of images) i.free();
    if (decoder.decoder) lib.heif_context_free(decoder.decoder);
    decoder.decoder = null;
  }
}

let helper: Worker | null = null;
let idle: ReturnType<typeof setTimeout> | undefined;
let nextRequest = 0;
const pending = new Map<number, { resolve: (pixels: ArrayBuffer) => void; reject: (e: Error) => void }>();

function stopHelper(reason: string): void {
  helper?.terminate();
  helper = null;
  for (const { reject } of pending.values()) reject(new Error(reason));
  pending.clear();
}

function startHelper(): Worker {
  const worker = new Worker(new URL('./heif-tile-worker.ts', import.meta.url), { type: 'module' });
  worker.onmessage = (event: MessageEvent<TileRowsAnswer & { id: number }>) => {
    const request = pending.get(event.data.id);
    pending.delete(event.data.id);
    if ('error' in event.data) request?.reject(new Error(event.data.error));
    else request?.resolve(event.data.pixels);
  };
  worker.onerror = () => stopHelper('the HEIF decoding helper stopped');
  return worker;
}

/** Tile rows decoded by the helper: their pixels, a band as wide as the picture. */
function helperRows(request: TileRowsRequest): Promise<ArrayBuffer> {
  clearTimeout(idle);
  helper ??= startHelper();
  const id = nextRequest++;
  const done = new Promise<ArrayBuffer>((resolve, reject) => pending.set(id, { resolve, reject }));
  helper.postMessage({ ...request, id }, [request.bytes]);
  return done.finally(() => {
    if (pending.size === 0) idle = setTimeout(() => stopHelper('idle'), HELPER_IDLE_MS);
  });
}
