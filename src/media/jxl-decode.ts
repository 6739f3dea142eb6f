/**
 * JPEG XL for browsers that cannot show it (all but Safari): libjxl's decoder compiled to WebAssembly
 * (@jsquash/jxl, Apache-2.0). Its script and its .wasm are fetched the first time a JPEG XL file is met, never
 * with the first screen, and cached by the service worker on first use ([Note: Pictures the browser cannot
 * decode] in heif-decode.ts). libjxl applies the picture's orientation itself, so the pixels come out upright.
 * The size is checked from the header (readImageSize) before this is called.
 */
import decode, { init } from '@jsquash/jxl/decode';
import wasmUrl from '@jsquash/jxl/codec/dec/jxl_dec.wasm?url';
import type { DecodedPixels } from './canvas-surface';

let loading: Promise<unknown> | null = null;

function ready(): Promise<unknown> {
  loading ??= fetch(wasmUrl)
    .then((r) => {
      if (!r.ok) throw new Error(`jxl_dec.wasm: HTTP ${r.status}`);
      return r.arrayBuffer();
    })
    .then((wasmBinary) => init({ wasmBinary }))
    .catch((e: unknown) => {
      // Offline before it was ever fetched, say: the next JPEG XL tries again.
      loading = null;
      throw e;
    });
  return loading;
}

/** A JPEG XL file's picture as upright RGBA pixels; throws for a file libjxl cannot read. */
export async function decodeJxl(blob: Blob): Promise<DecodedPixels> {
  const [, bytes] = await Promise.all([ready(), blob.arrayBuffer()]);
  const image = await decode(bytes);
  return { width: image.width, height: image.height, data: image.data, orientation: 1 };
}
