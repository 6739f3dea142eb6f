/**
 * libheif (WebAssembly), loaded once per worker, and a HEIF's primary picture decoded tile row by tile row
 * through its C interface, for [Note: A phone's HEIC decoded on two threads] in heif-decode.ts.
 */
import wasmUrl from 'libheif-js/libheif-wasm/libheif.wasm?url';

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
/** libheif's C functions as compiled: a struct returned by value is written through a first pointer. */
export interface LibHeif {
  HeifDecoder: new () => HeifDecoder;
  heif_context_free(context: number): void;
  HEAPU8: Uint8Array;
  HEAP32: Int32Array;
  HEAPU32: Uint32Array;
  _malloc(size: number): number;
  _free(pointer: number): void;
  _heif_context_alloc(): number;
  _heif_context_free(context: number): void;
  _heif_context_read_from_memory_without_copy(error: number, context: number, bytes: number, size: number, reserved: number): void;
  _heif_context_get_primary_image_handle(error: number, context: number, handle: number): void;
  _heif_image_handle_get_width(handle: number): number;
  _heif_image_handle_get_height(handle: number): number;
  _heif_image_handle_get_image_tiling(error: number, handle: number, transformed: number, tiling: number): void;
  _heif_image_handle_release(handle: number): void;
  _heif_image_handle_decode_image_tile(error: number, handle: number, image: number, colorspace: number, chroma: number, options: number, x: number, y: number): void;
  _heif_image_get_plane_readonly2(image: number, channel: number, stride: number): number;
  _heif_image_get_width(image: number, channel: number): number;
  _heif_image_get_height(image: number, channel: number): number;
  _heif_image_release(image: number): void;
  _heif_image_handle_get_item_id(handle: number): number;
  _heif_item_get_transformation_properties(context: number, item: number, ids: number, count: number): number;
  _heif_item_get_property_type(context: number, item: number, property: number): number;
  _heif_item_get_property_transform_rotation_ccw(context: number, item: number, property: number): number;
  _heif_decoding_options_alloc(): number;
  _heif_decoding_options_free(options: number): void;
}

let loading: Promise<LibHeif> | null = null;

export function libheif(): Promise<LibHeif> {
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

/** How the primary picture is cut, as stored (before it is turned as the file says). */
export interface Tiling {
  columns: number;
  rows: number;
  tileWidth: number;
  tileHeight: number;
  width: number;
  height: number;
}

const RGB = 1;
const INTERLEAVED_RGBA = 11;
const INTERLEAVED = 10;

/** A HEIF file opened in libheif's heap: its primary picture's size and tiling. `close` frees all of it. */
export interface OpenHeif {
  /** The picture's size as shown. */
  width: number;
  height: number;
  tiling: Tiling;
  /**
   * How the stored picture is turned to be shown, as an EXIF orientation (1, 3, 6 or 8), from its `irot`; null
   * when the file also mirrors or crops it (`imir`, `clap`), which only libheif's whole decode applies.
   */
  orientation: number | null;
  /**
   * Decodes tile rows [from, to) of the stored picture, unturned, into `target`, a picture `tiling.width` wide
   * whose first row is `firstRow`.
   */
  decodeRows(from: number, to: number, target: Uint8ClampedArray, firstRow: number): void;
  close(): void;
}

export function openHeif(lib: LibHeif, bytes: Uint8Array): OpenHeif {
  // Scratch: the error struct (code, subcode, message), out-pointers, the tiling struct.
  const scratch = lib._malloc(128);
  const error = scratch;
  const out = scratch + 16;
  const stride = scratch + 20;
  const tilingAt = scratch + 32;
  const data = lib._malloc(bytes.length);
  const context = lib._heif_context_alloc();
  // Tiles come as stored: the turn is the pipeline's, as for a JPEG's EXIF orientation.
  const options = lib._heif_decoding_options_alloc();
  lib.HEAPU8[options + 1] = 1; // ignore_transformations
  let handle = 0;
  const check = (what: string) => {
    const code = lib.HEAP32[error >> 2]!;
    if (code !== 0) throw new Error(`libheif: ${what} failed (${code}.${lib.HEAP32[(error >> 2) + 1]})`);
  };
  const close = () => {
    if (handle) lib._heif_image_handle_release(handle);
    handle = 0;
    lib._heif_context_free(context);
    lib._heif_decoding_options_free(options);
    lib._free(data);
    lib._free(scratch);
  };
  try {
    lib.HEAPU8.set(bytes, data);
    lib._heif_context_read_from_memory_without_copy(error, context, data, bytes.length, 0);
    check('reading the file');
    lib._heif_context_get_primary_image_handle(error, context, out);
    check('finding the primary picture');
    handle = lib.HEAPU32[out >> 2]!;
    lib.HEAPU8.fill(0, tilingAt, tilingAt + 72);
    lib.HEAP32[tilingAt >> 2] = 1;
    lib._heif_image_handle_get_image_tiling(error, handle, 0, tilingAt);
    check('reading the tiling');
    const [columns, rows, tileWidth, tileHeight, width, height] = lib.HEAPU32.subarray((tilingAt >> 2) + 1, (tilingAt >> 2) + 7);
    const tiling: Tiling = { columns: columns!, rows: rows!, tileWidth: tileWidth!, tileHeight: tileHeight!, width: width!, height: height! };
    const shown = handle;
    return {
      width: lib._heif_image_handle_get_width(shown),
      height: lib._heif_image_handle_get_height(shown),
      tiling,
      orientation: orientationOf(lib, context, lib._heif_image_handle_get_item_id(shown), tilingAt),
      decodeRows(from, to, target, firstRow) {
        const { width: w, height: h, tileWidth: tw, tileHeight: th } = tiling;
        for (let ty = from; ty < to; ty++) {
          for (let tx = 0; tx < tiling.columns; tx++) {
            lib._heif_image_handle_decode_image_tile(error, shown, out, RGB, INTERLEAVED_RGBA, options, tx, ty);
            check(`decoding tile ${tx},${ty}`);
            const image = lib.HEAPU32[out >> 2]!;
            try {
              const pixels = lib._heif_image_get_plane_readonly2(image, INTERLEAVED, stride);
              const rowBytes = lib.HEAPU32[stride >> 2]!;
              const tileW = lib._heif_image_get_width(image, INTERLEAVED);
              const tileH = lib._heif_image_get_height(image, INTERLEAVED);
              // Where the tile lands in the picture; the edge tiles reach past it.
              const x0 = tx * tw;
              const y0 = ty * th;
              const right = Math.min(tileW, w - x0);
              const heap = lib.HEAPU8; // read after decoding: the heap may have grown
              for (let r = 0; r < tileH && y0 + r < h; r++) {
                const at = pixels + r * rowBytes;
                target.set(heap.subarray(at, at + right * 4), ((y0 + r - firstRow) * w + x0) * 4);
              }
            } finally {
              lib._heif_image_release(image);
            }
          }
        }
      },
      close,
    };
  } catch (e) {
    close();
    throw e;
  }
}

/** The first picture row of tile row `ty`, within the picture. */
export function tileRowTop(tiling: Tiling, ty: number): number {
  return Math.min(tiling.height, ty * tiling.tileHeight);
}

const fourcc = (code: string) => [...code].reduce((n, c) => (n << 8) | c.charCodeAt(0), 0);
const IROT = fourcc('irot');
/** EXIF orientations by the quarter turns anticlockwise `irot` gives (3 turns it 90° clockwise: 6). */
const ORIENTATION_BY_TURNS = [1, 8, 3, 6];

/** The turn of item `item` as an EXIF orientation, or null if it has other transformations too. */
function orientationOf(lib: LibHeif, context: number, item: number, scratch: number): number | null {
  const found = lib._heif_item_get_transformation_properties(context, item, scratch, 8);
  let turns = 0;
  for (let i = 0; i < found; i++) {
    const property = lib.HEAPU32[(scratch >> 2) + i]!;
    if (lib._heif_item_get_property_type(context, item, property) !== IROT) return null;
    turns += Math.round(lib._heif_item_get_property_transform_rotation_ccw(context, item, property) / 90);
  }
  return ORIENTATION_BY_TURNS[((turns % 4) + 4) % 4]!;
}
