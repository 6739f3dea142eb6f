// The page bench/heic-bench.mjs loads in headless Chromium: the same photograph as a HEIC and as a JPEG through
// the real media pipeline, and the HEIC through heic-convert, each timed here, inside the page.
import convert from 'heic-convert/browser';
import { processMedia } from '../../src/media/media-client';
import { sniffType } from '../../src/media/sniff-type';

type Contender = 'ours-heic' | 'ours-heic-single' | 'ours-jpeg' | 'heic-convert';

/** What bench/heic-bench.mjs calls in the page. */
const page = window as unknown as {
  benchSetup(heicUrl: string, singleUrl: string, jpegUrl: string): Promise<void>;
  benchRun(contender: Contender): Promise<{ ms: number; out: string }>;
};

const photos: Partial<Record<'heic' | 'single' | 'jpeg', Blob>> = {};

async function ours(blob: Blob): Promise<string> {
  const media = await processMedia(blob, await sniffType(blob));
  if (!media.preview || !media.thumb) throw new Error(`the pipeline made no copies: ${media.notice ?? media.kind}`);
  return `${media.width}×${media.height} → preview ${Math.round(media.preview.size / 1024)} KiB + thumbnail ${Math.round(media.thumb.size / 1024)} KiB + thumbhash`;
}

async function peer(blob: Blob): Promise<string> {
  // Its documented use: the whole picture out as a JPEG (quality 0.92), which a thumbnailer then takes from.
  const jpeg = await convert({ buffer: new Uint8Array(await blob.arrayBuffer()), format: 'JPEG', quality: 0.92 });
  return `full-size JPEG ${Math.round(jpeg.byteLength / 1024)} KiB`;
}

page.benchSetup = async (heicUrl, singleUrl, jpegUrl) => {
  photos.heic = await (await fetch(heicUrl)).blob();
  photos.single = await (await fetch(singleUrl)).blob();
  photos.jpeg = await (await fetch(jpegUrl)).blob();
};

page.benchRun = async (contender) => {
  const { heic, single, jpeg } = photos;
  if (!heic || !single || !jpeg) throw new Error('benchSetup first');
  const t0 = performance.now();
  const out =
    contender === 'ours-heic' ? await ours(heic) : contender === 'ours-heic-single' ? await ours(single) : contender === 'ours-jpeg' ? await ours(jpeg) : await peer(heic);
  return { ms: performance.now() - t0, out };
};

document.body.dataset.ready = 'true';
