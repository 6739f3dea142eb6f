// The page bench/import-bench.mjs loads in headless Chromium for the import's two baselines, over the same photos
// the app is given: the media pipeline alone (the app's media client, as many files at once as the upload queue
// runs), and bare writes of the same bytes to the origin's private file system (what the local backend's
// uploads come down to).
import { DEFAULT_LIMITS } from '../../src/config';
import { processMedia } from '../../src/media/media-client';
import { sniffType } from '../../src/media/sniff-type';

declare global {
  interface Window {
    benchPipeline(): Promise<{ ms: number; made: number }>;
    benchWrite(): Promise<{ ms: number; bytes: number }>;
  }
}

const files = () => [...((document.getElementById('files') as HTMLInputElement).files ?? [])];

/** Runs `work` over every file, `lanes` at a time, in order. */
async function inLanes(all: File[], lanes: number, work: (f: File) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < all.length) await work(all[next++]!);
    }),
  );
}

window.benchPipeline = async () => {
  let made = 0;
  const t0 = performance.now();
  await inLanes(files(), DEFAULT_LIMITS.filesInFlight, async (f) => {
    const media = await processMedia(f, await sniffType(f));
    if (media.preview && media.thumb) made++;
  });
  return { ms: performance.now() - t0, made };
};

window.benchWrite = async () => {
  const root = await navigator.storage.getDirectory();
  const dir = await root.getDirectoryHandle('bench', { create: true });
  let bytes = 0;
  const t0 = performance.now();
  await inLanes(files(), DEFAULT_LIMITS.filesInFlight, async (f) => {
    const handle = await dir.getFileHandle(f.name, { create: true });
    await f.stream().pipeTo(await handle.createWritable());
    bytes += f.size;
  });
  const ms = performance.now() - t0;
  await root.removeEntry('bench', { recursive: true });
  return { ms, bytes };
};

document.body.dataset.ready = 'true';
