/**
 * The files of the decoders the media worker loads late (HEIF, JPEG XL, TIFF, camera raw previews): the build
 * names their chunks and their WebAssembly `decoder-…` (vite.config.ts). They are left out of the service
 * worker's precache, so installing the app does not download them, and cached by it the first time a photo
 * needs them, so they work offline afterwards ([Note: Pictures the browser cannot decode] in src/media/heif-decode.ts).
 */
export const DECODER_ASSET_PREFIXES = ['decoder'] as const;

/** Whether a same-origin path is one of those files (`/assets/<prefix>-<hash>.js`, `….wasm`). */
export function isDecoderAsset(pathname: string): boolean {
  const name = pathname.startsWith('/assets/') ? pathname.slice('/assets/'.length) : '';
  return DECODER_ASSET_PREFIXES.some((prefix) => name.startsWith(`${prefix}-`) || name.startsWith(`${prefix}.`));
}
