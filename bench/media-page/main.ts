// The page bench/media-bench.mjs loads in headless Chromium: the real media pipeline and
// browser-image-compression, each timed here, inside the page, on the same photo.
import imageCompression from 'browser-image-compression';
import { DEFAULT_LIMITS } from '../../src/config';
import { processMedia } from '../../src/media/media-client';
import { sniffType } from '../../src/media/sniff-type';

type Contender = 'ours' | 'bic-main' | 'bic-worker';

interface OutputFile {
  width: number;
  height: number;
  bytes: number;
  type: string;
}

interface Run {
  ms: number;
  preview: OutputFile;
  thumb: OutputFile;
}

declare global {
  interface Window {
    benchSetup(photoUrl: string, libURL: string): Promise<void>;
    benchRun(contender: Contender): Promise<Run>;
    /** The pipeline's preview of the photo at `photoUrl`, its bytes in base64 (bench/preview-quality-bench.mjs). */
    benchPreview(photoUrl: string): Promise<string>;
  }
}

let photo: Blob | null = null;
let libraryUrl = '';

async function describe(blob: Blob): Promise<OutputFile> {
  const bitmap = await createImageBitmap(blob);
  const out = { width: bitmap.width, height: bitmap.height, bytes: blob.size, type: blob.type };
  bitmap.close();
  return out;
}

async function ours(blob: Blob) {
  const media = await processMedia(blob, await sniffType(blob));
  if (!media.preview || !media.thumb) throw new Error(`the pipeline made no copies: ${media.notice ?? media.kind}`);
  return { preview: media.preview, thumb: media.thumb };
}

async function compression(blob: Blob, useWebWorker: boolean) {
  const file = new File([blob], 'photo.jpg', { type: 'image/jpeg' });
  const options = (maxWidthOrHeight: number, initialQuality: number) => ({
    maxWidthOrHeight,
    initialQuality,
    fileType: 'image/webp',
    useWebWorker,
    libURL: libraryUrl,
    preserveExif: false,
  });
  // Its usual use: one call per output, each from the original file.
  const preview = await imageCompression(file, options(DEFAULT_LIMITS.previewLongEdge, DEFAULT_LIMITS.previewQuality));
  const thumb = await imageCompression(file, options(DEFAULT_LIMITS.thumbLongEdge, DEFAULT_LIMITS.thumbQuality));
  return { preview, thumb };
}

window.benchSetup = async (photoUrl, libURL) => {
  const res = await fetch(photoUrl);
  photo = new Blob([await res.arrayBuffer()], { type: 'image/jpeg' });
  libraryUrl = libURL;
};

window.benchRun = async (contender) => {
  if (!photo) throw new Error('benchSetup first');
  const t0 = performance.now();
  const out = contender === 'ours' ? await ours(photo) : await compression(photo, contender === 'bic-worker');
  const ms = performance.now() - t0;
  return { ms, preview: await describe(out.preview), thumb: await describe(out.thumb) };
};

window.benchPreview = async (photoUrl) => {
  const res = await fetch(photoUrl);
  const blob = new Blob([await res.arrayBuffer()], { type: res.headers.get('content-type') ?? 'image/jpeg' });
  const { preview } = await ours(blob);
  const bytes = new Uint8Array(await preview.arrayBuffer());
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
};

document.body.dataset.ready = 'true';
