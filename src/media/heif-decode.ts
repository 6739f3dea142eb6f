/**
 * [Note: Pictures the browser cannot decode]
 * HEIC/HEIF (iPhones, many Android phones) is decoded natively only by Safari. Elsewhere the media worker
 * decodes it with libheif compiled to WebAssembly (libheif-js: libheif 1.23, which reads iOS 18 files; LGPL-3.0,
 * so it stays a separate, replaceable chunk and its own .wasm file). Both are fetched the first time such a file
 * is met, never with the first screen, and are not precached by the service worker (vite.config.ts).
 * The primary image of a multi-image file is taken; libheif applies the file's rotation and mirroring, so the
 * pixels come out oriented, as a bitmap decoded `from-image` does. A gain-map (HDR) photo gives its SDR base
 * image. The size libheif reports is checked against the decode limits before a pixel is allocated.
 */
import wasmUrl from 'libheif-js/libheif-wasm/libheif.wasm?url';
import type { DecodedPixels } from './canvas-surface';
import { TooLargeToDecode, type ImageSize } from './image-header';

/** The part of libheif-js's JavaScript wrapper used here (its type declarations cover only the raw bindings). */
interface HeifImage {
  get_width(): number;
  get_height(): number;
  is_primary(): boolean;
  display(target: { data: Uint8ClampedArray; width: number; height: number }, done: (result: unknown) => void): void;
  free(): void;
}
interface HeifDecoder {
  decode(bytes: Uint8Array): HeifImage[];
  /** The file's parsed context, freed only by the next `decode` unless freed here. */
  decoder: number | null;
}
interface LibHeif {
  HeifDecoder: new () => HeifDecoder;
  heif_context_free(context: number): void;
}

let loading: Promise<LibHeif> | null = null;

function libheif(): Promise<LibHeif> {
  loading ??= (async () => {
    const [{ default: factory }, wasm] = await Promise.all([
      import('libheif-js/libheif-wasm/libheif.js'),
      fetch(wasmUrl).then((r) => {
        if (!r.ok) throw new Error(`libheif.wasm: HTTP ${r.status}`);
        return r.arrayBuffer();
      }),
    ]);
    return new Promise<LibHeif>((resolve, reject) => {
      let module: unknown = null;
      module = factory({
        wasmBinary: wasm,
        onRuntimeInitialized: () => queueMicrotask(() => resolve(module as LibHeif)),
        onAbort: (why: unknown) => reject(new Error(`libheif: ${String(why)}`)),
      });
    });
  })().catch((e: unknown) => {
    // Offline before it was ever fetched, say: the next HEIC tries again.
    loading = null;
    throw e;
  });
  return loading;
}

/**
 * The primary picture of a HEIF file as upright RGBA pixels. Throws `TooLargeToDecode` past `fits`, and any other
 * error for a file libheif cannot read (truncated, corrupt, not HEIF). The file's parsed context and its
 * images are freed before this returns, so the WebAssembly heap holds nothing of a file once it is done.
 */
export async function decodeHeif(blob: Blob, fits: (size: ImageSize) => boolean): Promise<DecodedPixels> {
  const [lib, bytes] = await Promise.all([libheif(), blob.arrayBuffer()]);
  const decoder = new lib.HeifDecoder();
  const images = decoder.decode(new Uint8Array(bytes));
  try {
    const image = images.find((i) => i.is_primary()) ?? images[0];
    if (!image) throw new Error('no picture in the HEIF file');
    const size = { width: image.get_width(), height: image.get_height() };
    if (!size.width || !size.height) throw new Error('empty HEIF picture');
    if (!fits(size)) throw new TooLargeToDecode(`${size.width} × ${size.height}`);
    const pixels = { ...size, data: new Uint8ClampedArray(size.width * size.height * 4), orientation: 1 };
    await new Promise<void>((resolve, reject) => {
      image.display(pixels, (result) => (result ? resolve() : reject(new Error('libheif could not decode the picture'))));
    });
    return pixels;
  } finally {
    for (const i of images) i.free();
    if (decoder.decoder) lib.heif_context_free(decoder.decoder);
    decoder.decoder = null;
  }
}
